package convert_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
)

// TestOptionsApplyWhereTheySay: convert has one Option type, and
// FromV1beta1, the one call that takes options, takes it.
// (Migration's options live in convert/migrate, with their own test.)
func TestOptionsApplyWhereTheySay(t *testing.T) {
	flat := []byte("parameters:\n  - name: A\n    default: \"3\"\n")
	for name, opt := range map[string]convert.Option{
		"InferStringTypes": convert.InferStringTypes(),
	} {
		t.Run("FromV1beta1/"+name, func(t *testing.T) {
			_, err := convert.FromV1beta1(flat, opt)
			if err != nil {
				assert.NotContains(t, err.Error(), "does not apply")
			}
			require.NoError(t, err)
		})
	}
}
