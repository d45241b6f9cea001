package migratetest

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// Draft-04 writes exclusive bounds as booleans beside minimum and
// maximum; RandomValue must keep off the excluded ends, or it cannot
// draw a valid value for a schema of many such properties.
func TestRandomValueDraft4ExclusiveBounds(t *testing.T) {
	var props []string
	for _, name := range strings.Split("abcdefghijkl", "") {
		props = append(props, `"`+name+`":{"type":"integer","minimum":0,"exclusiveMinimum":true,"maximum":2,"exclusiveMaximum":true}`)
	}
	doc := `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{` + strings.Join(props, ",") + `},"required":["a","b","c","d","e","f","g","h","i","j","k","l"]}`
	s, err := schema.Parse([]byte(doc))
	require.NoError(t, err)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20; i++ {
		v, err := RandomValue(s, rnd)
		require.NoError(t, err)
		for _, x := range v.(map[string]any) {
			require.Equal(t, json.Number("1"), x)
		}
	}
}
