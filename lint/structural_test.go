package lint

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// -update-structural (or a package-wide -update, when one is defined)
// rewrites the golden files under testdata/structural.
var updateStructural = flag.Bool("update-structural", false, "rewrite the structural lint golden files")

func updatingGolden() bool {
	if *updateStructural {
		return true
	}
	if f := flag.Lookup("update"); f != nil {
		return f.Value.String() == "true"
	}
	return false
}

// yamlDoc decodes one YAML document into plain values (YAML 1.2 core
// typing, exact numbers), as paramctl lint reads a schema.
func yamlDoc(t testing.TB, text string) any {
	t.Helper()
	n, err := document.ParseNode([]byte(text))
	require.NoError(t, err)
	doc, err := document.ToValue(n, nil)
	require.NoError(t, err)
	return doc
}

func yamlFile(t testing.TB, path string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return yamlDoc(t, string(data))
}

// lintStructural runs the structural set without its integer advice
// (structural-integer-range, tested on its own): the cases compare the
// set with the apiserver's own verdicts.
func lintStructural(doc any) []Finding {
	var out []Finding
	for _, f := range Run(nil, doc, structuralSet) {
		if f.Rule != ruleIntegerRange {
			out = append(out, f)
		}
	}
	return out
}

// requireResolves asserts that every finding's pointer resolves in doc.
func requireResolves(t testing.TB, doc any, fs []Finding) {
	t.Helper()
	for _, f := range fs {
		_, ok := pointer.Get(doc, f.Pointer)
		require.Truef(t, ok, "pointer %q of finding %+v does not resolve", f.Pointer, f)
	}
}

// goldenFindings compares findings with a golden JSON file.
func goldenFindings(t *testing.T, path string, fs []Finding) {
	t.Helper()
	got, err := json.MarshalIndent(fs, "", "  ")
	require.NoError(t, err)
	got = append(got, '\n')
	if updatingGolden() {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./lint -run structuralSet -update-structural")
	assert.Equal(t, string(want), string(got), "findings differ from %s", path)
}

func ruleIDs(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule)
	}
	return out
}

// TestStructuralGolden runs every rule's failing and passing schema: a
// failing schema gives findings of its rule (all findings are compared
// with the golden file), a passing schema gives no findings at all.
func TestStructuralGolden(t *testing.T) {
	dirs, err := os.ReadDir(filepath.Join("testdata", "structural", "rules"))
	require.NoError(t, err)
	covered := map[string]bool{}
	for _, d := range dirs {
		rule := "structural-" + d.Name()
		dir := filepath.Join("testdata", "structural", "rules", d.Name())
		t.Run(d.Name(), func(t *testing.T) {
			fails, err := filepath.Glob(filepath.Join(dir, "fail*.yaml"))
			require.NoError(t, err)
			require.NotEmpty(t, fails)
			for _, f := range fails {
				doc := yamlFile(t, f)
				fs := lintStructural(doc)
				if rule == ruleIntegerRange {
					fs = Run(nil, doc, structuralSet)
				}
				requireResolves(t, doc, fs)
				assert.Contains(t, ruleIDs(fs), rule, "%s gives no %s finding", f, rule)
				goldenFindings(t, strings.TrimSuffix(f, ".yaml")+".golden.json", fs)
			}
			// A passing schema has no errors or warnings at all, and no
			// finding of the rule.
			pass := filepath.Join(dir, "pass.yaml")
			doc := yamlFile(t, pass)
			passFs := lintStructural(doc)
			if rule == ruleIntegerRange {
				passFs = Run(nil, doc, structuralSet)
			}
			for _, f := range passFs {
				assert.Equal(t, Info, f.Severity, "%s should pass: %+v", pass, f)
				assert.NotEqual(t, rule, f.Rule, "%s should pass: %+v", pass, f)
			}
		})
		covered[rule] = true
	}
	for _, r := range structuralSet.Rules {
		assert.True(t, covered[r.ID], "rule %s has no testdata/structural/rules directory", r.ID)
	}
}

