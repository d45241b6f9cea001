package kube_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/convert/migrate/migratetest"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

const cacheGroup = "example.paramkit.dev"

func cacheSet(t testing.TB) *migrate.VersionSet {
	t.Helper()
	set, err := migrate.LoadVersionSet(os.DirFS("testdata/cache"))
	require.NoError(t, err)
	return set
}

// object builds a Cache object of version v holding params (JSON text).
func cacheObject(v, params string, annotations ...string) []byte {
	meta := `{"name":"c","namespace":"default","uid":"1f0c","generation":3,"labels":{"app":"cache"}`
	if len(annotations) > 0 {
		meta += `,"annotations":{`
		for i := 0; i+1 < len(annotations); i += 2 {
			if i > 0 {
				meta += ","
			}
			k, _ := json.Marshal(annotations[i])
			x, _ := json.Marshal(annotations[i+1])
			meta += string(k) + ":" + string(x)
		}
		meta += "}"
	}
	meta += "}"
	return []byte(`{"apiVersion":"` + cacheGroup + `/` + v + `","kind":"Cache","metadata":` + meta +
		`,"spec":{"parameters":` + params + `,"replicas":9007199254740993},"status":{"observedGeneration":3,"ratio":1.50}}`)
}

// decode reads JSON with numbers as their text, for exact comparison.
func decodeExact(t testing.TB, b []byte) map[string]any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	require.NoError(t, d.Decode(&m), "%s", b)
	return m
}

func paramsOf(t testing.TB, obj []byte) any {
	t.Helper()
	return decodeExact(t, obj)["spec"].(map[string]any)["parameters"]
}

