package edit_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/edit"
	"github.com/paramkit/paramkit/schema"
)

const appSchema = `
type: object
properties:
  name: {type: string, default: app}
  replicas: {type: integer, default: 1}
  image:
    type: object
    properties:
      registry: {type: string}
      repository: {type: string}
      tag: {type: string}
      pullPolicy: {type: string}
  ports:
    type: array
    items: {type: integer}
  resources:
    type: object
  env:
    type: object
    additionalProperties: {type: string}
  debug: {type: boolean}
  extra: {}
`

// runEdit runs a sparse update of src and edits src with its result.
func runEdit(t *testing.T, s *schema.Schema, src string, set, ops []string) (string, any) {
	t.Helper()
	old, err := params.Decode(s, []byte(src))
	if err != nil {
		old = map[string]any{}
	}
	r, err := (&params.Update{Schema: s, Old: old, Set: set, Operations: ops, Sparse: true}).Run()
	require.NoError(t, err)
	out, err := edit.Values(s, []byte(src), old, r.Values)
	require.NoError(t, err)
	return string(out), r.Values
}

func TestValues(t *testing.T) {
	s, err := schema.Parse([]byte(appSchema))
	require.NoError(t, err)
	tests := []struct {
		name string
		src  string
		set  []string
		ops  []string
		want string
	}{
		{name: "a scalar in place, its comment kept",
			src:  "# app\nname: web # the name\nreplicas: 2\n",
			set:  []string{"replicas=5"},
			want: "# app\nname: web # the name\nreplicas: 5\n"},
		{name: "double quotes kept",
			src:  "image:\n  tag: \"1.0\"\n",
			set:  []string{"image.tag=1.1"},
			want: "image:\n  tag: \"1.1\"\n"},
		{name: "single quotes kept",
			src:  "image:\n  tag: '1.0'\n",
			set:  []string{"image.tag=it's"},
			want: "image:\n  tag: 'it''s'\n"},
		{name: "plain stays plain where YAML reads a string",
			src:  "image:\n  tag: v1\n",
			set:  []string{"image.tag=v2"},
			want: "image:\n  tag: v2\n"},
		{name: "text YAML reads as a number is quoted, even on a string node (Helm reads it by YAML's rules)",
			src:  "image:\n  tag: v1\n",
			set:  []string{"image.tag=1.10"},
			want: "image:\n  tag: \"1.10\"\n"},
		{name: "a new key in schema order with the file's indentation",
			src:  "image:\n    registry: docker.io\n    tag: v1\n",
			set:  []string{"image.repository=nginx"},
			want: "image:\n    registry: docker.io\n    repository: nginx\n    tag: v1\n"},
		{name: "a new key before the first",
			src:  "# head\n\n# the tag\nimage:\n  tag: v1\n",
			set:  []string{"name=web"},
			want: "# head\n\nname: web\n# the tag\nimage:\n  tag: v1\n"},
		{name: "a new object",
			src:  "name: web\ndebug: true\n",
			set:  []string{"image.tag=v2"},
			want: "name: web\nimage:\n  tag: v2\ndebug: true\n"},
		{name: "an undeclared key goes last",
			src:  "name: web\ndebug: true\n",
			set:  []string{"zzz=1"},
			want: "name: web\ndebug: true\nzzz: 1\n"},
		{name: "a removed key takes its comments",
			src:  "name: web\n\n# resources\n# of the pod\nresources: {}\n  # limits:\n  #   cpu: 100m\n\ndebug: true\n",
			ops:  []string{"remove resources"},
			want: "name: web\n\ndebug: true\n"},
		{name: "into an empty object",
			src:  "resources: {}\ndebug: true\n",
			set:  []string{"resources.cpu=1"},
			want: "resources:\n  cpu: 1\ndebug: true\n"},
		{name: "a key into a nested object and a sibling after it",
			src:  "image:\n  registry: r\nreplicas: 1\n",
			set:  []string{"image.tag=t", "ports=[80]"},
			want: "image:\n  registry: r\n  tag: t\nreplicas: 1\nports:\n  - 80\n"},
		{name: "a list grows",
			src:  "ports:\n  - 80 # http\n",
			ops:  []string{"add ports=443"},
			want: "ports:\n  - 80 # http\n  - 443\n"},
		{name: "a list shrinks",
			src:  "ports:\n  # first\n  - 80 # http\n  # second\n  - 443\n  # third\n  - 8080\nname: x\n",
			ops:  []string{"remove ports[2]", "remove ports[1]"},
			want: "ports:\n  # first\n  - 80 # http\nname: x\n"},
		{name: "a list item removed in the middle takes only its lines",
			src:  "ports:\n  # first\n  - 80\n  # second\n  - 443\n  - 8080 # alt\n",
			ops:  []string{"remove ports[0]"},
			want: "ports:\n  # second\n  - 443\n  - 8080 # alt\n"},
		{name: "a list item inserted in the middle",
			src:  "ports:\n- 80 # web\n- 8080 # alt\n",
			ops:  []string{"add ports/1=443"},
			want: "ports:\n- 80 # web\n- 443\n- 8080 # alt\n"},
		{name: "a list element in place",
			src:  "ports:\n- 80 # http\n- 81\n",
			set:  []string{"ports[1]=82"},
			want: "ports:\n- 80 # http\n- 82\n"},
		{name: "an empty value",
			src:  "name:\ndebug: true\n",
			set:  []string{"name=x"},
			want: "name: x\ndebug: true\n"},
		{name: "a string that reads as a bool on an open node is quoted",
			src:  "extra: a\n",
			set:  []string{"extra=\"true\""},
			want: "extra: \"true\"\n"},
		{name: "a block scalar replaced",
			src:  "extra: |\n  line one\n  line two\ndebug: true\n",
			set:  []string{"extra=one"},
			want: "extra: one\ndebug: true\n"},
		{name: "a block scalar stays one",
			src:  "extra: |\n  line one\n  line two\ndebug: true # d\n",
			set:  []string{"extra=\"line one\\nline 2\\n\""},
			want: "extra: |\n  line one\n  line 2\ndebug: true # d\n"},
		{name: "a block scalar without a final line break",
			src:  "list:\n  - |-\n    a\n\n    b\n",
			set:  []string{"list[0]=\"a\\n\\nc\""},
			want: "list:\n  - |-\n    a\n\n    c\n"},
		{name: "a flow mapping",
			src:  "env: {A: a, B: b}\n",
			set:  []string{"env.B=c", "env.C=d"},
			want: "env: {A: a, B: c, C: d}\n"},
		{name: "JSON stays JSON",
			src:  "{\n  \"name\": \"web\",\n  \"image\": {\"tag\": \"v1\"}\n}\n",
			set:  []string{"replicas=3", "image.tag=v2"},
			want: "{\n  \"name\": \"web\",\n  \"replicas\": 3,\n  \"image\": {\"tag\": \"v2\"}\n}\n"},
		{name: "JSON removal",
			src:  "{\n  \"name\": \"web\",\n  \"debug\": true\n}\n",
			ops:  []string{"remove debug"},
			want: "{\n  \"name\": \"web\"\n}\n"},
		{name: "CRLF kept",
			src:  "name: web\r\ndebug: true\r\n",
			set:  []string{"replicas=2"},
			want: "name: web\r\nreplicas: 2\r\ndebug: true\r\n"},
		{name: "an empty file",
			src:  "# nothing yet\n",
			set:  []string{"name=x"},
			want: "# nothing yet\nname: x\n"},
		{name: "one-line JSON",
			src:  "{\"name\": \"web\", \"ports\": [80]}\n",
			set:  []string{"replicas=2"},
			ops:  []string{"add ports=443"},
			want: "{\"name\": \"web\", \"replicas\": 2, \"ports\": [80, 443]}\n"},
		{name: "a flow list grows",
			src:  "ports: [80] # web\n",
			ops:  []string{"add ports=443"},
			want: "ports: [80, 443] # web\n"},
		{name: "the last key of an object removed leaves {}",
			src:  "image:\n  # the tag\n  tag: v1\nname: web\n",
			ops:  []string{"remove image/tag"},
			want: "image: {}\nname: web\n"},
		{name: "a document marker and a quoted key",
			src:  "---\n\"name\": web\nenv:\n  \"a.b\": x\n",
			set:  []string{"env/a.b=z", "name=api"},
			want: "---\n\"name\": api\nenv:\n  \"a.b\": z\n"},
		{name: "y is quoted: YAML 1.1 reads it as true",
			src:  "env:\n  A: x\n",
			set:  []string{"env.A=y"},
			want: "env:\n  A: \"y\"\n"},
		{name: "a key into an object in a list",
			src:  "extra:\n  - name: a\n    port: 1\n",
			set:  []string{"extra/0/tls=true"},
			want: "extra:\n  - name: a\n    port: 1\n    tls: true\n"},
		{name: "every key of an object replaced",
			src:  "env:\n  # old\n  A: a\ndebug: true\n",
			ops:  []string{"remove env/A", "add env/B=b"},
			want: "env:\n  B: b\ndebug: true\n"},
		{name: "no trailing newline",
			src:  "name: web",
			set:  []string{"debug=true"},
			want: "name: web\ndebug: true\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := runEdit(t, s, tt.src, tt.set, tt.ops)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestValuesRefused: what cannot be edited in place is refused with the
// value's pointer and kind schema.KindUsage, naming no value.
func TestValuesRefused(t *testing.T) {
	s, err := schema.Parse([]byte(appSchema))
	require.NoError(t, err)
	tests := []struct {
		name, src string
		old, new  any
		ptr, msg  string
	}{
		{name: "an anchor aliases share", src: "name: &n web\nextra: *n\n",
			old: map[string]any{"name": "web", "extra": "web"}, new: map[string]any{"name": "api", "extra": "web"},
			ptr: "/name", msg: "cannot edit the file in place: the value is a YAML anchor that aliases elsewhere share"},
		{name: "old is not what the file holds", src: "name: web\n",
			old: map[string]any{"name": "api"}, new: map[string]any{"name": "x"},
			msg: "the old values are not what the file holds"},
		{name: "no document", src: "a: [",
			old: map[string]any{}, new: map[string]any{"name": "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := edit.Values(s, []byte(tt.src), tt.old, tt.new)
			require.Error(t, err)
			assert.Nil(t, out)
			list := schema.ErrorsOf(err)
			require.Len(t, list, 1)
			if tt.msg == "" {
				assert.Equal(t, schema.KindSyntax, list[0].Kind)
				return
			}
			assert.Equal(t, schema.KindUsage, list[0].Kind)
			assert.Equal(t, tt.ptr, list[0].Pointer)
			assert.Contains(t, list[0].Message, tt.msg)
			assert.NotContains(t, list[0].Message, "web")
		})
	}
}

// TestValuesNilSchema: without a schema, YAML 1.2 core rules type the
// file, and new keys go after the others.
func TestValuesNilSchema(t *testing.T) {
	src := []byte("# c\nb: 1\na: x\n")
	old, err := params.Decode(nil, src)
	require.NoError(t, err)
	out, err := edit.Values(nil, src, old, map[string]any{"b": json.Number("2"), "a": "x", "c": "true"})
	require.NoError(t, err)
	assert.Equal(t, "# c\nb: 2\na: x\nc: \"true\"\n", string(out))
}

// TestValuesZero: zero and nil inputs give errors or the file back, never
// a panic.
func TestValuesZero(t *testing.T) {
	out, err := edit.Values(nil, nil, nil, nil)
	require.NoError(t, err)
	assert.Empty(t, out)

	_, err = edit.Values(&schema.Schema{}, []byte("a: 1\n"), map[string]any{"a": json.Number("1")}, map[string]any{})
	require.Error(t, err)
	assert.Equal(t, schema.KindUsage, schema.ErrorsOf(err)[0].Kind)

	_, err = edit.Values(&schema.Schema{}, nil, nil, map[string]any{"a": "x"})
	require.Error(t, err)
	assert.Equal(t, schema.KindUsage, schema.ErrorsOf(err)[0].Kind)

	_, err = edit.Values(nil, []byte("a: 1\n"), map[string]any{"a": json.Number("1")}, map[string]any{"a": make(chan int)})
	require.Error(t, err)
	assert.Equal(t, schema.KindUsage, schema.ErrorsOf(err)[0].Kind)

	_, err = edit.Values(nil, []byte("a: 1\n---\nb: 2\n"), nil, nil)
	require.Error(t, err)
	assert.Equal(t, schema.KindSyntax, schema.ErrorsOf(err)[0].Kind)
}
