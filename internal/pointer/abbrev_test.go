package pointer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAbbrev(t *testing.T) {
	assert.Equal(t, "/a/b", Abbrev("/a/b"))
	deep := strings.Repeat("/properties/a", 1000)
	got := Abbrev(deep)
	assert.LessOrEqual(t, len(got), MaxErrorPointer+len("/…"))
	assert.True(t, strings.HasSuffix(got, "/…"))
	assert.True(t, strings.HasPrefix(deep, strings.TrimSuffix(got, "/…")))
	// One huge token is cut inside it, on a rune boundary.
	huge := "/" + strings.Repeat("é", 1000)
	got = Abbrev(huge)
	assert.LessOrEqual(t, len(got), MaxErrorPointer+len("/…"))
	assert.True(t, strings.HasSuffix(got, "/…"))
	assert.True(t, strings.HasPrefix(huge, strings.TrimSuffix(got, "/…")))
}
