package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// governingSchema holds each way a key can be declared: in a oneOf
// branch behind an earlier branch that forbids it (cluster-aws's node
// pools), in anyOf, allOf, $ref, if/then/else and patternProperties.
const governingSchema = `
$defs:
  port: {type: integer}
  pool:
    type: object
    oneOf:
      - allOf:
          - {required: [type], properties: {type: {const: karpenter}}}
          - additionalProperties: false
            properties:
              type: {const: karpenter}
              limits: {type: object}
      - additionalProperties: false
        properties:
          type: {const: nodepool}
          maxSize: {type: integer}
          minSize: {type: integer}
type: object
properties:
  pool: {$ref: '#/$defs/pool'}
  any:
    anyOf:
      - {properties: {a: {type: integer}}}
      - {properties: {a: {type: string}, b: {type: boolean}}}
  all:
    allOf:
      - {properties: {x: {$ref: '#/$defs/port'}}}
      - {properties: {x: {minimum: 1}}}
  cond:
    properties: {kind: {type: string}}
    if: {properties: {kind: {const: big}}}
    then: {properties: {size: {type: integer}}}
    else: {properties: {size: {type: string}}, additionalProperties: false}
  closed:
    additionalProperties: false
    properties: {a: {type: string}}
    patternProperties: {'^x-': {type: boolean}}
  branchesClosed:
    oneOf:
      - {additionalProperties: false, properties: {a: {type: string}}}
      - {additionalProperties: false, properties: {b: {type: string}}}
  tuple:
    type: array
    prefixItems: [{type: string}]
    items: {type: integer}
  either:
    anyOf:
      - {type: array, items: {type: string}}
      - {type: array, prefixItems: [{type: boolean}], items: false}
`

// TestChildNodes: every node that may govern a key, from every branch
// that allows it; nothing (and not open) only where each branch forbids it.
func TestChildNodes(t *testing.T) {
	s, err := schema.Parse([]byte(governingSchema))
	require.NoError(t, err)
	tests := []struct {
		name  string
		at    string // value pointer of the object
		key   string
		nodes []string // schema pointers
		open  bool
	}{
		{"second oneOf branch declares it", "/pool", "maxSize", []string{"/$defs/pool/oneOf/1/properties/maxSize"}, false},
		{"declared in both branches", "/pool", "type", []string{
			"/$defs/pool/oneOf/0/allOf/0/properties/type", "/$defs/pool/oneOf/0/allOf/1/properties/type", "/$defs/pool/oneOf/1/properties/type"}, false},
		{"no branch allows it", "/pool", "nope", nil, false},
		{"anyOf: each branch's node", "/any", "a", []string{"/properties/any/anyOf/0/properties/a", "/properties/any/anyOf/1/properties/a"}, false},
		{"anyOf: one branch says nothing", "/any", "b", []string{"/properties/any/anyOf/1/properties/b"}, true},
		{"allOf: all apply, through $ref", "/all", "x", []string{"/properties/all/allOf/0/properties/x", "/properties/all/allOf/1/properties/x"}, false},
		{"then and else", "/cond", "size", []string{"/properties/cond/then/properties/size", "/properties/cond/else/properties/size"}, false},
		{"own property and if's test", "/cond", "kind", []string{"/properties/cond/properties/kind", "/properties/cond/if/properties/kind"}, false},
		{"else forbids, then leaves it open", "/cond", "other", nil, true},
		{"pattern", "/closed", "x-on", []string{"/properties/closed/patternProperties/^x-"}, false},
		{"closed object", "/closed", "y", nil, false},
		{"both branches closed, one declares", "/branchesClosed", "b", []string{"/properties/branchesClosed/oneOf/1/properties/b"}, false},
		{"both branches closed, none declares", "/branchesClosed", "c", nil, false},
		{"no node says nothing", "/nothing", "z", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := s.Lookup(tt.at)
			nodes, open := n.ChildNodes(tt.key)
			assert.Equal(t, tt.nodes, pointers(nodes))
			assert.Equal(t, tt.open, open)
		})
	}
}

func TestElemNodes(t *testing.T) {
	s, err := schema.Parse([]byte(governingSchema))
	require.NoError(t, err)
	tuple := s.Lookup("/tuple")
	nodes, open := tuple.ElemNodes(0)
	assert.Equal(t, []string{"/properties/tuple/prefixItems/0"}, pointers(nodes))
	assert.False(t, open)
	nodes, _ = tuple.ElemNodes(5)
	assert.Equal(t, []string{"/properties/tuple/items"}, pointers(nodes))

	either := s.Lookup("/either")
	nodes, open = either.ElemNodes(0)
	assert.Equal(t, []string{"/properties/either/anyOf/0/items", "/properties/either/anyOf/1/prefixItems/0"}, pointers(nodes))
	assert.False(t, open)
	nodes, open = either.ElemNodes(1)
	assert.Equal(t, []string{"/properties/either/anyOf/0/items"}, pointers(nodes), "items: false rules out only its branch")
	assert.False(t, open)

	var none *schema.Node
	nodes, open = none.ElemNodes(0)
	assert.Empty(t, nodes)
	assert.True(t, open)
}

// TestChildPrefersABranchThatAllowsTheKey: Child no longer answers with the
// false additionalProperties of the first oneOf branch when a later one
// declares the key; then/else are branches too; a key every branch
// forbids still gets a false node.
func TestChildPrefersABranchThatAllowsTheKey(t *testing.T) {
	s, err := schema.Parse([]byte(governingSchema))
	require.NoError(t, err)
	assert.Equal(t, "/$defs/pool/oneOf/1/properties/maxSize", s.Lookup("/pool/maxSize").Pointer())
	assert.Equal(t, []string{"integer"}, s.Lookup("/pool/maxSize").Types())
	assert.Equal(t, "/properties/cond/then/properties/size", s.Lookup("/cond/size").Pointer())
	c := s.Lookup("/pool").Child("nope")
	require.NotNil(t, c)
	assert.True(t, c.IsFalse())
}

// TestChildNodesRecursive: a schema that refers to itself through its
// branches ends, and says what it can.
func TestChildNodesRecursive(t *testing.T) {
	s, err := schema.Parse([]byte(`
$defs:
  tree:
    anyOf:
      - {type: string}
      - {$ref: '#/$defs/branch'}
  branch:
    type: object
    properties:
      leaf: {type: string}
      kids: {type: array, items: {$ref: '#/$defs/tree'}}
$ref: '#/$defs/tree'
`))
	require.NoError(t, err)
	nodes, open := s.Root().ChildNodes("leaf")
	assert.Equal(t, []string{"/$defs/branch/properties/leaf"}, pointers(nodes))
	assert.True(t, open, "the string branch says nothing about keys")
	kids := s.Lookup("/kids/0/kids/3")
	require.NotNil(t, kids)
	nodes, _ = kids.ChildNodes("leaf")
	assert.Equal(t, []string{"/$defs/branch/properties/leaf"}, pointers(nodes))
}

func pointers(nodes []*schema.Node) []string {
	var out []string
	for _, n := range nodes {
		out = append(out, n.Pointer())
	}
	return out
}
