package splice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestApply(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		edits []Edit
		want  string
	}{
		{name: "insertions at one offset keep their order", src: "a: 1\n",
			edits: []Edit{{At: 5, End: 5, Text: "b: 2\n"}, {At: 5, End: 5, Text: "c: 3\n"}}, want: "a: 1\nb: 2\nc: 3\n"},
		{name: "an insertion stands before the rest of a removal at its offset", src: "a: 1\nb: 2\nc: 3\n",
			edits: []Edit{{At: 5, End: 5, Text: "x: 0\n"}, {At: 5, End: 10, Text: ""}}, want: "a: 1\nx: 0\nc: 3\n"},
		{name: "the same, listed the other way", src: "a: 1\nb: 2\nc: 3\n",
			edits: []Edit{{At: 5, End: 10, Text: ""}, {At: 5, End: 5, Text: "x: 0\n"}}, want: "a: 1\nx: 0\nc: 3\n"},
		{name: "replacements anywhere", src: "a: 1\nb: 2\n",
			edits: []Edit{{At: 3, End: 4, Text: "10"}, {At: 8, End: 9, Text: "20"}}, want: "a: 10\nb: 20\n"},
		{name: "CRLF files get CRLF", src: "a: 1\r\n",
			edits: []Edit{{At: 6, End: 6, Text: "b: 2\n"}}, want: "a: 1\r\nb: 2\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Parse([]byte(tt.src))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(d.Apply(tt.edits)))
			assert.Equal(t, tt.src, string(d.Src), "the source is not changed")
		})
	}
}

func TestDoc(t *testing.T) {
	d, err := Parse([]byte("a:\n    b: 1 # c\nl: [1, {x: \"]\"}] # d\n"))
	require.NoError(t, err)
	assert.Equal(t, 4, d.Step)
	assert.False(t, d.JSON)
	assert.Equal(t, 2, d.LineOf(d.LineStart(2)))
	assert.Equal(t, "    b: 1 # c", d.Line(2))
	l := Member(d.Root, "l")
	require.NotNil(t, l)
	end, err := MatchingClose(d.Src, d.Start(l))
	require.NoError(t, err)
	assert.Equal(t, byte(']'), d.Src[end])
	assert.Equal(t, "l: [1, {x: \"]\"}]", d.Line(3)[:end-d.LineStart(3)+1])
	n, err := d.NodeAt("/a/b")
	require.NoError(t, err)
	assert.Equal(t, "1", n.Value)
	_, err = d.NodeAt("/a/zz")
	assert.Error(t, err)

	j, err := Parse([]byte(`{"a": [1]}`))
	require.NoError(t, err)
	assert.True(t, j.JSON)
	assert.True(t, j.OneLine)

	empty, err := Parse([]byte("# only a comment\n"))
	require.NoError(t, err)
	assert.Nil(t, empty.Root)
}
