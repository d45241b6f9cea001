package params_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// The update pipeline's speed target: a 20-assignment update of the large
// values document within 2x of a bare validate of the same document.

// largeUpdate loads the large schema and values and picks 20 assignments
// spread over the document, each changing a leaf to another valid value.
func largeUpdate(tb testing.TB) (*schema.Schema, any, []string) {
	tb.Helper()
	sj, vj := loadLarge(tb)
	s, err := schema.Parse(sj)
	require.NoError(tb, err)
	old, err := params.Decode(s, vj)
	require.NoError(tb, err)

	var leaves []string
	var walk func(v any, p string)
	walk = func(v any, p string) {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				walk(x, pointer.Append(p, k))
			}
		case []any:
			for i, x := range t {
				walk(x, pointer.AppendIndex(p, i))
			}
		default:
			leaves = append(leaves, p)
		}
	}
	walk(old, "")
	sort.Strings(leaves)

	var picked []string
	used := map[string]bool{}
	for i := 0; len(picked) < 20 && i < len(leaves)*20; i += 7 {
		p := leaves[i%len(leaves)]
		if used[p] {
			continue
		}
		used[p] = true
		cur, _ := pointer.Get(old, p)
		for _, text := range otherValues(cur) {
			arg := strings.TrimPrefix(p, "/") + "=" + text
			if r, err := (&params.Update{Schema: s, Old: old, Set: []string{arg}}).Run(); err == nil && len(r.Changed) == 1 {
				picked = append(picked, arg)
				break
			}
		}
	}
	require.Len(tb, picked, 20)
	return s, old, picked
}

// otherValues proposes texts for a leaf that differ from its value.
func otherValues(v any) []string {
	switch t := v.(type) {
	case bool:
		return []string{strconv.FormatBool(!t)}
	case json.Number:
		if n, err := t.Int64(); err == nil {
			return []string{strconv.FormatInt(n+1, 10), strconv.FormatInt(n-1, 10)}
		}
		if f, err := t.Float64(); err == nil {
			return []string{fmt.Sprint(f + 0.5), fmt.Sprint(f - 0.5)}
		}
	case string:
		if n, ok := strings.CutPrefix(t, "value-"); ok {
			return []string{"value-" + n + "1"}
		}
		return []string{"low", "medium", "high", "y", "x"}
	}
	return nil
}

func BenchmarkUpdate20Assignments(b *testing.B) {
	s, old, args := largeUpdate(b)
	res, err := trigger.New(s)
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		u := params.Update{Schema: s, Old: old, Triggers: res, Set: args}
		r, err := u.Run()
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Changed) != 20 {
			b.Fatalf("changed: %v", r.Changed)
		}
	}
}

// BenchmarkUpdateBareValidate is the yardstick: validating the document
// the update produces, nothing else.
func BenchmarkUpdateBareValidate(b *testing.B) {
	s, old, args := largeUpdate(b)
	u := params.Update{Schema: s, Old: old, Set: args}
	r, err := u.Run()
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Validate(r.Values); err != nil {
			b.Fatal(err)
		}
	}
}
