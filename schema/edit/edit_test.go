package edit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const editYAML = `# The operator's parameters.
title: My Operator
type: object
required:
- clusterName   # always
properties:
  clusterName:
    type: string
    default: my-cluster   # keep
  backup:
    type: object
    trigger: backup
    properties:
      enabled:
        type: boolean

# trailing comment
`

const editJSON = `{
    "title": "My Operator",
    "type": "object",
    "required": ["clusterName"],
    "properties": {
        "clusterName": {"type": "string", "default": "my-cluster"},
        "backup": {
            "type": "object",
            "properties": {}
        },
        "escaped": {"type": "string", "default": "caf\u00e9 ok"}
    }
}
`

func TestAddProperty(t *testing.T) {
	seven := json.Number("7")
	tests := []struct {
		name string
		doc  string
		at   string
		spec Property
		want string
	}{
		{
			name: "into an existing object, required, YAML",
			doc:  editYAML, at: "/backup/retentionDays",
			spec: Property{Type: "integer", Title: "Retention days", Default: seven, HasDefault: true, Required: true, Enum: []any{seven, json.Number("14")}},
			want: strings.Replace(editYAML, "        type: boolean\n", `        type: boolean
      retentionDays:
        type: integer
        title: Retention days
        default: 7
        enum: [7, 14]
    required: [retentionDays]
`, 1),
		},
		{
			name: "at the root, appended to the required list",
			doc:  editYAML, at: "/nodeCount",
			spec: Property{Type: "integer", Required: true, Trigger: "scale", Immutable: true, Description: "How many nodes: 'three' or more."},
			want: strings.Replace(strings.Replace(editYAML, "- clusterName   # always\n", "- clusterName   # always\n- nodeCount\n", 1),
				"        type: boolean\n", `        type: boolean
  nodeCount:
    type: integer
    description: "How many nodes: 'three' or more."
    trigger: scale
    immutable: true
`, 1),
		},
		{
			name: "intermediate objects are created",
			doc:  editYAML, at: "/monitoring/alerts/email",
			spec: Property{Type: "string", Required: true},
			want: strings.Replace(editYAML, "        type: boolean\n", `        type: boolean
  monitoring:
    type: object
    properties:
      alerts:
        type: object
        properties:
          email:
            type: string
        required: [email]
`, 1),
		},
		{
			name: "JSON keeps its layout and escapes",
			doc:  editJSON, at: "/backup/bucket",
			spec: Property{Type: "string", Title: "Bucket", Required: true},
			want: strings.Replace(editJSON, `            "properties": {}
        },`, `            "properties": {
                "bucket": {
                    "type": "string",
                    "title": "Bucket"
                }
            },
            "required": ["bucket"]
        },`, 1),
		},
		{
			name: "JSON at the root",
			doc:  editJSON, at: "/size",
			spec: Property{Type: "number", Default: json.Number("1.50"), HasDefault: true, Required: true},
			want: strings.Replace(strings.Replace(editJSON, `"required": ["clusterName"]`, `"required": ["clusterName", "size"]`, 1),
				`"default": "caf\u00e9 ok"}
    }`, `"default": "caf\u00e9 ok"},
        "size": {
            "type": "number",
            "default": 1.50
        }
    }`, 1),
		},
		{
			name: "flow mappings stay flow",
			doc:  "type: object\nproperties: {a: {type: string}}\nrequired: []\n", at: "/b",
			spec: Property{Type: "boolean", Default: true, HasDefault: true, Required: true},
			want: "type: object\nproperties: {a: {type: string}, b: {type: boolean, default: true}}\nrequired: [b]\n",
		},
		{
			name: "no properties yet, no final newline",
			doc:  "type: object\ntitle: Empty", at: "/a",
			spec: Property{Type: "string"},
			want: "type: object\ntitle: Empty\nproperties:\n  a:\n    type: string\n",
		},
		{
			name: "CRLF line ends are kept",
			doc:  "type: object\r\nproperties:\r\n  a:\r\n    type: string\r\n", at: "/b",
			spec: Property{Type: "string"},
			want: "type: object\r\nproperties:\r\n  a:\r\n    type: string\r\n  b:\r\n    type: string\r\n",
		},
		{
			name: "four-space indentation is kept",
			doc:  "type: object\nproperties:\n    a:\n        type: object\n        properties:\n            b:\n                type: string\n", at: "/a/c",
			spec: Property{Type: "string", Default: "yes", HasDefault: true},
			want: "type: object\nproperties:\n    a:\n        type: object\n        properties:\n            b:\n                type: string\n            c:\n                type: string\n                default: \"yes\"\n",
		},
		{
			name: "a parent defined by $ref gets it in the definition",
			doc:  "type: object\nproperties:\n  backup:\n    $ref: '#/$defs/backup'\n$defs:\n  backup:\n    type: object\n    properties:\n      enabled: {type: boolean}\n", at: "/backup/bucket",
			spec: Property{Type: "string"},
			want: "type: object\nproperties:\n  backup:\n    $ref: '#/$defs/backup'\n$defs:\n  backup:\n    type: object\n    properties:\n      enabled: {type: boolean}\n      bucket:\n        type: string\n",
		},
		{
			name: "a literal block scalar at the end",
			doc:  "type: object\nproperties:\n  a:\n    type: string\n    description: |\n      Line one.\n\n      Line two.\n\n# about b\nx-extra: 1\n", at: "/b",
			spec: Property{Type: "string"},
			want: "type: object\nproperties:\n  a:\n    type: string\n    description: |\n      Line one.\n\n      Line two.\n  b:\n    type: string\n\n# about b\nx-extra: 1\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := AddProperty([]byte(tt.doc), tt.at, tt.spec)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(out))
		})
	}
}

