package params

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// wideSchema declares a few names; wideValues adds n short undeclared
// keys beside them, as a hostile admission review would (issue #26).
const wideSchema = `
type: object
properties:
  replicas: {type: integer}
  image: {type: string}
  backup: {type: object, properties: {enabled: {type: boolean}}}
`

func wideValues(n int) map[string]any {
	v := map[string]any{"replicas": json1, "backup": map[string]any{"enabled": true}}
	for i := range n {
		v[fmt.Sprintf("u%x", i)] = json1
	}
	return v
}

var json1 = json.Number("1")

// TestUndeclaredFirstBoundsItsWork: whatever the number of undeclared
// keys, at most limit warnings (each with its suggestion) are built; the
// rest are only counted, and an update's old keys are left out. It fails
// if the lazy walk builds a warning per key again.
func TestUndeclaredFirstBoundsItsWork(t *testing.T) {
	s, err := schema.Parse([]byte(wideSchema))
	require.NoError(t, err)
	for _, tc := range []struct {
		name       string
		n          int
		old        any
		limit      int
		wantWarn   int
		wantMore   int
		wantFirst  string
		wantPended int // undeclared keys found
		wantKept   int // of which held at once: the limit at most
	}{
		{name: "none", n: 0, limit: 10},
		{name: "few", n: 3, limit: 10, wantWarn: 3, wantFirst: "/u0", wantPended: 3, wantKept: 3},
		{name: "wide", n: 150_000, limit: 256, wantWarn: 256, wantMore: 150_000 - 256, wantFirst: "/u0", wantPended: 150_000, wantKept: 256},
		{name: "no limit", n: 5, limit: 0, wantWarn: 5, wantFirst: "/u0", wantPended: 5, wantKept: 5},
		{name: "update keeps old keys quiet", n: 4, old: map[string]any{"u0": json1, "u1": json1}, limit: 1, wantWarn: 1, wantMore: 1, wantFirst: "/u2", wantPended: 2, wantKept: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := keyCheck{lazy: true, ctx: context.Background()}
			ws, more := k.first(s, wideValues(tc.n), tc.old, tc.limit)
			require.NoError(t, k.err)
			assert.Equal(t, tc.wantWarn, len(ws), "warnings returned")
			assert.Equal(t, tc.wantWarn, len(k.warnings), "warnings built (each with its suggestion)")
			assert.Equal(t, tc.wantMore, more)
			assert.Equal(t, tc.wantPended, k.found, "undeclared keys found")
			assert.Equal(t, tc.wantKept, len(k.pending), "undeclared keys held")
			if tc.wantFirst != "" {
				assert.Equal(t, tc.wantFirst, ws[0].Pointer)
				assert.Equal(t, schema.KindUndeclared, ws[0].Kind)
			}
		})
	}
}

// TestUndeclaredFirstIsUndeclaredCut: for a small input the warnings
// with a limit are those of the eager walk (every key, each with its
// suggestions), in the same order, with the same messages; a limit <= 0
// gives them all.
func TestUndeclaredFirstIsUndeclaredCut(t *testing.T) {
	s, err := schema.Parse([]byte(wideSchema))
	require.NoError(t, err)
	v := map[string]any{"replicsa": json1, "imge": "x", "backup": map[string]any{"enabld": true, "enabled": false}, "zzz": json1}
	var eager keyCheck
	eager.walkAll(s.Root(), v, nil)
	all := eager.warnings
	sort.SliceStable(all, func(i, j int) bool { return all[i].Pointer < all[j].Pointer })
	require.Len(t, all, 4)
	for limit := -1; limit <= 5; limit++ {
		ws, more, err := Undeclared(context.Background(), s, v, nil, limit)
		require.NoError(t, err)
		n := min(limit, len(all))
		if limit <= 0 {
			n = len(all)
		}
		assert.Equal(t, all[:n], ws, "limit %d", limit)
		assert.Equal(t, len(all)-n, more, "limit %d", limit)
	}
	assert.Contains(t, all[0].Message, "did you mean")
}

// TestUndeclaredFirstStopsAtTheDeadline: a context already done stops
// the walk with its error and nothing built; one that ends during a wide
// walk stops it within ctxEvery keys.
func TestUndeclaredFirstStopsAtTheDeadline(t *testing.T) {
	s, err := schema.Parse([]byte(wideSchema))
	require.NoError(t, err)
	v := wideValues(150_000)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ws, more, err := Undeclared(ctx, s, v, nil, 10)
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, ws)
	assert.Zero(t, more)

	// A context that ends after 3 checks: the walk looks at no more than
	// about 3*ctxEvery keys of the 150,000.
	c := &countdownCtx{Context: context.Background(), left: 3}
	k := keyCheck{lazy: true, ctx: c}
	ws, _ = k.first(s, v, nil, 10)
	require.ErrorIs(t, k.err, context.DeadlineExceeded)
	assert.Empty(t, ws)
	assert.LessOrEqual(t, k.keys, 4*ctxEvery, "keys looked at")
	assert.LessOrEqual(t, len(k.pending), 4*ctxEvery, "keys recorded")
}

// countdownCtx is done (deadline exceeded) from its left+1st Err call on.
type countdownCtx struct {
	context.Context
	left int
}

func (c *countdownCtx) Err() error {
	if c.left <= 0 {
		return context.DeadlineExceeded
	}
	c.left--
	return nil
}

// With a limit, Undeclared holds only the keys first in pointer order
// while it walks; what it returns is still the start of the whole list,
// whatever order the maps hand their keys in, with or without old values.
func TestUndeclaredLimitIsTheStartOfTheList(t *testing.T) {
	s, err := schema.Parse([]byte(wideSchema))
	require.NoError(t, err)
	v := wideValues(300)
	v["backup"].(map[string]any)["b"] = json1
	v["nested"] = map[string]any{"x": json1, "y": map[string]any{"z": json1}}
	old := map[string]any{"u7": json1, "u1a": json1, "backup": map[string]any{"b": json1}}
	for _, o := range []any{nil, old} {
		all, more, err := Undeclared(context.Background(), s, v, o, 0)
		require.NoError(t, err)
		require.Zero(t, more)
		require.True(t, slices.IsSortedFunc(all, func(a, b *schema.Error) int { return strings.Compare(a.Pointer, b.Pointer) }))
		for _, limit := range []int{1, 2, 3, 7, 64, len(all) - 1, len(all), len(all) + 5} {
			for range 5 { // maps hand out their keys in another order each time
				ws, more, err := Undeclared(context.Background(), s, v, o, limit)
				require.NoError(t, err)
				n := min(limit, len(all))
				assert.Equal(t, all[:n], ws, "limit %d, old %v", limit, o != nil)
				assert.Equal(t, len(all)-n, more, "limit %d", limit)
			}
		}
	}
}
