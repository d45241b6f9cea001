package kudo_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/params"
)

// TestGuessWithoutOperatorVersion: an Instance that names no operator
// version is refused, unless the option asks for safe guessing; a nil
// option changes nothing.
func TestGuessWithoutOperatorVersion(t *testing.T) {
	instance := []byte(`{"apiVersion":"kudo.dev/v1beta1","kind":"Instance","metadata":{"name":"i","namespace":"ns"},"spec":{"parameters":{"n":"3","s":"hello"}}}`)
	noResolver := func(context.Context, string, string) (*kudo.OperatorVersion, error) {
		t.Fatal("no operator version is named: resolve is not called")
		return nil, nil
	}
	for _, tt := range []struct {
		name string
		opts []kudo.Option
		ok   bool
	}{
		{"without the option", nil, false},
		{"a nil option", []kudo.Option{nil}, false},
		{"with the option", []kudo.Option{kudo.GuessWithoutOperatorVersion()}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := kudo.ConvertObject(context.Background(), instance, "kudo.dev/v1beta2", noResolver, tt.opts...)
			if !tt.ok {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "operatorVersion")
				return
			}
			require.NoError(t, err)
			v, err := params.Decode(nil, out)
			require.NoError(t, err)
			ps := v.(map[string]any)["spec"].(map[string]any)["parameters"].(map[string]any)
			assert.Equal(t, "hello", ps["s"])
			assert.NotNil(t, ps["n"])
		})
	}
}