// TestStructuralCases pins single apiserver behaviours: the finding's
// rule, severity, pointer and a part of the message.
func TestStructuralCases(t *testing.T) {
	type want struct {
		rule, sev, ptr, msg string
	}
	cases := []struct {
		name string
		doc  string
		want []want // all findings, in any order
	}{
		{"minimal object", `type: object`, nil},
		{"preserve-unknown-fields root needs no type", `x-kubernetes-preserve-unknown-fields: true`, nil},
		{"empty document", ``, []want{{ruleFieldType, "error", "", "schemas are required"}}},
		{"root is not an object", `[1, 2]`, []want{{ruleFieldType, "error", "", "cannot unmarshal array"}}},
		{"boolean schema root", `true`, []want{{ruleFieldType, "error", "", "cannot unmarshal bool"}}},
		{"root type missing", `properties: {a: {type: string}}`,
			[]want{{ruleType, "error", "", "type: Required value: must not be empty at the root"}}},
		{"root type string", `type: string`,
			[]want{{ruleType, "error", "/type", `Invalid value: "string": must be object at the root`}}},
		{"nullable root", `{type: object, nullable: true}`,
			[]want{{ruleType, "error", "/nullable", "nullable cannot be true at the root"}}},
		{"type list", `{type: object, properties: {a: {type: [string, "null"]}}}`,
			[]want{{ruleFieldType, "error", "/properties/a/type", "cannot unmarshal array into Go struct field JSONSchemaProps.type of type string"}}},
		{"type null", `{type: object, properties: {a: {type: "null"}}}`, []want{
			{ruleType, "error", "/properties/a/type", `Unsupported value: "null"`},
			{ruleType, "error", "/properties/a/type", "type cannot be set to null, use nullable as an alternative"},
		}},
		{"null field is absent", `{type: object, description: null, properties: {a: {type: string, default: null}}}`, nil},
		{"null property schema is empty", `{type: object, properties: {a: null}}`,
			[]want{{ruleType, "error", "/properties/a", "type: Required value: must not be empty for specified object fields"}}},
		{"item type missing", `{type: object, properties: {a: {type: array, items: {}}}}`,
			[]want{{ruleType, "error", "/properties/a/items", "type: Required value: must not be empty for specified array items"}}},
		{"int-or-string needs no type", `{type: object, properties: {a: {x-kubernetes-int-or-string: true}}}`, nil},
		{"int-or-string anyOf pattern", `{type: object, properties: {a: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}}}`, nil},
		{"int-or-string anyOf in the other order", `{type: object, properties: {a: {x-kubernetes-int-or-string: true, anyOf: [{type: string}, {type: integer}]}}}`, []want{
			{ruleJunctor, "error", "/properties/a/anyOf/0/type", "must be empty to be structural"},
			{ruleJunctor, "error", "/properties/a/anyOf/1/type", "must be empty to be structural"},
		}},
		{"int-or-string anyOf with more in a clause", `{type: object, properties: {a: {x-kubernetes-int-or-string: true, anyOf: [{type: integer, minimum: 1}, {type: string}]}}}`, []want{
			{ruleJunctor, "error", "/properties/a/anyOf/0/type", "must be empty to be structural"},
			{ruleJunctor, "error", "/properties/a/anyOf/1/type", "must be empty to be structural"},
		}},
		{"int-or-string allOf pattern", `{type: object, properties: {a: {x-kubernetes-int-or-string: true, allOf: [{anyOf: [{type: integer}, {type: string}]}, {maxLength: 3}]}}}`, nil},
		{"$ref", `{type: object, properties: {a: {$ref: "#/definitions/x"}}}`, []want{
			{ruleUnsupported, "error", "/properties/a/$ref", "$ref is not supported"},
			{ruleType, "error", "/properties/a", "type: Required value"},
		}},
		{"empty definitions are accepted", `{type: object, definitions: {}, patternProperties: {}}`, nil},
		{"empty dependencies are refused", `{type: object, dependencies: {}}`,
			[]want{{ruleUnsupported, "error", "/dependencies", "dependencies is not supported"}}},
		{"additionalItems false is refused", `{type: object, properties: {a: {type: array, items: {type: string}, additionalItems: false}}}`,
			[]want{{ruleUnsupported, "error", "/properties/a/additionalItems", "additionalItems is not supported"}}},
		{"uniqueItems false is accepted", `{type: object, properties: {a: {type: array, items: {type: string}, uniqueItems: false}}}`, nil},
		{"items true decodes to no schema", `{type: object, properties: {a: {type: array, items: true}}}`,
			[]want{{ruleObject, "error", "/properties/a/items", "Required value: must be specified"}}},
		{"empty items list decodes to no schema", `{type: object, properties: {a: {type: array, items: []}}}`,
			[]want{{ruleObject, "error", "/properties/a/items", "Required value: must be specified"}}},
		{"additionalProperties at the root", `{type: object, additionalProperties: {type: string}}`,
			[]want{{ruleObject, "error", "/additionalProperties", "must not be used at the root"}}},
		{"additionalProperties true with properties", `{type: object, properties: {a: {type: object, properties: {b: {type: string}}, additionalProperties: true}}}`, nil},
		{"additionalProperties false with properties", `{type: object, properties: {a: {type: object, properties: {b: {type: string}}, additionalProperties: false}}}`,
			[]want{{ruleObject, "error", "/properties/a/additionalProperties", "additionalProperties and properties are mutual exclusive"}}},
		{"completeness at the root", `{type: object, anyOf: [{properties: {a: {minimum: 1}}}]}`,
			[]want{{ruleJunctor, "error", "/anyOf/0/properties/a", `"/properties/a" must be specified because it is defined in "/anyOf/0/properties/a"`}}},
		{"completeness of items at the root", `{type: object, properties: {a: {type: string}}, allOf: [{properties: {a: {items: {maxLength: 1}}}}]}`,
			[]want{{ruleJunctor, "error", "/allOf/0/properties/a/items", `"/properties/a/items" must be specified`}}},
		{"completeness below the root is a warning", `{type: object, properties: {o: {type: object, anyOf: [{properties: {a: {minimum: 1}}}]}}}`,
			[]want{{ruleJunctor, "warning", "/properties/o/anyOf/0/properties/a", "the apiserver checks this at the root only"}}},
		{"nested metadata", `{type: object, properties: {metadata: {type: object}}, anyOf: [{properties: {metadata: {}}}]}`,
			[]want{{ruleJunctor, "error", "/anyOf/0/properties/metadata", "must not be specified in a nested context"}}},
		{"metadata with name and generateName", `{type: object, properties: {metadata: {type: object, properties: {name: {type: string}, generateName: {type: string}}}}}`, nil},
		{"metadata with labels", `{type: object, properties: {metadata: {type: object, properties: {labels: {type: object}}}}}`,
			[]want{{ruleMetadata, "error", "/properties/metadata", "must not specify anything other than name and generateName"}}},
		{"metadata must be an object", `{type: object, properties: {metadata: {type: string}}}`,
			[]want{{ruleMetadata, "error", "/properties/metadata/type", `Invalid value: "string": must be object`}}},
		{"default in top-level metadata", `{type: object, properties: {metadata: {type: object, properties: {name: {type: string, default: x}}}}}`,
			[]want{{ruleDefault, "error", "/properties/metadata/properties/name/default", "Forbidden: must not be set in top-level metadata"}}},
		{"default in top-level kind", `{type: object, properties: {kind: {type: string, default: Widget}}}`,
			[]want{{ruleDefault, "error", "/properties/kind/default", "Forbidden: must not be set in top-level kind"}}},
		{"embedded resource without properties", `{type: object, properties: {e: {type: object, x-kubernetes-embedded-resource: true}}}`,
			[]want{{ruleExtension, "error", "/properties/e", "properties: Required value: must not be empty if x-kubernetes-embedded-resource is true"}}},
		{"embedded resource inside metadata", `{type: object, properties: {e: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true, properties: {metadata: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}}}}}`,
			[]want{{ruleMetadata, "error", "/properties/e/properties/metadata/x-kubernetes-embedded-resource", "must not be used inside of resource meta"}}},
		{"default under embedded metadata additionalProperties", `{type: object, properties: {e: {type: object, x-kubernetes-embedded-resource: true, properties: {metadata: {type: object, properties: {labels: {type: object, additionalProperties: {type: string, default: x}}}}}}}}`,
			[]want{{ruleDefault, "error", "/properties/e/properties/metadata/properties/labels/additionalProperties/default", "must not be set inside additionalProperties applying to object metadata"}}},
		{"preserve-unknown-fields false", `{type: object, properties: {a: {type: object, x-kubernetes-preserve-unknown-fields: false}}}`,
			[]want{{ruleExtension, "error", "/properties/a/x-kubernetes-preserve-unknown-fields", "must be true or undefined"}}},
		{"list-type without type", `{type: object, properties: {a: {x-kubernetes-list-type: atomic, x-kubernetes-preserve-unknown-fields: true}}}`,
			[]want{{ruleExtension, "error", "/properties/a", "type: Required value: must be array if x-kubernetes-list-type is specified"}}},
		{"set of objects must be atomic", `{type: object, properties: {a: {type: array, x-kubernetes-list-type: set, items: {type: object, x-kubernetes-map-type: granular}}}}`,
			[]want{{ruleExtension, "error", "/properties/a/items/x-kubernetes-map-type", `Invalid value: "granular": must be atomic`}}},
		{"set items not nullable", `{type: object, properties: {a: {type: array, x-kubernetes-list-type: set, items: {type: string, nullable: true}}}}`,
			[]want{{ruleExtension, "error", "/properties/a/items/nullable", "cannot be nullable when x-kubernetes-list-type is set"}}},
		{"map list of scalars", `{type: object, properties: {a: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [k], items: {type: string}}}}`,
			[]want{{ruleExtension, "error", "/properties/a/items/type", `Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`}}},
		{"map list key of object type", `{type: object, properties: {a: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [k], items: {type: object, required: [k], properties: {k: {type: object}}}}}}`,
			[]want{{ruleExtension, "error", "/properties/a/items/properties/k/type", "must be a scalar type"}}},
		{"pattern in Go syntax", `{type: object, properties: {a: {type: string, pattern: "^\\p{L}+$"}}}`, nil},
		{"pattern with lookahead", `{type: object, properties: {a: {type: string, pattern: "^a(?!b)"}}}`,
			[]want{{rulePattern, "error", "/properties/a/pattern", "must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax"}}},
		{"default of the wrong type", `{type: object, properties: {a: {type: integer, default: "3"}}}`,
			[]want{{ruleDefault, "error", "/properties/a/default", `Invalid value: "3": must be of type integer`}}},
		{"integral default for an integer", `{type: object, properties: {a: {type: integer, default: 3.0}}}`, nil},
		{"null default on a non-nullable string is no default", `{type: object, properties: {a: {type: string, default: null}}}`, nil},
		{"default null inside an object", `{type: object, properties: {a: {type: object, properties: {b: {type: string}}, default: {b: null}}}}`,
			[]want{{ruleDefault, "error", "/properties/a/default/b", "Invalid value: null: must be of type string"}}},
		{"nullable allows null inside a default", `{type: object, properties: {a: {type: object, properties: {b: {type: string, nullable: true}}, default: {b: null}}}}`, nil},
		{"default pruned by additionalProperties true", `{type: object, properties: {a: {type: object, additionalProperties: true, default: {b: {c: 1}}}}}`,
			[]want{{ruleDefault, "error", "/properties/a/default", "must not have unknown fields (pruning drops /properties/a/default/b/c)"}}},
		{"default kept by preserve-unknown-fields", `{type: object, properties: {a: {type: object, x-kubernetes-preserve-unknown-fields: true, default: {b: {c: 1}}}}}`, nil},
		{"default against additionalProperties false", `{type: object, properties: {a: {type: object, additionalProperties: false, default: {b: 1}}}}`,
			[]want{{ruleDefault, "error", "/properties/a/default/b", "b is a forbidden property"}}},
		{"default exclusive maximum", `{type: object, properties: {a: {type: number, maximum: 5, exclusiveMaximum: true, default: 5}}}`,
			[]want{{ruleDefault, "error", "/properties/a/default", "should be less than 5"}}},
		{"default multipleOf", `{type: object, properties: {a: {type: number, multipleOf: 0.1, default: 0.3}}}`, nil},
		{"default maxLength counts runes", `{type: object, properties: {a: {type: string, maxLength: 2, default: "éé"}}}`, nil},
		{"default required field missing", `{type: object, properties: {a: {type: object, required: [b], properties: {b: {type: string}}, default: {}}}}`,
			[]want{{ruleDefault, "error", "/properties/a/default", "b: Required value"}}},
		{"default anyOf", `{type: object, properties: {a: {type: string, anyOf: [{pattern: "^a"}, {pattern: "^b"}], default: c}}}`,
			[]want{{ruleDefault, "error", "/properties/a/default", "must validate at least one schema (anyOf)"}}},
		{"default int-or-string", `{type: object, properties: {a: {x-kubernetes-int-or-string: true, default: true}}}`,
			[]want{{ruleDefault, "error", "/properties/a/default", "must be of type integer or string"}}},
		{"empty enum constrains nothing", `{type: object, properties: {a: {type: string, enum: [], default: x}}}`, nil},
		{"default date-time forms", `{type: object, properties: {a: {type: string, format: date-time, default: "2024-01-02t03:04:05z"}, b: {type: string, format: date-time, default: "2024-01-02T03:04:05.123+01:00"}}}`, nil},
		{"default date-time", `{type: object, properties: {a: {type: string, format: date-time, default: "2024-01-02"}}}`,
			[]want{{ruleDefault, "error", "/properties/a/default", "must be of type date-time"}}},
		{"default of an invalid type is not judged", `{type: object, properties: {a: {type: int, default: 3}}}`,
			[]want{{ruleType, "error", "/properties/a/type", `Unsupported value: "int"`}}},
		{"default format uuid", `{type: object, properties: {a: {type: string, format: uuid, default: nope}}}`,
			[]want{{ruleDefault, "error", "/properties/a/default", `Invalid value: "nope": must be of type uuid`}}},
		{"default format not checked here", `{type: object, properties: {a: {type: string, format: email, default: nope}}}`, nil},
		{"default under additionalProperties is a warning", `{type: object, properties: {a: {type: object, additionalProperties: {type: integer, default: x}}}}`,
			[]want{{ruleDefault, "warning", "/properties/a/additionalProperties/default", "the apiserver does not check defaults under additionalProperties"}}},
		{"unknown field", `{type: object, const: 1}`,
			[]want{{ruleUnknownField, "error", "/const", `unknown field "const"`}}},
		{"field names are case-sensitive", `{type: object, Description: x}`,
			[]want{{ruleUnknownField, "error", "/Description", `unknown field "Description"`}}},
		{"vendor extension", `{type: object, x-kudo-trigger: deploy}`,
			[]want{{ruleUnknownField, "error", "/x-kudo-trigger", `unknown field "x-kudo-trigger"`}}},
		{"integer field from a YAML float", `{type: object, properties: {a: {type: string, maxLength: 1.0}}}`, nil},
		{"integer field too big", `{type: object, properties: {a: {type: string, maxLength: 9223372036854775808}}}`,
			[]want{{ruleFieldType, "error", "/properties/a/maxLength", "of type int64"}}},
		{"additionalProperties a string", `{type: object, properties: {a: {type: object, additionalProperties: "no"}}}`,
			[]want{{ruleFieldType, "error", "/properties/a/additionalProperties", "boolean or JSON schema expected"}}},
		{"property key with slash", `{type: object, properties: {"a/b": {type: int}}}`,
			[]want{{ruleType, "error", "/properties/a~1b/type", `Unsupported value: "int"`}}},
		{"rule with oldSelf in atomic list items", `{type: object, properties: {l: {type: array, items: {type: string, x-kubernetes-validations: [{rule: "self == oldSelf"}]}}}}`, []want{
			{ruleValidation, "error", "/properties/l/items/x-kubernetes-validations/0/rule", `oldSelf cannot be used on the uncorrelatable portion of the schema within "/properties/l"`},
		}},
		{"oldSelf as a field name", `{type: object, properties: {o: {type: object, properties: {oldSelf: {type: string}}, x-kubernetes-validations: [{rule: "self.oldSelf != ''", optionalOldSelf: true}]}}}`, []want{
			{ruleValidation, "error", "/properties/o/x-kubernetes-validations/0/optionalOldSelf", "may not be set if oldSelf is not used in rule"},
		}},
		{"fieldPath into a map", `{type: object, properties: {m: {type: object, additionalProperties: {type: object, properties: {x: {type: string}}}, x-kubernetes-validations: [{rule: "true", fieldPath: ".k.x"}]}}}`, nil},
		{"fieldPath past a scalar", `{type: object, properties: {m: {type: object, properties: {x: {type: string}}, x-kubernetes-validations: [{rule: "true", fieldPath: ".x.y"}]}}}`, []want{
			{ruleValidation, "error", "/properties/m/x-kubernetes-validations/0/fieldPath", "fieldPath must be a valid path"},
		}},
		{"x-kubernetes-validations in a junctor", `{type: object, properties: {a: {type: integer}}, allOf: [{x-kubernetes-validations: [{rule: "true"}]}]}`, []want{
			{ruleJunctor, "error", "/allOf/0/x-kubernetes-validations", "must be empty to be structural"},
		}},
		{"format on an integer", `{type: object, properties: {a: {type: integer, format: date}}}`,
			[]want{{ruleFormat, "warning", "/properties/a/format", `unrecognized format "date"`}}},
		{"dashed format names", `{type: object, properties: {a: {type: string, format: date-time}, b: {type: string, format: datetime}}}`, nil},
		{"$schema inside", `{type: object, properties: {a: {type: string, $schema: "x"}}}`,
			[]want{{ruleUnsupported, "error", "", `OpenAPIV3Schema 'schema' is not supported (the $schema at "/properties/a/$schema")`}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := yamlDoc(t, c.doc)
			fs := lintStructural(doc)
			requireResolves(t, doc, fs)
			got := make([]want, len(fs))
			for i, f := range fs {
				got[i] = want{f.Rule, string(f.Severity), f.Pointer, f.Message}
			}
			require.Len(t, got, len(c.want), "findings: %+v", fs)
			used := make([]bool, len(got))
			for _, w := range c.want {
				found := false
				for i, g := range got {
					if !used[i] && g.rule == w.rule && g.sev == w.sev && g.ptr == w.ptr && strings.Contains(g.msg, w.msg) {
						used[i], found = true, true
						break
					}
				}
				assert.True(t, found, "no finding %+v among %+v", w, fs)
			}
		})
	}
}

