package params_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestRequiredAndExtraKeysAtTheirOwnPointer (issue 28): a missing
// required property and a key the schema forbids are errors at the
// property's own pointer, one each, with the line of the parent object
// for a missing key (where it should be written) and the key's own line
// for an extra key; the list is in line order.
func TestRequiredAndExtraKeysAtTheirOwnPointer(t *testing.T) {
	s := mustSchema(t, `type: object
required: [name]
additionalProperties: false
properties:
  name: {type: string}
  spec:
    type: object
    required: [size]
    additionalProperties: false
    properties:
      size: {type: integer}
`)
	var got []string
	err := params.DecodeReader(context.Background(), s, strings.NewReader("spec:\n  extra: 1\n  other: x\nbad: 2\n---\nname: a\nspec: {}\n"), 0, func(d params.Document[any]) error {
		for _, e := range schema.ErrorsOf(d.Err) {
			got = append(got, fmt.Sprintf("%d %s %s", e.Line, e.Pointer, e.Kind))
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"1 /name required",      // missing at the root: the document's first line
		"1 /spec/size required", // missing in spec: spec's line
		"2 /spec/extra additional",
		"3 /spec/other additional",
		"4 /bad additional",
		"7 /spec/size required", // doc 1: spec: {} on line 7 of the stream
	}, got)
}
