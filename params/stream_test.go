package params_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

func TestDecodeReaderErrorsCarryTheStreamLine(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type": "object", "properties": {"n": {"type": "integer"}}}`))
	require.NoError(t, err)
	in := "n: 1\n---\nn: 2\n---\n{\"n\": 1e99999999999}\n---\nn: 4\n"
	var got []int
	err = params.DecodeReader(context.Background(), s, strings.NewReader(in), 0, func(d params.Document[any]) error {
		if unreadable(d) {
			return d.Err // stop at the first that cannot be read
		}
		got = append(got, d.Index)
		return nil
	})
	assert.Equal(t, []int{0, 1}, got, "the documents before the unreadable one")
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "doc 2: "), err.Error())
	list := schema.ErrorsOf(err)
	require.Len(t, list, 1)
	de := list[0]
	assert.Equal(t, schema.KindLimit, de.Kind)
	assert.Equal(t, "/n", de.Pointer)
	assert.True(t, strings.HasPrefix(de.Message, "doc 2: "), "ErrorsOf keeps it in the message")

	// Decode reads the same document the same way.
	_, err2 := params.Decode(s, []byte("{\"n\": 1e99999999999}\n"))
	assert.Equal(t, "doc 2: "+err2.Error(), err.Error())
}

func TestDocumentLocate(t *testing.T) {
	d := params.Document[any]{Line: 10}
	list := schema.ErrorList{{Line: 2, Message: "a"}, {Pointer: "/x", Message: "b"}}
	err := list.Err()
	require.Equal(t, err, d.Locate(err))
	assert.Equal(t, 11, list[0].Line)
	assert.Equal(t, 0, list[1].Line, "no line stays no line")
	one := &schema.Error{Line: 1}
	_ = d.Locate(errors.Join(errors.New("x"), one))
	assert.Equal(t, 10, one.Line)
	assert.NoError(t, d.Locate(nil))
}

func TestDecodeReaderKeepsOrderOnManyDocuments(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		b.WriteString("---\n")
		b.WriteString(strings.Repeat(" ", i%7) + "x\n")
	}
	docs, err := readAll(nil, []byte(b.String()))
	require.NoError(t, err)
	require.Len(t, docs, 3000)
	for i, d := range docs {
		assert.Equal(t, i, d.Index)
		assert.Equal(t, 2*i+2, d.Line)
	}
}
