package lint

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestDefaultOfASecretIsNotQuoted: a default is schema text, but the
// checks that validate it (through schema.ValidateAt) hide a secret
// node's value like every validation message; a plain one is quoted.
func TestDefaultOfASecretIsNotQuoted(t *testing.T) {
	s, err := schema.Parse([]byte(`{"properties": {
		"pin": {"type": "integer", "writeOnly": true, "maximum": 10, "default": 8675309},
		"n": {"type": "integer", "maximum": 10, "default": 4242}}}`))
	require.NoError(t, err)
	fs := Run(s, nil, kudoSet)
	msgs := map[string]string{}
	for _, f := range fs {
		msgs[f.Pointer] = f.Message
	}
	require.Contains(t, msgs, "/properties/pin/default")
	assert.NotContains(t, msgs["/properties/pin/default"], "8675309")
	assert.Contains(t, msgs["/properties/pin/default"], schema.Hidden)
	assert.Contains(t, msgs["/properties/n/default"], "4242")
}

func TestExampleOfASecretIsNotQuoted(t *testing.T) {
	s, err := schema.Parse([]byte(`{"properties": {
		"pin": {"type": "integer", "format": "password", "examples": ["S3cr3tXYZ"]},
		"n": {"type": "integer", "examples": ["visible"]}}}`))
	require.NoError(t, err)
	fs := Run(s, nil, clusterAppSet)
	msgs := map[string]string{}
	for _, f := range fs {
		msgs[f.Pointer] = f.Message
	}
	require.Contains(t, msgs, "/properties/pin/examples/0")
	assert.NotContains(t, msgs["/properties/pin/examples/0"], "S3cr3tXYZ")
	assert.Contains(t, msgs["/properties/pin/examples/0"], schema.Hidden)
	assert.Contains(t, msgs["/properties/n/examples/0"], `"visible"`)
}

// TestNoRuleQuotesASecret runs every registered rule set over a schema
// whose secret nodes (writeOnly, format: password, a $ref to one, an object
// holding one) carry recognisable defaults, enum members, consts and
// examples that break many rules: no finding may quote them, whatever
// the rule, and each finding about them says (value hidden).
func TestNoRuleQuotesASecret(t *testing.T) {
	long := strings.Repeat("SECRETlong", 20)
	doc := `{"type": "object", "$defs": {"pw": {"type": "string", "writeOnly": true}},
	"properties": {
		"password": {"type": "string", "writeOnly": true, "default": "SECRETd1", "enum": ["SECRETe1", "SECRETe2"], "examples": ["SECRETx1"], "const": "SECRETc1"},
		"token": {"type": "string", "format": "password", "default": "SECRETd2", "enum": ["SECRETe3"], "minLength": 50, "examples": [""]},
		"long": {"type": "string", "format": "password", "default": "` + long + `", "maxLength": 3},
		"pin": {"type": "integer", "writeOnly": true, "default": 8675309, "maximum": 10, "enum": [1]},
		"viaRef": {"$ref": "#/$defs/pw", "default": "SECRETr1", "enum": ["SECRETr2"]},
		"db": {"type": "object", "default": {"user": "SECRETd3", "pass": "SECRETd4"}, "additionalProperties": false,
			"properties": {"pass": {"type": "string", "format": "password", "enum": ["SECRETe4"], "default": ""}}},
		"plain": {"type": "string", "default": "visible1", "enum": ["visible2"]}}}`
	s, err := schema.Parse([]byte(doc))
	require.NoError(t, err)
	for _, set := range []*Set{ClusterApp(), Kudo(), Structural()} {
		t.Run(set.Name, func(t *testing.T) {
			for _, fs := range [][]Finding{Run(s, nil, set), mustDocument(t, []byte(doc), set)} {
				for _, f := range fs {
					assert.NotRegexp(t, `SECRET|8675309`, f.Message, "%s %s", f.Rule, f.Pointer)
				}
			}
		})
	}
	fs := Run(s, nil, kudoSet)
	msgs := ""
	for _, f := range fs {
		msgs += f.String() + "\n"
	}
	assert.Contains(t, msgs, "visible1", "a plain default is still quoted")
	assert.Contains(t, msgs, `the default (value hidden) is not one of the enum values (value hidden)`)
}

func mustDocument(t *testing.T, data []byte, set *Set) []Finding {
	fs, err := Document(data, set)
	require.NoError(t, err)
	return fs
}

func TestRedactorWords(t *testing.T) {
	assert.Equal(t, "a (value hidden) b 123x 1234", replaceWord("a 123 b 123x 1234", "123", schema.Hidden))
	assert.Equal(t, `x (value hidden) y`, hideTruncated(`x "SECRETlongSECRETlong..." y`, `"SECRETlong`))
	assert.Equal(t, `x (value hidden) y`, hideTruncated(`x "SECRETlong\"q" y`, `"SECRETlong`))
}

// TestChartValuesSetOfASecretIsNotEchoed: a finding placed on the --set
// that wrote a secret names the assignment without its value.
func TestChartValuesSetOfASecretIsNotEchoed(t *testing.T) {
	c := &Chart{
		Schema: []byte(`{"type":"object","properties":{"password":{"type":"string","writeOnly":true,"enum":["SECRETenum1"]},"name":{"type":"string","enum":["visible1"]}}}`),
		Values: []byte("name: visible1\n"),
		Sets:   []HelmSet{{Flag: "set", Value: "password=SECRETvalue1"}, {Flag: "set", Value: "name=visible2"}},
	}
	fs, err := c.Lint()
	require.NoError(t, err)
	files := ""
	for _, f := range fs {
		files += f.File + " " + f.Message + "\n"
	}
	assert.NotContains(t, files, "SECRET")
	assert.Contains(t, files, "--set password=(value hidden)")
	assert.Contains(t, files, "--set name=visible2", "a plain assignment is still named")
}