func keptOf(t testing.TB, obj []byte) (string, bool) {
	t.Helper()
	meta, _ := decodeExact(t, obj)["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	s, ok := ann["conversion.paramkit.dev/kept"].(string)
	return s, ok
}

// sameBesides requires a and b to be equal except for apiVersion, the
// parameters and the conversion annotation: what a conversion may change.
func sameBesides(t testing.TB, a, b []byte) {
	t.Helper()
	strip := func(b []byte) map[string]any {
		m := decodeExact(t, b)
		delete(m, "apiVersion")
		delete(m["spec"].(map[string]any), "parameters")
		if meta, ok := m["metadata"].(map[string]any); ok {
			if ann, ok := meta["annotations"].(map[string]any); ok {
				delete(ann, "conversion.paramkit.dev/kept")
				if len(ann) == 0 {
					delete(meta, "annotations")
				}
			}
		}
		return m
	}
	require.Equal(t, strip(a), strip(b))
}

// TestConvertNeverFailsOnValues: values invalid in one version or both
// convert (validation is admission's), keep their text, and come back
// exactly as they went; what the target cannot hold travels in the
// annotation, never in the parameters.
func TestConvertNeverFailsOnValues(t *testing.T) {
	set := cacheSet(t)
	tests := []struct {
		name       string
		from, to   string
		params     string
		want       string // parameters after the conversion
		annotation bool   // the conversion annotation is set
		back       string // parameters after the round trip, when not those that went in
	}{
		{"too small in both versions", "v1", "v2", `{"maxMemoryMB":8}`, `{"memoryLimitMB":8}`, false, ""},
		{"a fraction on an integer", "v1", "v2", `{"maxEntries":1.5}`, `{"maxEntries":1.5}`, false, ""},
		{"wrong types", "v1", "v2", `{"engine":3,"maxMemoryMB":"x"}`, `{"engine":3,"memoryLimitMB":"x"}`, false, ""},
		{"beyond int64", "v1", "v2", `{"maxMemoryMB":18446744073709551617,"maxEntries":1.8446744073709552e+19}`, `{"memoryLimitMB":18446744073709551617,"maxEntries":1.8446744073709552e+19}`, false, ""},
		{"exact text", "v1", "v2", `{"maxMemoryMB":64.0,"maxEntries":1e3}`, `{"memoryLimitMB":64.0,"maxEntries":1e3}`, false, ""},
		// What the annotation restores is checked where it is read: a
		// key or value the target's schema refuses is not applied (the
		// apiserver prunes a misspelled key before any conversion; a
		// forged annotation brings such values).
		{"a misspelled v1 key", "v1", "v2", `{"maxMemoryMb":32}`, `{}`, true, `{}`},
		{"not an engine", "v1", "v2", `{"engine":"valkey"}`, `{"engine":"valkey"}`, false, ""},
		{"v2-only values", "v2", "v1", `{"memoryLimitMB":32,"ttlSeconds":600}`, `{"maxMemoryMB":32}`, true, ""},
		{"invalid v2-only value", "v2", "v1", `{"ttlSeconds":-1}`, `{}`, true, `{}`},
		{"parameters not an object", "v1", "v2", `"redis"`, `"redis"`, false, ""},
		{"parameters null", "v2", "v1", `null`, `null`, false, ""},
		{"parameters a list", "v2", "v1", `[1,2]`, `[1,2]`, false, ""},
		{"the bag's key written by the user", "v1", "v2", `{"x-paramkit-bag":1,"maxMemoryMB":32}`, `{"x-paramkit-bag":1,"maxMemoryMB":32}`, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := cacheObject(tt.from, tt.params, "team", "a")
			out, err := kube.Convert(set, in, "/spec/parameters", cacheGroup+"/"+tt.to)
			require.NoError(t, err)
			got := decodeExact(t, out)
			assert.Equal(t, cacheGroup+"/"+tt.to, got["apiVersion"])
			var want any
			require.NoError(t, json.Unmarshal([]byte(tt.want), &want))
			assert.JSONEq(t, tt.want, toJSON(t, paramsOf(t, out)))
			assert.NotContains(t, toJSON(t, paramsOf(t, out)), "x-paramkit-bag"[:9]+"bag\":[", "the bag never sits in the parameters")
			_, has := keptOf(t, out)
			assert.Equal(t, tt.annotation, has)
			sameBesides(t, in, out)
			assert.Contains(t, string(out), "9007199254740993", "numbers elsewhere keep their text")
			back, err := kube.Convert(set, out, "/spec/parameters", cacheGroup+"/"+tt.from)
			require.NoError(t, err)
			if tt.back != "" {
				assert.JSONEq(t, tt.back, toJSON(t, paramsOf(t, back)), "the annotation's misfit is not restored")
				return
			}
			require.Equal(t, decodeExact(t, in), decodeExact(t, back), "the round trip gives back what went in")
		})
	}
}

func toJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestConvertWriteBackKeepsV2Values: a v1 client reads a v2 object (only
// v1 parameters), changes a v1 value and writes it back: the v2-only
// value is still there, and the change wins.
func TestConvertWriteBackKeepsV2Values(t *testing.T) {
	set := cacheSet(t)
	stored := cacheObject("v2", `{"engine":"redis","memoryLimitMB":32,"ttlSeconds":600}`)
	read, err := kube.Convert(set, stored, "/spec/parameters", cacheGroup+"/v1")
	require.NoError(t, err)
	assert.JSONEq(t, `{"engine":"redis","maxMemoryMB":32}`, toJSON(t, paramsOf(t, read)))

	m := decodeExact(t, read)
	m["spec"].(map[string]any)["parameters"].(map[string]any)["maxMemoryMB"] = json.Number("48")
	written, err := json.Marshal(m)
	require.NoError(t, err)
	up, err := kube.Convert(set, written, "/spec/parameters", cacheGroup+"/v2")
	require.NoError(t, err)
	assert.JSONEq(t, `{"engine":"redis","memoryLimitMB":48,"ttlSeconds":600}`, toJSON(t, paramsOf(t, up)))
	_, has := keptOf(t, up)
	assert.False(t, has, "what was restored leaves the annotation")
	assert.NotContains(t, decodeExact(t, up)["metadata"], "annotations", "no empty annotations left behind")

	// A v1 client that removes the field meanwhile: v2's ttlSeconds was
	// not the v1 client's to remove, so it comes back; maxMemoryMB's
	// removal stands.
	delete(m["spec"].(map[string]any)["parameters"].(map[string]any), "maxMemoryMB")
	written, err = json.Marshal(m)
	require.NoError(t, err)
	up, err = kube.Convert(set, written, "/spec/parameters", cacheGroup+"/v2")
	require.NoError(t, err)
	assert.JSONEq(t, `{"engine":"redis","ttlSeconds":600}`, toJSON(t, paramsOf(t, up)))
}

// TestConvertKeepsOtherAnnotations: only the conversion annotation
// changes; a malformed one is ignored, never a failure.
func TestConvertKeepsOtherAnnotations(t *testing.T) {
	set := cacheSet(t)
	in := cacheObject("v2", `{"ttlSeconds":5}`, "team", "a", "conversion.paramkit.dev/kept", "{not json")
	out, err := kube.Convert(set, in, "/spec/parameters", cacheGroup+"/v1")
	require.NoError(t, err)
	ann := decodeExact(t, out)["metadata"].(map[string]any)["annotations"].(map[string]any)
	assert.Equal(t, "a", ann["team"])
	assert.Contains(t, ann["conversion.paramkit.dev/kept"], "ttlSeconds")

	// A bag of other schemas (the operator changed v1 since) is ignored.
	in = cacheObject("v1", `{"maxMemoryMB":20}`, "conversion.paramkit.dev/kept", `{"/spec/parameters":[{"step":"0000","dir":"down","patch":[{"pointer":"/ttlSeconds","value":1}]}]}`)
	out, err = kube.Convert(set, in, "/spec/parameters", cacheGroup+"/v2")
	require.NoError(t, err)
	assert.JSONEq(t, `{"memoryLimitMB":20}`, toJSON(t, paramsOf(t, out)))

	// Without parameters the object only changes its apiVersion.
	in = []byte(`{"apiVersion":"example.paramkit.dev/v1","kind":"Cache","metadata":{"name":"c"},"spec":{}}`)
	out, err = kube.Convert(set, in, "/spec/parameters", cacheGroup+"/v2")
	require.NoError(t, err)
	assert.JSONEq(t, `{"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":{"name":"c"},"spec":{}}`, string(out))
}

// TestConvertErrors: what prevents any conversion is an error of its own
// kind, naming what is wrong.
func TestConvertErrors(t *testing.T) {
	set := cacheSet(t)
	tests := []struct {
		name      string
		set       *migrate.VersionSet
		object    string
		field, to string
		kind      schema.Kind
		contains  string
	}{
		{"no set", nil, string(cacheObject("v1", `{}`)), "/spec/parameters", cacheGroup + "/v2", schema.KindUsage, "version set"},
		{"not JSON", set, `{"apiVersion":`, "/spec/parameters", cacheGroup + "/v2", schema.KindSyntax, "not JSON"},
		{"not an object", set, `[1]`, "/spec/parameters", cacheGroup + "/v2", schema.KindType, "JSON object"},
		{"trailing data", set, `{} {}`, "/spec/parameters", cacheGroup + "/v2", schema.KindSyntax, "more data"},
		{"no apiVersion", set, `{"kind":"Cache"}`, "/spec/parameters", cacheGroup + "/v2", schema.KindRequired, "no apiVersion"},
		{"another group", set, string(cacheObject("v1", `{}`)), "/spec/parameters", "other.dev/v2", schema.KindUsage, "another group"},
		{"unknown version", set, string(cacheObject("v1", `{}`)), "/spec/parameters", cacheGroup + "/v3", schema.KindNotFound, "v3"},
		{"bad apiVersion", set, string(cacheObject("v1", `{}`)), "/spec/parameters", "", schema.KindUsage, "not an apiVersion"},
		{"root field", set, string(cacheObject("v1", `{}`)), "", cacheGroup + "/v2", schema.KindUsage, "pointer"},
		{"metadata field", set, string(cacheObject("v1", `{}`)), "/metadata/labels", cacheGroup + "/v2", schema.KindUsage, "pointer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := kube.Convert(tt.set, []byte(tt.object), tt.field, tt.to)
			require.Error(t, err)
			var se *schema.Error
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.kind, se.Kind, "%v", err)
			assert.Contains(t, err.Error(), tt.contains)
		})
	}
}