// stripKUDO removes what a KUDO v1beta2 schema adds to a CRD schema: the
// dialect, the apiVersion key and the KEP's keywords.
func stripKUDO(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range t {
			switch k {
			case "$schema", "trigger", "immutable", "oldName":
				continue
			}
			out[k] = stripKUDO(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = stripKUDO(x)
		}
		return out
	}
	return v
}

// TestStructuralKEPExamples: the KEP's example schemas are refused for
// exactly what a CRD schema cannot hold ($schema, KUDO keywords, the
// apiVersion key, a missing or unknown type), and pass once those are
// removed, except for genuine faults.
func TestStructuralKEPExamples(t *testing.T) {
	type ref struct{ rule, ptr string }
	cases := []struct {
		file     string
		asIs     []ref
		stripped []ref
	}{
		{"package-format.yaml",
			[]ref{{ruleUnsupported, ""}, {ruleType, "/properties/Zookeeper"}, {ruleUnknownField, "/apiVersion"}},
			[]ref{{ruleType, "/properties/Zookeeper"}, {ruleUnknownField, "/apiVersion"}}},
		{"operatorversion.yaml", []ref{{ruleUnsupported, ""}}, nil},
		{"conversion.yaml", []ref{{ruleUnsupported, ""}}, nil},
		{"upgrade.yaml", []ref{
			{ruleUnsupported, ""},
			{ruleUnknownField, "/properties/backup/properties/credentials/properties/name/oldName"},
			{ruleUnknownField, "/properties/backup/properties/credentials/properties/password/oldName"},
			{ruleUnknownField, "/properties/backup/properties/enabled/oldName"},
			{ruleUnknownField, "/properties/clusterName/oldName"},
		}, nil},
		{"trigger-invalid.yaml", []ref{
			{ruleUnknownField, "/properties/Authorization/properties/ENABLED/trigger"},
			{ruleUnknownField, "/properties/Authorization/trigger"},
		}, nil},
		{"trigger-valid.yaml", []ref{
			{ruleUnknownField, "/properties/Authorization/properties/ENABLED/trigger"},
			{ruleUnknownField, "/properties/Authorization/trigger"},
			{ruleUnknownField, "/properties/ClusterName/trigger"},
			{ruleType, "/properties/NodeCount/type"},
		}, []ref{{ruleType, "/properties/NodeCount/type"}}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			doc := yamlFile(t, filepath.Join("testdata", "structural", "kep", c.file))
			for _, variant := range []struct {
				doc  any
				want []ref
			}{{doc, c.asIs}, {stripKUDO(doc), c.stripped}} {
				fs := lintStructural(variant.doc)
				requireResolves(t, variant.doc, fs)
				got := []ref{}
				for _, f := range fs {
					require.Equal(t, Error, f.Severity, "%+v", f)
					got = append(got, ref{f.Rule, f.Pointer})
				}
				sort.Slice(got, func(i, j int) bool {
					if got[i].ptr != got[j].ptr {
						return got[i].ptr < got[j].ptr
					}
					return got[i].rule < got[j].rule
				})
				want := variant.want
				if want == nil {
					want = []ref{}
				}
				sort.Slice(want, func(i, j int) bool {
					if want[i].ptr != want[j].ptr {
						return want[i].ptr < want[j].ptr
					}
					return want[i].rule < want[j].rule
				})
				assert.Equal(t, want, got, "findings: %+v", fs)
			}
		})
	}
}

