package params

// What github.com/evanphx/json-patch/v5 does with paramkit's values, and
// what it costs, beside params' own merge patch and operations. These
// tests and benchmarks are the measured reason, given in the README's
// "Dependencies" section, why params applies RFC 7386 merge patches and
// RFC 6902 operations itself (and the library serves the webhook tests,
// which apply the admission patches as the apiserver does).

import (
	"encoding/json"
	"os"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// The library keeps the text of numbers (9007199254740993 and 1.10 stay
// as written) and the key order of the target, adding new keys at its
// end.
func TestJSONPatchLibraryMergeKeepsNumberTextAndKeyOrder(t *testing.T) {
	doc := []byte(`{"z":1,"big":9007199254740993,"a":{"r":1.10,"e":1E3}}`)
	out, err := jsonpatch.MergePatch(doc, []byte(`{"a":{"n":2.50,"e":null},"m":9007199254740995}`))
	require.NoError(t, err)
	assert.Equal(t, `{"z":1,"big":9007199254740993,"a":{"r":1.10,"n":2.50},"m":9007199254740995}`, string(out))

	// params.MergePatch keeps the numbers too (key order is the schema's,
	// applied when the values are written).
	got := mergePatchPlain(mustJSON(t, doc), mustJSON(t, []byte(`{"a":{"n":2.50,"e":null},"m":9007199254740995}`)))
	assert.Equal(t, `{"a":{"n":2.50,"r":1.10},"big":9007199254740993,"m":9007199254740995,"z":1}`, string(mustBytes(MarshalJSON(nil, got, ""))))
}

// RFC 7386 merges an object patch into a target that is no object as
// into {}; the library refuses a null target, which is what an install
// (no values yet) merges into.
func TestJSONPatchLibraryMergeRefusesNullTarget(t *testing.T) {
	_, err := jsonpatch.MergePatch([]byte(`null`), []byte(`{"a":1}`))
	assert.ErrorIs(t, err, jsonpatch.ErrBadJSONDoc)
	out, err := jsonpatch.MergePatch([]byte(`[1]`), []byte(`{"a":1}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"a":1}`, string(out))

	assert.Equal(t, map[string]any{"a": json.Number("1")}, mergePatchPlain(nil, map[string]any{"a": json.Number("1")}))
}

// The library's RFC 6902 operations differ from paramkit's rules where
// they matter: it accepts array indexes RFC 6901 forbids (01, +1) and
// negative ones, takes a bad escape (~2) as text, and replaces an array
// that `paramctl patch --add` appends to. Numbers keep their text.
func TestJSONPatchLibraryOperationsDifferFromParamkit(t *testing.T) {
	const doc = `{"k":1.10,"l":[1,2,3],"n":1.50}`
	tests := []struct {
		name, patch, lib string // lib: the library's result
		op               opKind
		arg              string // the same edit as a paramkit operation
		paramkit         string // paramkit's result; "" means refused
	}{
		{"number text", `[{"op":"replace","path":"/n","value":9007199254740993}]`, `{"k":1.10,"l":[1,2,3],"n":9007199254740993}`,
			opReplace, "/n=9007199254740993", `{"k":1.10,"l":[1,2,3],"n":9007199254740993}`},
		{"add to an existing array", `[{"op":"add","path":"/l","value":4}]`, `{"k":1.10,"l":4,"n":1.50}`,
			opAdd, "/l=4", `{"k":1.10,"l":[1,2,3,4],"n":1.50}`},
		{"leading zero index", `[{"op":"replace","path":"/l/01","value":4}]`, `{"k":1.10,"l":[1,4,3],"n":1.50}`,
			opReplace, "/l/01=4", ""},
		{"plus sign index", `[{"op":"replace","path":"/l/+1","value":4}]`, `{"k":1.10,"l":[1,4,3],"n":1.50}`,
			opReplace, "/l/+1=4", ""},
		{"negative index", `[{"op":"replace","path":"/l/-1","value":4}]`, `{"k":1.10,"l":[1,2,4],"n":1.50}`,
			opReplace, "/l/-1=4", ""},
		{"bad escape", `[{"op":"add","path":"/a~2b","value":1}]`, `{"k":1.10,"l":[1,2,3],"n":1.50,"a~2b":1}`,
			opAdd, "/a~2b=1", ""},
	}
	s, err := schema.Parse([]byte(`{}`))
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := jsonpatch.DecodePatch([]byte(tt.patch))
			require.NoError(t, err)
			out, err := p.Apply([]byte(doc))
			require.NoError(t, err)
			assert.Equal(t, tt.lib, string(out), "the library")

			o, err := parseOperation(tt.op, tt.arg)
			if err != nil {
				assert.Empty(t, tt.paramkit, "paramkit refuses %s: %v", tt.arg, err)
				return
			}
			e := &editor{s: s}
			got, ok := e.operate(mustJSON(t, []byte(doc)), &o)
			if tt.paramkit == "" {
				assert.False(t, ok, "paramkit refuses %s", tt.arg)
				assert.NotEmpty(t, e.errs)
				return
			}
			require.True(t, ok, "%v", e.errs)
			assert.JSONEq(t, tt.paramkit, string(mustBytes(MarshalJSON(nil, got, ""))))
			assert.Contains(t, string(mustBytes(MarshalJSON(nil, got, ""))), `"k":1.10`)
		})
	}
}