// corrupt makes random values invalid the ways users do: wrong types,
// out-of-range and fractional numbers, numbers beyond int64, misspelled
// keys, null.
func corrupt(v any, rnd *rand.Rand) any {
	bad := []any{"x", json.Number("1.5"), json.Number("-1"), json.Number("18446744073709551617"),
		json.Number("1.8446744073709552e+19"), json.Number("1e400"), json.Number("64.0"), true, nil,
		map[string]any{"a": json.Number("1")}, []any{json.Number("1")}, "007"}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x)+1)
		for k, e := range x {
			out[k] = corrupt(e, rnd)
		}
		if rnd.IntN(3) == 0 {
			out[fmt.Sprintf("typo%d", rnd.IntN(3))] = bad[rnd.IntN(len(bad))]
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = corrupt(e, rnd)
		}
		return out
	}
	if rnd.IntN(3) == 0 {
		return bad[rnd.IntN(len(bad))]
	}
	return v
}

func convRoundTrips() int {
	if testing.Short() || convRaceEnabled {
		return 100
	}
	return 400
}

// TestConvertRoundTrip: for every ordered pair of versions whose reverse
// the set allows, from → to → from gives back exactly the object that
// went in, over generated values (migratetest.RandomValue) made invalid
// at random: v1 → v2 → v1 and v2 → v1 → v2 for the Cache, and every pair
// of a three-version set whose hub is not the newest version.
func TestConvertRoundTrip(t *testing.T) {
	for si, dir := range []string{"testdata/cache", "../convert/migrate/testdata/versions/three"} {
		set, err := migrate.LoadVersionSet(os.DirFS(dir))
		require.NoError(t, err)
		for _, from := range set.Order() {
			for _, to := range set.Order() {
				if from == to || set.Refused(from, to) != nil || set.Refused(to, from) != nil {
					continue
				}
				t.Run(dir+"/"+from+"-"+to, func(t *testing.T) {
					v, _ := set.Version(from)
					rnd := rand.New(rand.NewPCG(uint64(si), uint64(len(from)*31+len(to))))
					for i := 0; i < convRoundTrips(); i++ {
						x, err := migratetest.RandomValue(v.Schema, rnd)
						require.NoError(t, err)
						if i%2 == 1 {
							x = corrupt(x, rnd)
						}
						p, err := json.Marshal(x)
						require.NoError(t, err)
						in := cacheObject(from, string(p), "team", "a")
						mid, err := kube.Convert(set, in, "/spec/parameters", cacheGroup+"/"+to)
						require.NoError(t, err, "%s", in)
						sameBesides(t, in, mid)
						require.NotContains(t, string(toJSON(t, paramsOf(t, mid))), "x-paramkit-bag", "the bag never sits in the parameters")
						back, err := kube.Convert(set, mid, "/spec/parameters", cacheGroup+"/"+from)
						require.NoError(t, err, "%s", mid)
						if reflect.DeepEqual(decodeExact(t, in), decodeExact(t, back)) {
							continue
						}
						// Only a value the source version's schema refuses
						// may be lost: the annotation that carries it is
						// checked where it is read. Then the next round
						// trip changes nothing.
						require.False(t, validIn(t, set, from, paramsOf(t, in)), "the round trip changed a valid object:\nin:   %s\nmid:  %s\nback: %s", in, mid, back)
						assertStable(t, set, back, from, to)
					}
				})
			}
		}
	}
}

