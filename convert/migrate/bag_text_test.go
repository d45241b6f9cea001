package migrate

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// The versions of the plain-text tests: v2 renames replicas, adds code
// (a string) and keeps extra free-form; neither declares legacy or
// legacyCode.
const (
	textV1 = `
type: object
properties:
  name: {type: string}
  replicas: {type: integer}
  extra: {type: object}
`
	textV2 = `
type: object
properties:
  name: {type: string}
  replicaCount: {type: integer, oldName: replicas}
  code: {type: string}
  extra: {type: object}
`
	// textDocV2 holds, where no node of v2 types them, the plain scalars
	// whose text YAML 1.2 core typing would change, at the top, in nested
	// objects and in lists.
	textDocV2 = `name: demo
replicaCount: 3
code: 007
extra:
  list:
    - yes
    - 0x1F
    - ~
    - 9007199254740993
  ratio: 1.10
  zone: 007
legacy:
  items:
    - 007
    - deep: 0x1F
  nested:
    big: 9007199254740993
    flag: yes
    hex: 0x1F
    none: ~
    v: 1.10
legacyCode: 007
`
)

// writeYAML writes values as YAML, as paramctl does.
func writeYAML(t testing.TB, v any) []byte {
	t.Helper()
	b, err := encode.YAML(v, nil)
	require.NoError(t, err)
	return b
}

// textLegacyMeaning is what textDocV2's legacy means where no node types
// it: YAML 1.2 core rules.
func textLegacyMeaning() any {
	return map[string]any{
		"items":  []any{json.Number("7"), map[string]any{"deep": json.Number("31")}},
		"nested": map[string]any{"big": json.Number("9007199254740993"), "flag": "yes", "hex": json.Number("31"), "none": nil, "v": json.Number("1.10")},
	}
}

// TestVersionSetConvertDocumentText: text that no node of either version
// types (007, 1.10, yes, 0x1F, ~, 9007199254740993), at the top, in nested
// objects and in lists, comes out of a conversion as what YAML 1.2 core
// rules say, in the values, the property bag and the report of what v1
// cannot hold; where a node types it (code is a string in v2), the node
// decides. v2 → v1 → v2 gives back the values the document means, in
// memory and through YAML written and read back.
func TestVersionSetConvertDocumentText(t *testing.T) {
	v1, v2 := mustSchema(t, textV1), mustSchema(t, textV2)
	set, err := NewVersionSet([]Version{{Name: "v1", Schema: v1}, {Name: "v2", Schema: v2}})
	require.NoError(t, err)
	want, err := params.Decode(v2, []byte(textDocV2))
	require.NoError(t, err)
	require.Equal(t, "007", want.(map[string]any)["code"], "a string node types it")
	require.Equal(t, json.Number("7"), want.(map[string]any)["legacyCode"])

	down, err := conv(set.ConvertDocument([]byte(textDocV2), "v2", "v1"))
	require.NoError(t, err)
	require.True(t, down.OK(), "%v", down.Errors)
	requirePlainResult(t, down)
	assert.Equal(t, []Dropped{
		{Pointer: "/code", Value: "007"},
		{Pointer: "/legacy", Value: textLegacyMeaning()},
		{Pointer: "/legacyCode", Value: json.Number("7")},
	}, down.Dropped, "the report gives what the text means")
	assert.Equal(t, map[string]any{"list": []any{"yes", json.Number("31"), nil, json.Number("9007199254740993")},
		"ratio": json.Number("1.10"), "zone": json.Number("7")}, down.Values.(map[string]any)["extra"],
		"a free-form object gives what its text means")

	written := writeYAML(t, down.Values)
	assert.Contains(t, string(written), "value: \"007\"\n", "the bag keeps the string v2 typed")
	assert.Contains(t, string(written), "value: 7\n", "and the number the text means")
	for name, up := range map[string]func() (outcome, error){
		"in memory":    func() (outcome, error) { return conv(set.Convert(down.Values, "v1", "v2")) },
		"through YAML": func() (outcome, error) { return conv(set.ConvertDocument(written, "v1", "v2")) },
	} {
		up, err := up()
		require.NoError(t, err)
		require.True(t, up.OK(), "%s: %v", name, up.Errors)
		requirePlainResult(t, up)
		require.True(t, identical(want, up.Values), "%s: v2 → v1 → v2 changed the values\nin:  %s\nout: %s", name, show(want), show(up.Values))
	}
}

