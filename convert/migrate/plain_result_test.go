package migrate

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/schema"
)

// requirePlain: v holds plain Go data only (map[string]any, []any,
// string, bool, nil, json.Number with valid JSON number text), as DESIGN
// says every value a caller gets is; never the package's own text type.
func requirePlain(t testing.TB, v any, where string) {
	t.Helper()
	var walk func(v any, p string)
	walk = func(v any, p string) {
		switch x := v.(type) {
		case nil, bool, string:
		case json.Number:
			require.True(t, number.IsJSON(string(x)), "%s%s: %q is not JSON number text", where, p, x)
		case map[string]any:
			for k, e := range x {
				walk(e, p+"/"+k)
			}
		case []any:
			for i, e := range x {
				walk(e, fmt.Sprintf("%s/%d", p, i))
			}
		default:
			require.Failf(t, "not a plain value", "%s%s: %T %#v", where, p, v, v)
		}
	}
	walk(v, "")
}

// requirePlainResult: every value a Result gives (the values and the
// property bag in them, what was dropped, lossy changes) is plain.
func requirePlainResult(t testing.TB, r outcome) {
	t.Helper()
	requirePlain(t, r.Values, "values")
	for _, d := range r.Dropped {
		requirePlain(t, d.Value, "dropped "+d.Pointer+": ")
	}
	for _, l := range r.Lossy {
		requirePlain(t, l.From, "lossy from "+l.Pointer+": ")
		requirePlain(t, l.To, "lossy to "+l.Pointer+": ")
	}
}

// yamlWithText writes values as YAML with each plainScalar plain, as
// its author wrote it (the YAML writer writes a json.Number's text plain
// and untagged): documents as a user writes them, for the readers.
func yamlWithText(t testing.TB, v any) []byte {
	t.Helper()
	var prep func(any) any
	prep = func(v any) any {
		switch x := v.(type) {
		case plainScalar:
			return json.Number(x)
		case map[string]any:
			out := map[string]any{}
			for k, e := range x {
				out[k] = prep(e)
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = prep(e)
			}
			return out
		}
		return v
	}
	b, err := encode.YAML(prep(v), nil)
	require.NoError(t, err)
	return b
}

// TestConversionsGivePlainValues: documents generated from each version's
// schema, with YAML plain scalars no node of it types (007, 1.10, yes,
// 0x1F, ~, ...) under undeclared keys and in free-form places, convert
// between every pair of versions (values and whole objects), and through
// lossless migrations both ways; whatever a result gives its caller holds
// plain Go data only. Where the way back is allowed, it gives back the
// values the document means.
func TestConversionsGivePlainValues(t *testing.T) {
	n := roundTrips() / 20
	for si, dir := range versionSets {
		s, err := LoadVersionSet(os.DirFS(dir))
		require.NoError(t, err)
		for fi, from := range s.Order() {
			for ti, to := range s.Order() {
				if s.Refused(from, to) != nil {
					continue
				}
				v, _ := s.Version(from)
				rnd := newTestRand(uint64(si*10000 + fi*100 + ti + 7))
				for i := 0; i < n; i++ {
					x, err := randomValue(v.Schema, rnd)
					require.NoError(t, err)
					x = withPlainScalars(v.Schema.Root(), x, rnd)
					want := plainScalarsMeaning(x)
					doc := yamlWithText(t, x)
					r, err := conv(s.ConvertDocument(doc, from, to, AllowLossy()))
					require.NoError(t, err)
					requirePlainResult(t, r)
					if r.OK() && s.Refused(to, from) == nil {
						back, err := conv(s.Convert(r.Values, to, from, AllowLossy()))
						require.NoError(t, err)
						requirePlainResult(t, back)
						require.True(t, identical(stripBag(back.Values), want), "%s: %s → %s → %s\nin:  %s\nout: %s", dir, from, to, from, doc, show(back.Values))
					}

					obj := map[string]any{"kind": plainScalar("Thing"), "metadata": map[string]any{"name": plainScalar("a"), "labels": map[string]any{"v": plainScalar("1.10")}}}
					if m, ok := x.(map[string]any); ok {
						for k, e := range m {
							obj[k] = e
						}
					}
					r, err = conv(s.ConvertObjectDocument(yamlWithText(t, obj), from, to, ObjectTarget{APIVersion: "example.com/" + to}, AllowLossy()))
					require.NoError(t, err)
					requirePlainResult(t, r)
				}
			}
		}
	}
	for pi, dir := range pairDirs(t) {
		old, new := loadPair(t, dir)
		m, err := New(new, FromVersion(old), Lossless())
		require.NoError(t, err)
		rnd := newTestRand(uint64(pi + 99))
		for i := 0; i < n; i++ {
			for _, start := range []*schema.Schema{old, new} {
				x, err := randomValue(start, rnd)
				require.NoError(t, err)
				x = withPlainScalars(start.Root(), x, rnd)
				var r outcome
				if start == old {
					r = got(m.MigrateDocument(yamlWithText(t, x)))
				} else {
					r = got(m.Down(x)) // in memory: the package's own text in the input
				}
				requirePlainResult(t, r)
				if start == old {
					requirePlainResult(t, got(m.Down(r.Values)))
				} else {
					requirePlainResult(t, got(m.Migrate(r.Values)))
				}
			}
		}
	}
}