// FuzzConvert: any parameters, in either version, convert without error
// and come back exactly when the version they come from accepts them
// (else a second round trip changes nothing).
func FuzzConvert(f *testing.F) {
	for _, s := range []string{`{}`, `{"maxMemoryMB":8}`, `{"maxEntries":1.5}`, `{"maxMemoryMb":32}`,
		`{"memoryLimitMB":32,"ttlSeconds":600}`, `{"engine":{"a":[1,2.50]}}`, `"x"`, `null`, `{"ttlSeconds":1e400}`} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	set := cacheSet(f)
	f.Fuzz(func(t *testing.T, p []byte, fromV2 bool) {
		var probe any
		d := json.NewDecoder(bytes.NewReader(p))
		d.UseNumber()
		if d.Decode(&probe) != nil || d.More() {
			return
		}
		canon, err := json.Marshal(probe)
		if err != nil {
			return
		}
		from, to := "v1", "v2"
		if fromV2 {
			from, to = to, from
		}
		in := cacheObject(from, string(canon))
		mid, err := kube.Convert(set, in, "/spec/parameters", cacheGroup+"/"+to)
		require.NoError(t, err)
		back, err := kube.Convert(set, mid, "/spec/parameters", cacheGroup+"/"+from)
		require.NoError(t, err)
		if validIn(t, set, from, paramsOf(t, in)) {
			require.Equal(t, decodeExact(t, in), decodeExact(t, back), "mid: %s", mid)
			return
		}
		assertStable(t, set, back, from, to)
	})
}

// validIn reports whether params, defaults filled in, are valid in
// version v of set and hold no integer beyond int64 (which the apiserver
// cannot hold): what a round trip gives back exactly.
func validIn(t testing.TB, set *migrate.VersionSet, v string, p any) bool {
	t.Helper()
	ver, ok := set.Version(v)
	require.True(t, ok)
	d, err := params.Default(ver.Schema, p)
	if err != nil {
		return false
	}
	return params.Validate(ver.Schema, d) == nil && !hasBigInteger(d)
}

func hasBigInteger(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if hasBigInteger(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasBigInteger(e) {
				return true
			}
		}
	case json.Number:
		if _, err := x.Int64(); err != nil && !strings.ContainsAny(string(x), ".eE") {
			return true
		}
	}
	return false
}

// assertStable requires the object obj of version from to come back
// unchanged from a round trip through to: what a round trip drops (an
// invalid value the annotation carried), it drops once.
func assertStable(t testing.TB, set *migrate.VersionSet, obj []byte, from, to string) {
	t.Helper()
	mid, err := kube.Convert(set, obj, "/spec/parameters", cacheGroup+"/"+to)
	require.NoError(t, err)
	back, err := kube.Convert(set, mid, "/spec/parameters", cacheGroup+"/"+from)
	require.NoError(t, err)
	require.Equal(t, decodeExact(t, obj), decodeExact(t, back), "a second round trip changed the object:\nin:   %s\nmid:  %s\nback: %s", obj, mid, back)
}