// TestStructuralTypicalCRD: a controller-gen style CRD schema passes,
// its CEL rules compiled as the apiserver compiles them.
func TestStructuralTypicalCRD(t *testing.T) {
	doc := yamlFile(t, filepath.Join("testdata", "structural", "crd-typical.yaml"))
	fs := lintStructural(doc)
	requireResolves(t, doc, fs)
	assert.Empty(t, fs)
}

// TestStructuralSameWithCompiledSchema: the set reads only the document,
// so a compiled schema changes nothing.
func TestStructuralSameWithCompiledSchema(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "structural", "rules", "default", "fail.yaml"))
	require.NoError(t, err)
	s, err := schema.Parse(data)
	require.NoError(t, err)
	assert.Equal(t, Run(nil, s.Document(), structuralSet), Run(s, s.Document(), structuralSet))
}

func TestStructuralIsBuiltIn(t *testing.T) {
	set := Structural()
	require.Equal(t, "structural", set.Name)
	require.Equal(t, len(structuralSet.Rules), len(set.Rules))
	seen := map[string]bool{}
	for _, r := range set.Rules {
		assert.Equal(t, "structural", r.Set)
		assert.True(t, strings.HasPrefix(r.ID, "structural-"), r.ID)
		assert.NotEmpty(t, r.Doc)
		assert.False(t, seen[r.ID], "duplicate id %s", r.ID)
		seen[r.ID] = true
	}
}

