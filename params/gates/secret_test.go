package gates

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGateWarningsNeverQuoteValues: gates know no schema, so they cannot
// tell a secret; their warnings name pointers and gates, never values.
func TestGateWarningsNeverQuoteValues(t *testing.T) {
	for _, stored := range []string{"", "spec: {password: OldS3cr3tXYZ}", "spec: {}", "spec: x"} {
		for _, sent := range []string{"spec: {password: NewS3cr3tXYZ}", "spec: {}", "spec: NewS3cr3tXYZ"} {
			res := gateOne(t, false, ".spec.password").Apply(gateObj(t, sent), gateObj(t, stored))
			text := fmt.Sprint(res.Warnings, res.Dropped)
			assert.NotContains(t, text, "S3cr3tXYZ", "stored %q, sent %q", stored, sent)
		}
	}
}