// BenchmarkConvert: the apiserver calls the conversion webhook on every
// write for every version other than the storage version.
func BenchmarkConvert(b *testing.B) {
	set := cacheSet(b)
	up := cacheObject("v1", `{"engine":"redis","maxMemoryMB":128,"maxEntries":100000}`)
	down := cacheObject("v2", `{"engine":"redis","memoryLimitMB":128,"maxEntries":100000,"ttlSeconds":300}`)
	b.Run("v1-v2", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := kube.Convert(set, up, "/spec/parameters", cacheGroup+"/v2"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("v2-v1", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := kube.Convert(set, down, "/spec/parameters", cacheGroup+"/v1"); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A v1 object read from v2 and written back: its annotation restores
	// ttlSeconds, and the result is checked against v2's schema.
	kept, err := kube.Convert(set, down, "/spec/parameters", cacheGroup+"/v1")
	require.NoError(b, err)
	b.Run("v1-v2-kept", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := kube.Convert(set, kept, "/spec/parameters", cacheGroup+"/v2"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestConvertReview: a LIST's objects in request order, each converted;
// an object that cannot be converted at all fails the review naming it;
// a passed deadline fails it saying how far it got.
func TestConvertReview(t *testing.T) {
	set := cacheSet(t)
	req := &kube.ConversionRequest{UID: "u1", DesiredAPIVersion: cacheGroup + "/v1", Objects: []json.RawMessage{
		cacheObject("v2", `{"memoryLimitMB":8,"ttlSeconds":1}`), cacheObject("v1", `{"maxMemoryMb":1}`),
	}}
	convert := func(field string) func(context.Context, []byte, string) ([]byte, error) {
		return func(_ context.Context, o []byte, to string) ([]byte, error) { return kube.Convert(set, o, field, to) }
	}
	resp := kube.ConvertReview(context.Background(), req, convert("/spec/parameters"))
	require.Equal(t, "Success", resp.Result.Status, resp.Result.Message)
	assert.Equal(t, "u1", resp.UID)
	require.Len(t, resp.ConvertedObjects, 2)
	assert.JSONEq(t, `{"maxMemoryMB":8}`, toJSON(t, paramsOf(t, resp.ConvertedObjects[0])))
	assert.JSONEq(t, `{"maxMemoryMb":1}`, toJSON(t, paramsOf(t, resp.ConvertedObjects[1])))

	req.Objects = append(req.Objects, []byte(`{"apiVersion":"example.paramkit.dev/v9","kind":"Cache"}`))
	resp = kube.ConvertReview(context.Background(), req, convert("/spec/parameters"))
	assert.Equal(t, "Failure", resp.Result.Status)
	assert.Contains(t, resp.Result.Message, "object 2 of 3")
	assert.Empty(t, resp.ConvertedObjects)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	resp = kube.ConvertReview(ctx, req, convert("/spec/parameters"))
	assert.Contains(t, resp.Result.Message, "deadline passed after converting 0 of 3")
	assert.Equal(t, int32(504), resp.Result.Code)
	assert.Equal(t, "Timeout", resp.Result.Reason)
	assert.Equal(t, "Failure", kube.ConvertReview(ctx, nil, convert("/spec/parameters")).Result.Status)
	assert.Equal(t, "Failure", kube.ConvertReview(context.Background(), req, nil).Result.Status)

	// Another field.
	req = &kube.ConversionRequest{UID: "u2", DesiredAPIVersion: cacheGroup + "/v2", Objects: []json.RawMessage{
		[]byte(`{"apiVersion":"example.paramkit.dev/v1","kind":"Cache","spec":{"config":{"maxMemoryMB":20}}}`)}}
	resp = kube.ConvertReview(context.Background(), req, convert("/spec/config"))
	require.Equal(t, "Success", resp.Result.Status, resp.Result.Message)
	assert.Contains(t, string(resp.ConvertedObjects[0]), `"memoryLimitMB":20`)
}

// TestConvertReviewDeadlineIsATimeout: a conversion that fails because
// the review's deadline passed inside it (a schema lookup that hangs)
// answers 504 Timeout, as Admit does, not a plain failure; any other
// failure stays one.
func TestConvertReviewDeadlineIsATimeout(t *testing.T) {
	req := &kube.ConversionRequest{UID: "u", DesiredAPIVersion: cacheGroup + "/v1", Objects: []json.RawMessage{cacheObject("v2", `{}`)}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	hanging := func(ctx context.Context, _ []byte, _ string) ([]byte, error) {
		<-ctx.Done()
		return nil, fmt.Errorf("looking up the schema: %w", ctx.Err())
	}
	resp := kube.ConvertReview(ctx, req, hanging)
	assert.Equal(t, "Failure", resp.Result.Status)
	assert.Equal(t, int32(504), resp.Result.Code, resp.Result.Message)
	assert.Equal(t, "Timeout", resp.Result.Reason)
	assert.Contains(t, resp.Result.Message, "deadline passed while converting object 0 of 1")
	assert.Empty(t, resp.ConvertedObjects)

	failing := func(context.Context, []byte, string) ([]byte, error) { return nil, fmt.Errorf("no schema") }
	resp = kube.ConvertReview(context.Background(), req, failing)
	assert.Equal(t, "Failure", resp.Result.Status)
	assert.Zero(t, resp.Result.Code)
	assert.Equal(t, "object 0 of 1: no schema", resp.Result.Message)
}