// TestStructuralPointersResolve: every finding's pointer resolves in its
// document, for every document under testdata (and the fuzz seeds).
func TestStructuralPointersResolve(t *testing.T) {
	var files []string
	require.NoError(t, filepath.WalkDir(filepath.Join("testdata", "structural"), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".yaml") {
			files = append(files, p)
		}
		return err
	}))
	require.NotEmpty(t, files)
	for _, f := range files {
		doc := yamlFile(t, f)
		requireResolves(t, doc, lintStructural(doc))
	}
}

func FuzzStructural(f *testing.F) {
	_ = filepath.WalkDir(filepath.Join("testdata", "structural"), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".yaml") {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := document.DecodeJSON(data)
		if err != nil {
			n, yerr := document.ParseNode(data)
			if yerr != nil {
				return
			}
			if doc, err = document.ToValue(n, nil); err != nil {
				return
			}
		}
		// analyzeStructural, not Run: Run turns a panic into a finding.
		for _, fd := range analyzeStructural(doc) {
			if _, ok := pointer.Get(doc, fd.ptr); !ok {
				t.Fatalf("pointer %q does not resolve (%s: %s)", fd.ptr, fd.rule, fd.msg)
			}
		}
	})
}

// TestStructuralHugeNumbers: documents built in code may hold numbers no
// parser would let through; they are judged without big arithmetic.
func TestStructuralHugeNumbers(t *testing.T) {
	huge := json.Number("1e999999999")
	doc := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"a": map[string]any{"type": "string", "maxLength": huge},
			"b": map[string]any{"type": "number", "minimum": json.Number("1"), "multipleOf": json.Number("2"), "default": huge},
		},
	}
	fs := lintStructural(doc)
	requireResolves(t, doc, fs)
	require.Len(t, fs, 1, "%+v", fs)
	assert.Equal(t, "/properties/a/maxLength", fs[0].Pointer)
	assert.Equal(t, ruleFieldType, fs[0].Rule)
}