func mustJSON(tb testing.TB, data []byte) any {
	tb.Helper()
	v, err := Decode(nil, data)
	require.NoError(tb, err)
	return v
}

// benchDocs are the documents of the benchmarks: a small Instance's
// values and a document of 554 keys (testdata/large/values.json).
type benchDoc struct {
	name  string
	doc   []byte
	patch []byte // a small merge patch
	path  string // a leaf replaced by the operation
	arg   string // the same replacement as paramctl patch --replace takes it
}

func benchDocs(b *testing.B) []benchDoc {
	large, err := os.ReadFile("testdata/large/values.json")
	require.NoError(b, err)
	return []benchDoc{
		{
			"small",
			[]byte(`{"clusterName":"my-cluster","nodeCount":3,"version":"1.10","backup":{"enabled":false,"schedule":"0 2 * * *","credentials":{"name":"admin","password":"secret"}},"resources":{"cpu":"500m","memory":"1Gi"},"ports":[9092,9093]}`),
			[]byte(`{"nodeCount":5,"backup":{"enabled":true}}`),
			"/backup/enabled", "/backup/enabled=true",
		},
		{
			"500keys",
			large,
			[]byte(`{"cluster":{"alpha2":"low","omicron4":{"gamma5":822}},"storage":{"nu4":null}}`),
			"/cluster/omicron4/gamma5", "/cluster/omicron4/gamma5=822",
		},
	}
}

// BenchmarkMergePatch: params' merge patch on values, against the library
// on JSON text (its own cost) and the library on values (the text written
// and read back, as params would have to).
func BenchmarkMergePatch(b *testing.B) {
	for _, d := range benchDocs(b) {
		name := d.name
		target, patch := mustJSON(b, d.doc), mustJSON(b, d.patch)
		b.Run(name+"/params", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = mergePatchPlain(target, patch)
			}
		})
		b.Run(name+"/jsonpatch-bytes", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := jsonpatch.MergePatch(d.doc, d.patch); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/jsonpatch-values", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, err := jsonpatch.MergePatch(mustBytes(MarshalJSON(nil, target, "")), mustBytes(MarshalJSON(nil, patch, "")))
				if err != nil {
					b.Fatal(err)
				}
				_ = mustJSON(b, out)
			}
		})
	}
}

// BenchmarkOperation: one replace of a leaf. params works on a copy of
// the values, as the update pipeline does; the library as for
// BenchmarkMergePatch.
func BenchmarkOperation(b *testing.B) {
	s, err := schema.Parse([]byte(`{}`))
	require.NoError(b, err)
	for _, d := range benchDocs(b) {
		name := d.name
		target := mustJSON(b, d.doc)
		o, err := parseOperation(opReplace, d.arg)
		require.NoError(b, err)
		patchText := []byte(`[{"op":"replace","path":"` + d.path + `","value":` + d.arg[len(d.path)+1:] + `}]`)
		b.Run(name+"/params", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e := &editor{s: s}
				if _, ok := e.operate(cloneValue(target), &o); !ok {
					b.Fatal(e.errs)
				}
			}
		})
		b.Run(name+"/jsonpatch-bytes", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, err := jsonpatch.DecodePatch(patchText)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := p.Apply(d.doc); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/jsonpatch-values", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p, err := jsonpatch.DecodePatch(patchText)
				if err != nil {
					b.Fatal(err)
				}
				out, err := p.Apply(mustBytes(MarshalJSON(nil, target, "")))
				if err != nil {
					b.Fatal(err)
				}
				_ = mustJSON(b, out)
			}
		})
	}
}

// mustBytes is the bytes of an encoder that cannot fail on the plain
// values a test gives it.
func mustBytes(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
