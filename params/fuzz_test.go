package params_test

import (
	"testing"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
)

// FuzzDecodeAll: no input may panic; whatever decodes is sound (what
// DecodeReader relies on to skip that check) and re-encodes to JSON that
// decodes to the same value (numbers exact).
func FuzzDecodeAll(f *testing.F) {
	s := mustSchemaFile(f, "testdata/decode/schema.yaml")
	for _, seed := range []string{
		"version: 1.10\nnodeCount: 3\n", "{\"a\": 1}\n---\nb: yes\n", "tags: [a, 1]\n", "labels: {a: 1}\n",
		"a: &x [1]\nb: *x\n", "nodeCount: 1e999999999\n", "? [a]\n: 1\n", "---\n---\n", "either: [1]\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := params.DecodeAll(s, data)
		if err != nil {
			return
		}
		for _, d := range docs {
			if !value.Sound(d) {
				t.Fatalf("decoded value is not sound: %#v", d)
			}
			out, err := params.MarshalJSON(s, d, "")
			if err != nil {
				t.Fatalf("MarshalJSON of a decoded value: %v", err)
			}
			back, err := document.DecodeJSON(out)
			if err != nil {
				t.Fatalf("re-encoded document does not decode: %v\n%s", err, out)
			}
			if !value.Equal(d, back) {
				t.Fatalf("round trip changed the value: %#v vs %#v", d, back)
			}
			_ = params.Validate(s, d)
		}
	})
}

// FuzzDefault: defaulting never panics, never removes a given non-null
// value, and is idempotent.
func FuzzDefault(f *testing.F) {
	s := mustSchemaFile(f, "testdata/defaults/schema.yaml")
	for _, seed := range []string{"{}", "backup: {}", "topology: [{}, 1, null]", "pools: {a: {}, b: 3}", "sidecar: null", "tls: []", "7"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := params.Decode(s, data)
		if err != nil {
			return
		}
		orig := value.DeepCopy(v)
		once := defaulted(t, s, v)
		if m, ok := orig.(map[string]any); ok {
			om := once.(map[string]any)
			for k, x := range m {
				if x != nil && !value.Equal(x, om[k]) && !isContainer(x) {
					t.Fatalf("default overwrote %q: %#v -> %#v", k, x, om[k])
				}
			}
		}
		twice := defaulted(t, s, value.DeepCopy(once))
		if !value.Equal(once, twice) {
			t.Fatalf("defaulting is not idempotent:\n%#v\n%#v", once, twice)
		}
	})
}

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// FuzzParseText: text values never panic and a string node always gets
// the text verbatim.
func FuzzParseText(f *testing.F) {
	s := mustSchemaFile(f, "testdata/decode/schema.yaml")
	for _, seed := range []string{"[foo,bar,bazz]", `{foo:"bar"}`, "3", "yes", "- a\n- b", "{a: [", "0x1F"} {
		f.Add("/tags", seed)
		f.Add("/version", seed)
		f.Add("/labels", seed)
	}
	f.Fuzz(func(t *testing.T, ptr, text string) {
		n := s.Lookup(ptr)
		v, _ := params.ParseText(n, text)
		if n != nil && n.Types() != nil && len(n.Types()) == 1 && n.Types()[0] == "string" && v != text {
			t.Fatalf("string node changed the text %q to %#v", text, v)
		}
	})
}
