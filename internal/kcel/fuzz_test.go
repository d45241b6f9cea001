package kcel

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/paramkit/paramkit/internal/document"
)

// fuzzSchema has a node of every CEL type the apiserver derives from a
// structural schema.
const fuzzSchema = `{"type":"object","properties":{
 "i":{"type":"integer"},"n":{"type":"number"},"s":{"type":"string","maxLength":64},"b":{"type":"boolean"},
 "d":{"type":"string","format":"duration"},"t":{"type":"string","format":"date-time"},"y":{"type":"string","format":"byte"},
 "ios":{"x-kubernetes-int-or-string":true},
 "l":{"type":"array","maxItems":8,"x-kubernetes-list-type":"set","items":{"type":"string"}},
 "ml":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"},"v":{"type":"integer"}}}},
 "m":{"type":"object","additionalProperties":{"type":"integer"}},
 "free":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}`

// FuzzRules compiles an arbitrary rule and messageExpression on a schema
// of every type and evaluates them on an arbitrary value, new and old:
// whatever the input, no panic.
func FuzzRules(f *testing.F) {
	f.Add("self.i > 0", "'i is ' + string(self.i)", `{"i": 1}`, `{"i": 2}`)
	f.Add("self.l.all(x, x.size() < 3)", "", `{"l": ["a", "bb"]}`, `{}`)
	f.Add("self.ml.exists(e, e.k == 'a') && self == oldSelf", "", `{"ml": [{"k": "a", "v": 1}]}`, `{"ml": [{"k": "a", "v": 2}]}`)
	f.Add("self.d > duration('1s') && self.t < timestamp('2030-01-01T00:00:00Z')", "", `{"d": "2s", "t": "2024-01-01T00:00:00Z"}`, `null`)
	f.Add("type(self.ios) == int ? self.ios > 0 : self.ios.endsWith('%')", "", `{"ios": "50%"}`, `{"ios": 3}`)
	f.Add("self.m.all(k, self.m[k] < 10) && isURL('https://x') && ip('10.0.0.1').family() == 4", "", `{"m": {"a": 1}}`, `{}`)
	f.Add("self.y.size() > 0 && self.s.find('[a-z]+') != ''", "self.s", `{"y": "aGk=", "s": "abc"}`, `{}`)
	f.Add("isQuantity(self.s) && quantity(self.s).isLessThan(quantity('1Gi')) && sign(quantity(self.s).add(self.i)) >= 0", "", `{"s": "512Mi", "i": 3}`, `{}`)
	f.Add("isSemver(self.s, true) && semver(self.s, true).isLessThan(semver('2.0.0'))", "", `{"s": "v1.2"}`, `{}`)
	f.Add("oldSelf.hasValue()", "", `{"n": 1.5, "b": true}`, `{"i": 9223372036854775807}`)
	root := Read(mustDoc(f, fuzzSchema), "")
	f.Fuzz(func(t *testing.T, rule, msg, value, old string) {
		schema := mustDoc(t, fuzzSchema).(map[string]any)
		schema["x-kubernetes-validations"] = []any{
			map[string]any{"rule": rule, "messageExpression": msg},
			map[string]any{"rule": rule, "optionalOldSelf": true},
		}
		n := Read(schema, "")
		_ = Check(n)
		v := Compile(n, true)
		nv, err1 := document.Read([]byte(value), document.Options{})
		ov, err2 := document.Read([]byte(old), document.Options{})
		if err1 != nil || err2 != nil {
			return
		}
		ctx := context.Background()
		_ = v.Validate(ctx, nv.Value, nil, false, nil, nil)
		_ = v.Validate(ctx, nv.Value, ov.Value, true, nil, NewRatchet(n, nv.Value, ov.Value))
		_ = CheckValue(root, nv.Value, CheckOptions{Formats: true})
	})
}

func mustDoc(t testing.TB, text string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