// TestStructuralEditInPlace: the analysis the rules share is not reused
// for a document changed in place.
func TestStructuralEditInPlace(t *testing.T) {
	doc := yamlDoc(t, `{type: object, properties: {a: {type: string}}}`).(map[string]any)
	assert.Empty(t, lintStructural(doc))
	doc["properties"].(map[string]any)["a"].(map[string]any)["type"] = "int"
	fs := lintStructural(doc)
	require.Len(t, fs, 1)
	assert.Equal(t, "/properties/a/type", fs[0].Pointer)
	delete(doc["properties"].(map[string]any)["a"].(map[string]any), "type")
	fs = lintStructural(doc)
	require.Len(t, fs, 1)
	assert.Contains(t, fs[0].Message, "must not be empty for specified object fields")
}

// TestStructuralConcurrent: runs on different documents at once keep
// their own findings.
func TestStructuralConcurrent(t *testing.T) {
	good := yamlDoc(t, `{type: object, properties: {a: {type: string}}}`)
	bad := yamlDoc(t, `{type: object, properties: {a: {type: int}}}`)
	done := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func(i int) {
			for j := 0; j < 50; j++ {
				doc, want := good, 0
				if (i+j)%2 == 1 {
					doc, want = bad, 1
				}
				if n := len(lintStructural(doc)); n != want {
					done <- fmt.Errorf("got %d findings, want %d", n, want)
					return
				}
			}
			done <- nil
		}(i)
	}
	for i := 0; i < 8; i++ {
		require.NoError(t, <-done)
	}
}
