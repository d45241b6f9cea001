package convert

import (
	"testing"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

var flatSeeds = []string{
	"apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: A\n    default: 3\n    required: true\n",
	"parameters:\n  - {name: B, type: map, default: '{foo:\"bar\"}', group: g}\n  - {name: C, type: array, default: '[a,b]', enum: ['[a,b]']}\n",
	"kind: OperatorVersion\nspec:\n  parameters:\n    - {name: X, value-type: integer, default: \"007\", trigger: t, immutable: true}\n",
	"spec:\n  parameters:\n  - name: NODE_COUNT\n    default: 3\n  - name: BACKUP_ENABLED\n    default: false\n",
	`{"kind":"OperatorVersion","apiVersion":"kudo.dev/v1beta1","spec":{"parameters":[{"name":"N","default":"1.5","value-type":"number"}]}}`,
	"type: object\nproperties: {a: {type: string}}\n",
	"apiVersion: kudo.dev/v1beta1\nkind: OperatorVersion\nspec:\n  parameters: {type: object}\n",
	"parameters:\n  - name: D\n    default: !!int 3\n    enum: [1, 2, *a]\n",
	"parameters:\n  - &p {name: E, default: x}\n  - <<: *p\n    name: F\n",
	"true\n",
	"parameters: [{name: ''}, {name: G, type: boolean, default: 't'}, 3]\n",
}

// FuzzFromV1beta1: no input makes the converter panic; a schema it builds
// from a v1beta1 list always compiles; converting its output again changes
// nothing, in YAML and in JSON.
func FuzzFromV1beta1(f *testing.F) {
	for _, s := range flatSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := FromV1beta1(data)
		if err != nil {
			return
		}
		if c.generated {
			if _, err := schema.Parse(c.schemaJSON()); err != nil {
				t.Fatalf("converted schema does not compile: %v\n%s", err, c.schemaJSON())
			}
		}
		y, err := c.YAML()
		if err != nil {
			t.Fatalf("YAML: %v", err)
		}
		for _, out := range [][]byte{y, mustBytes(c.JSON(""))} {
			again, err := FromV1beta1(out)
			if err != nil {
				t.Fatalf("reconverting the output fails: %v\n%s", err, out)
			}
			if again.Changed {
				t.Fatalf("reconverting the output changes it\n%s", out)
			}
			if !value.Equal(c.Document, again.Document) {
				t.Fatalf("reconverted document differs at %v\n%s", value.Diff(c.Document, again.Document), out)
			}
		}
	})
}

// FuzzToV1beta1RoundTrip: any schema survives v1beta2 → v1beta1 → v1beta2
// exactly, whatever it holds.
func FuzzToV1beta1RoundTrip(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"integer","default":3}}}`,
		`{"type":"object","required":["a","zz"],"properties":{"a":{"type":"integer","default":"abc"},"":{"title":1},"b":{"enum":[1,"1",[1]]}}}`,
		`{"properties":{"x":{"type":["string","null"],"default":null,"immutable":true,"trigger":"t"}},"$defs":{"d":true}}`,
		`true`,
		`{"properties":{"a/b~c":{"type":"object","default":{"k":1.0}}}}`,
	} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, schemaJSON []byte, withMetadata bool) {
		sch, err := document.DecodeJSON(schemaJSON)
		if err != nil {
			return
		}
		switch sch.(type) {
		case map[string]any, bool:
		default:
			return
		}
		ov := map[string]any{"apiVersion": apiV1beta2, "kind": "OperatorVersion", "spec": map[string]any{"parameters": sch}}
		if withMetadata {
			ov["metadata"] = map[string]any{"name": "x", "annotations": map[string]any{"a": "b"}}
		}
		down, err := ToV1beta1(encode.JSON(ov, nil, ""))
		if err != nil {
			t.Fatalf("ToV1beta1: %v", err)
		}
		up, err := FromV1beta1(mustBytes(down.JSON("")))
		if err != nil {
			t.Fatalf("FromV1beta1: %v\n%s", err, mustBytes(down.JSON("")))
		}
		if !value.Equal(ov, up.Document) {
			t.Fatalf("round trip differs at %v\n%s\n%s", value.Diff(ov, up.Document), schemaJSON, mustBytes(up.JSON("")))
		}
	})
}
