package convert

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/encode"
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

// yamlAsWritten writes values as YAML with each PlainScalar as written,
// the way paramctl does: the YAML writer writes a json.Number's text
// plain and untagged.
func yamlAsWritten(t testing.TB, v any) []byte {
	t.Helper()
	var prep func(any) any
	prep = func(v any) any {
		switch x := v.(type) {
		case PlainScalar:
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

func textLegacy() any {
	return map[string]any{
		"items":  []any{PlainScalar("007"), map[string]any{"deep": PlainScalar("0x1F")}},
		"nested": map[string]any{"big": PlainScalar("9007199254740993"), "flag": PlainScalar("yes"), "hex": PlainScalar("0x1F"), "none": PlainScalar("~"), "v": PlainScalar("1.10")},
	}
}

// TestVersionSetKeepsPlainText: v2 → v1 → v2 through a version set gives
// back every plain scalar no node types exactly as written (007, 1.10,
// yes, 0x1F, ~, 9007199254740993), at the top, in nested objects and in
// lists, also when the property bag is written as YAML in between; the
// report of what v1 cannot hold shows the same text. Where a node types
// a value (code is a string in v2), the node decides.
func TestVersionSetKeepsPlainText(t *testing.T) {
	v1, v2 := mustSchema(t, textV1), mustSchema(t, textV2)
	set, err := NewVersionSet([]Version{{Name: "v1", Schema: v1}, {Name: "v2", Schema: v2}})
	require.NoError(t, err)
	in, err := Decode(v2, []byte(textDocV2))
	require.NoError(t, err)
	require.Equal(t, PlainScalar("007"), in.(map[string]any)["legacyCode"])
	require.Equal(t, "007", in.(map[string]any)["code"], "a string node types it")

	down, err := set.Convert(in, "v2", "v1")
	require.NoError(t, err)
	require.True(t, down.OK(), "%v", down.Errors)
	assert.Equal(t, []Dropped{
		{Pointer: "/code", Value: "007"},
		{Pointer: "/legacy", Value: textLegacy()},
		{Pointer: "/legacyCode", Value: PlainScalar("007")},
	}, down.Dropped, "the report shows what was written")
	assert.Equal(t, map[string]any{"list": []any{PlainScalar("yes"), PlainScalar("0x1F"), PlainScalar("~"), PlainScalar("9007199254740993")},
		"ratio": PlainScalar("1.10"), "zone": PlainScalar("007")}, down.Values.(map[string]any)["extra"],
		"a free-form object carries its text as written")

	// In memory, and through YAML written and read back by Decode.
	written := yamlAsWritten(t, down.Values)
	assert.Contains(t, string(written), "value: 007\n", "the bag keeps the text")
	mid, err := Decode(v1, written)
	require.NoError(t, err)
	for name, at1 := range map[string]any{"in memory": down.Values, "through YAML": mid} {
		up, err := set.Convert(at1, "v1", "v2")
		require.NoError(t, err)
		require.True(t, up.OK(), "%s: %v", name, up.Errors)
		require.True(t, identical(in, up.Values), "%s: v2 → v1 → v2 changed the values\nin:  %#v\nout: %#v", name, in, up.Values)
	}
}

// TestLosslessMigrateDocumentKeepsPlainText: a lossless Migration reads
// a document by the oldest version's schema, so a plain scalar no node
// types keeps its text through old → new → old and new → old → new.
func TestLosslessMigrateDocumentKeepsPlainText(t *testing.T) {
	v1, v2 := mustSchema(t, textV1), mustSchema(t, textV2)
	m, err := NewMigration(v2, From(v1), Lossless())
	require.NoError(t, err)

	// new → old → new: the v1 document carries the bag as YAML.
	in, err := Decode(v2, []byte(textDocV2))
	require.NoError(t, err)
	down := m.Down(in)
	require.True(t, down.OK(), "%v", down.Errors)
	require.Contains(t, down.Dropped, Dropped{Pointer: "/legacyCode", Value: PlainScalar("007")})
	up := m.MigrateDocument(yamlAsWritten(t, down.Values))
	require.True(t, up.OK(), "%v", up.Errors)
	require.True(t, identical(in, up.Values), "in:  %#v\nout: %#v", in, up.Values)

	// old → new → old.
	oldDoc := []byte("name: demo\nreplicas: 007\nextra: {zone: 007, l: [yes, ~]}\nlegacyCode: 0x1F\nlegacy: [1.10, {big: 9007199254740993}]\n")
	want, err := Decode(v1, oldDoc)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"name": "demo", "replicas": json.Number("7"),
		"extra":      map[string]any{"zone": PlainScalar("007"), "l": []any{PlainScalar("yes"), PlainScalar("~")}},
		"legacyCode": PlainScalar("0x1F"), "legacy": []any{PlainScalar("1.10"), map[string]any{"big": PlainScalar("9007199254740993")}}}, want)
	up = m.MigrateDocument(oldDoc)
	require.True(t, up.OK(), "%v", up.Errors)
	require.Contains(t, up.Dropped, Dropped{Pointer: "/legacyCode", Value: PlainScalar("0x1F")})
	mid, err := Decode(v2, yamlAsWritten(t, up.Values))
	require.NoError(t, err)
	down = m.Down(mid)
	require.True(t, down.OK(), "%v", down.Errors)
	require.True(t, identical(want, down.Values), "in:  %#v\nout: %#v", want, down.Values)
}

// withPlainScalars adds, at random, keys that no node of the schema types
// to the open objects of v (and text to its untyped arrays), holding YAML
// plain scalar text, or objects and lists of it, as Decode reads them:
// what a round trip must give back exactly as written. v is changed in
// place and returned.
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
		return PlainScalar("0" + strconv.Itoa(rnd.IntN(1000)))
	case r == 3:
		return PlainScalar("0x" + strconv.FormatInt(rnd.Int64N(1<<40), 16))
	}
	return PlainScalar(plainScalarTexts[rnd.IntN(len(plainScalarTexts))])
}