// TestVersionSetLaterNodeTypesText: a plain scalar the source version does
// not type keeps its text until a node types it: "007" where the target,
// or a version on the way, has a string node for it, 7 where it has an
// integer node, and 7 where none has a node (YAML 1.2 core rules).
func TestVersionSetLaterNodeTypesText(t *testing.T) {
	v1 := mustSchema(t, `
type: object
properties:
  name: {type: string}
`)
	v2 := mustSchema(t, `
type: object
properties:
  name: {type: string}
  code: {type: string}
  count: {type: integer}
  via: {type: string}
`)
	v3 := mustSchema(t, `
type: object
properties:
  name: {type: string}
  code: {type: string}
  count: {type: integer}
  moved: {oldName: via, description: no type of its own}
`)
	set, err := NewVersionSet([]Version{{Name: "v1", Schema: v1}, {Name: "v2", Schema: v2}, {Name: "v3", Schema: v3, Preview: true}})
	require.NoError(t, err)
	doc := []byte("name: 1.10\ncode: 007\ncount: 0x1F\nvia: 007\nlegacy: 007\n")

	r, err := conv(set.ConvertDocument(doc, "v1", "v2"))
	require.NoError(t, err)
	require.True(t, r.OK(), "%v", r.Errors)
	requirePlainResult(t, r)
	assert.Equal(t, map[string]any{"name": "1.10", "code": "007", "count": json.Number("31"), "via": "007"}, stripBag(r.Values), "the target's nodes type the text")
	assert.Equal(t, []Dropped{{Pointer: "/legacy", Value: json.Number("7")}}, r.Dropped, "no node types legacy")

	// v1 → v2 (hub) → v3: moved has no type in v3; v2's string node typed it.
	r, err = conv(set.ConvertDocument(doc, "v1", "v3"))
	require.NoError(t, err)
	require.True(t, r.OK(), "%v", r.Errors)
	requirePlainResult(t, r)
	assert.Equal(t, "007", r.Values.(map[string]any)["moved"], "a node on the way types the text")
	assert.Equal(t, "007", r.Values.(map[string]any)["code"])

	// Values given to Convert mean what they say: code is the number 7,
	// which v2's string node does not take.
	in, err := params.Decode(v1, doc)
	require.NoError(t, err)
	r, err = conv(set.Convert(in, "v1", "v2"))
	require.NoError(t, err)
	assert.NotContains(t, r.Values, "code")
	assert.Contains(t, r.Dropped, Dropped{Pointer: "/code", Value: json.Number("7")})
}

// TestLosslessMigrateDocumentText: a lossless Migration reads a document
// by the oldest version's schema, so a plain scalar v1 does not type is
// typed by v2's node (code: 007 is "007"), and one no node types means
// what YAML 1.2 core rules say; old → new → old gives back the values the
// document means, and new → old → new the values it started from.
func TestLosslessMigrateDocumentText(t *testing.T) {
	v1, v2 := mustSchema(t, textV1), mustSchema(t, textV2)
	m, err := New(v2, FromVersion(v1), Lossless())
	require.NoError(t, err)

	// old → new → old.
	oldDoc := []byte("name: demo\nreplicas: 007\ncode: 007\nextra: {zone: 007, l: [yes, ~]}\nlegacyCode: 0x1F\nlegacy: [1.10, {big: 9007199254740993}]\n")
	want, err := params.Decode(v1, oldDoc)
	require.NoError(t, err)
	up := got(m.MigrateDocument(oldDoc))
	require.True(t, up.OK(), "%v", up.Errors)
	requirePlainResult(t, up)
	assert.Equal(t, "007", up.Values.(map[string]any)["code"], "v2's string node types the text")
	assert.Equal(t, map[string]any{"zone": json.Number("7"), "l": []any{"yes", nil}}, up.Values.(map[string]any)["extra"])
	require.Contains(t, up.Dropped, Dropped{Pointer: "/legacyCode", Value: json.Number("31")})
	down := got(m.Down(up.Values))
	require.True(t, down.OK(), "%v", down.Errors)
	requirePlainResult(t, down)
	// The values are what the document means; the bag keeps v2's "007",
	// which v1's 7 would not give back.
	require.True(t, identical(want, stripBag(down.Values)), "in:  %s\nout: %s", show(want), show(down.Values))
	require.Contains(t, down.Dropped, Dropped{Pointer: "/code", Value: "007"})

	// new → old → new, the old values written as YAML in between.
	in, err := params.Decode(v2, []byte(textDocV2))
	require.NoError(t, err)
	down = got(m.Down(in))
	require.True(t, down.OK(), "%v", down.Errors)
	requirePlainResult(t, down)
	require.Contains(t, down.Dropped, Dropped{Pointer: "/legacyCode", Value: json.Number("7")})
	up = got(m.MigrateDocument(writeYAML(t, down.Values)))
	require.True(t, up.OK(), "%v", up.Errors)
	requirePlainResult(t, up)
	require.True(t, identical(in, up.Values), "in:  %s\nout: %s", show(in), show(up.Values))
}

// withPlainScalars adds, at random, keys that no node of the schema types
// to the open objects of v (and text to its untyped arrays), holding YAML
// plain scalar text, or objects and lists of it, as decodeDocument reads
// them. v is changed in place and returned.
func withPlainScalars(n *schema.Node, v any, rnd *rand.Rand) any {
	untyped := n == nil || n.Types() == nil
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			var c *schema.Node
			if n != nil {
				c = n.Child(k)
			}
			x[k] = withPlainScalars(c, e, rnd)
		}
		for i := rnd.IntN(3); i > 0; i-- {
			k := "text" + strconv.Itoa(rnd.IntN(1000))
			if _, taken := x[k]; taken {
				continue
			}
			if c := nodeChild(n, k); c == nil || (c.Types() == nil && !c.IsFalse()) {
				x[k] = randomPlainText(rnd, 2)
			}
		}
	case []any:
		for i, e := range x {
			var c *schema.Node
			if n != nil {
				c = n.Elem(i)
			}
			x[i] = withPlainScalars(c, e, rnd)
		}
		if untyped && n != nil && rnd.IntN(2) == 0 {
			x = append(x, randomPlainText(rnd, 1))
		}
		return x
	}
	return v
}

func nodeChild(n *schema.Node, k string) *schema.Node {
	if n == nil {
		return nil
	}
	return n.Child(k)
}

// randomPlainText is a plain scalar, or an object or list of them.
func randomPlainText(rnd *rand.Rand, depth int) any {
	switch r := rnd.IntN(10); {
	case depth > 0 && r == 0:
		m := map[string]any{}
		for i := rnd.IntN(3); i >= 0; i-- {
			m["k"+strconv.Itoa(i)] = randomPlainText(rnd, depth-1)
		}
		return m
	case depth > 0 && r == 1:
		l := make([]any, rnd.IntN(3)+1)
		for i := range l {
			l[i] = randomPlainText(rnd, depth-1)
		}
		return l
	case r == 2:
		return plainScalar("0" + strconv.Itoa(rnd.IntN(1000)))
	case r == 3:
		return plainScalar("0x" + strconv.FormatInt(rnd.Int64N(1<<40), 16))
	}
	return plainScalar(plainScalarTexts[rnd.IntN(len(plainScalarTexts))])
}