func TestAddPropertyRefuses(t *testing.T) {
	tests := []struct {
		name, doc, at string
		spec          Property
		err           string
	}{
		{"existing property", editYAML, "/backup/enabled", Property{Type: "boolean"}, "already exists"},
		{"existing property at the root", editYAML, "/clusterName", Property{Type: "string"}, "already exists"},
		{"unknown type", editYAML, "/x", Property{Type: "int"}, `type "int"`},
		{"default of the wrong type", editYAML, "/x", Property{Type: "integer", Default: "seven", HasDefault: true}, "does not satisfy"},
		{"default not in the enum", editYAML, "/x", Property{Type: "string", Default: "c", HasDefault: true, Enum: []any{"a", "b"}}, "does not satisfy"},
		{"enum of the wrong type", editYAML, "/x", Property{Type: "integer", Enum: []any{"a"}}, "enum value 0"},
		{"fractional integer default", editYAML, "/x", Property{Type: "integer", Default: json.Number("1.5"), HasDefault: true}, "does not satisfy"},
		{"trigger conflict", editYAML, "/backup/x", Property{Type: "string", Trigger: "deploy"}, `conflicts with trigger "backup"`},
		{"below a string", editYAML, "/clusterName/x", Property{Type: "string"}, "not an object"},
		{"no path", editYAML, "", Property{Type: "string"}, "names no property"},
		{"bad pointer", editYAML, "x", Property{Type: "string"}, "must start with"},
		{"empty name", editYAML, "/backup/", Property{Type: "string"}, "may not be empty"},
		{"an anchor shared with another property", "type: object\nproperties:\n  a: &obj\n    type: object\n    properties: {}\n  c: *obj\n", "/a/b", Property{Type: "string"}, "anchor"},
		{"properties from a merge key", "x-base: &base\n  type: object\n  properties:\n    a: {type: string}\ntype: object\nproperties:\n  obj:\n    <<: *base\n", "/obj/b", Property{Type: "string"}, "by hand"},
		{"schema does not compile", "type: int\n", "/x", Property{Type: "string"}, "/type"},
		{"default that fails the parent", "type: object\nproperties:\n  a:\n    type: object\n    additionalProperties: {maxLength: 2}\n", "/a/b", Property{Type: "string", Default: "abc", HasDefault: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := AddProperty([]byte(tt.doc), tt.at, tt.spec)
			if tt.err == "" {
				// Declared properties are not governed by additionalProperties.
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Nil(t, out)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}

// Adding a property only inserts text: every byte of the original is
// still there, in order.
func TestAddPropertyOnlyInserts(t *testing.T) {
	for _, doc := range []string{editYAML, editJSON} {
		for _, at := range []string{"/n", "/backup/n", "/backup/deep/er", "/new/one"} {
			out, err := AddProperty([]byte(doc), at, Property{Type: "string", Required: true, Title: "N"})
			require.NoError(t, err, at)
			assert.True(t, onlyInserted(doc, string(out)), "%s in\n%s\ngave\n%s", at, doc, out)
		}
	}
}

// onlyInserted reports whether a is a subsequence of b.
func onlyInserted(a, b string) bool {
	j := 0
	for i := 0; i < len(a); i++ {
		for j < len(b) && b[j] != a[i] {
			j++
		}
		if j == len(b) {
			return false
		}
		j++
	}
	return true
}

// TestAddPropertyBelowASecretQuotesNoValue: a parameter added below a
// writeOnly object is a secret: a default or enum value it refuses is not
// quoted (issue 26).
func TestAddPropertyBelowASecretQuotesNoValue(t *testing.T) {
	doc := []byte("type: object\nproperties:\n  db:\n    type: object\n    writeOnly: true\n    properties: {}\n")
	_, err := AddProperty(doc, "/db/pw", Property{Type: "string", Default: "SECRETvalue1", HasDefault: true, Enum: []any{"SECRETenum1"}})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "SECRET")
	assert.Contains(t, err.Error(), "(value hidden)")
	_, err = AddProperty(doc, "/db/n", Property{Type: "integer", Enum: []any{"SECRETenum2"}})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "SECRET")
	_, err = AddProperty(doc, "/plain", Property{Type: "string", Default: "visible1", HasDefault: true, Enum: []any{"visible2"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"visible1"`, "a plain default is still quoted")
}

// TestAddPropertyTypes: a property of several types (a type list), of any
// type (no type keyword), and a writeOnly one, in JSON and YAML.
func TestAddPropertyTypes(t *testing.T) {
	tests := []struct {
		name string
		spec Property
		want string
	}{
		{"several types", Property{Types: []string{"integer", "string"}, Title: "Port", Default: json.Number("80"), HasDefault: true}, `{"type":["integer","string"],"title":"Port","default":80}`},
		{"one of Types", Property{Types: []string{"string"}}, `{"type":"string"}`},
		{"any type", Property{AnyType: true, Title: "Name override"}, `{"title":"Name override"}`},
		{"write only", Property{Type: "string", WriteOnly: true}, `{"type":"string","writeOnly":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := AddProperty([]byte(`{"type": "object", "properties": {}}`), "/x", tt.spec)
			require.NoError(t, err)
			var doc struct {
				Properties map[string]json.RawMessage `json:"properties"`
			}
			require.NoError(t, json.Unmarshal(out, &doc))
			assert.JSONEq(t, tt.want, string(doc.Properties["x"]))
			y, err := AddProperty([]byte(editYAML), "/x", tt.spec)
			require.NoError(t, err)
			assert.True(t, onlyInserted(editYAML, string(y)))
		})
	}
	for _, c := range []struct {
		name string
		spec Property
		err  string
	}{
		{"AnyType with a type", Property{AnyType: true, Type: "string"}, "AnyType excludes"},
		{"Type and Types", Property{Type: "string", Types: []string{"integer"}}, "either Type or Types"},
		{"an unknown type among Types", Property{Types: []string{"integer", "int"}}, `type "int"`},
		{"a default none of Types takes", Property{Types: []string{"integer", "boolean"}, Default: "x", HasDefault: true}, "does not satisfy"},
		{"a write-only default is not quoted", Property{Type: "integer", WriteOnly: true, Default: "hunter2", HasDefault: true}, "not shown"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := AddProperty([]byte(editYAML), "/x", c.spec)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
			assert.NotContains(t, err.Error(), "hunter2")
		})
	}
}
