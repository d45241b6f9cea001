package params_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// WriteYAML writes what MarshalYAML returns, straight to a writer.
func ExampleWriteYAML() {
	s, _ := schema.Parse([]byte(`{"properties": {"name": {}, "replicas": {}}}`))
	v := map[string]any{"replicas": json.Number("3"), "version": "1.10", "name": "web"}
	if err := params.WriteYAML(s, os.Stdout, v); err != nil {
		fmt.Println(err)
	}
	// Output:
	// name: web
	// replicas: 3
	// version: "1.10"
}

// TestWriteYAMLWritesMarshalYAMLsBytes: the same bytes as MarshalYAML,
// for a small value and for one large enough to be written in parts; the
// errors MarshalYAML gives, before anything is written; an error of the
// writer as a foreign error that errors.Is reaches.
func TestWriteYAMLWritesMarshalYAMLsBytes(t *testing.T) {
	s := mustSchemaFile(t, "testdata/decode/schema.yaml")
	data, err := os.ReadFile("testdata/decode/traps.yaml")
	require.NoError(t, err)
	small, err := params.Decode(s, data)
	require.NoError(t, err)
	large := map[string]any{}
	for i := range 5000 {
		large[fmt.Sprintf("service%d", i)] = map[string]any{"replicas": json.Number(fmt.Sprint(i)), "tag": fmt.Sprintf("1.%d", i), "on": "yes"}
	}
	for name, v := range map[string]any{"small": small, "large": large} {
		t.Run(name, func(t *testing.T) {
			want, err := params.MarshalYAML(s, v)
			require.NoError(t, err)
			var got bytes.Buffer
			require.NoError(t, params.WriteYAML(s, &got, v))
			assert.Equal(t, string(want), got.String())
		})
	}

	var out bytes.Buffer
	err = params.WriteYAML(nil, &out, map[string]any{"c": make(chan int)})
	var se *schema.Error
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "/c", se.Pointer)
	assert.Zero(t, out.Len(), "nothing written before the value is known to be one")

	require.ErrorAs(t, params.WriteYAML(&schema.Schema{}, &out, small), &se)
	assert.Equal(t, schema.KindUsage, se.Kind)
	require.ErrorAs(t, params.WriteYAML(nil, nil, small), &se)
	assert.Equal(t, schema.KindUsage, se.Kind)

	boom := errors.New("disk full")
	assert.ErrorIs(t, params.WriteYAML(nil, failingWriter{boom}, large), boom)
	assert.ErrorIs(t, params.WriteYAML(nil, failingWriter{boom}, small), boom)
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }
