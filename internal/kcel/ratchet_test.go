package kcel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/document"
)

func plainDoc(t *testing.T, text string) any {
	t.Helper()
	d, err := document.Read([]byte(text), document.Options{})
	require.NoError(t, err)
	return d.Value
}

// TestRatchetDrops: which nodes' errors the apiserver's ratcheting drops
// on an update: a node that equals its correlated old value, or whose
// nearest correlatable ancestor does (object properties and map entries
// by key, list-type map items by their keys; no other list items).
func TestRatchetDrops(t *testing.T) {
	root := Read(plainDoc(t, `
type: object
properties:
  metadata: {type: object}
  spec:
    type: object
    properties:
      size: {type: integer}
      name: {type: string}
      nums: {type: array, items: {type: integer}}
      keyed:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items: {type: object, properties: {name: {type: string}, weight: {type: integer}}}
      owners: {type: object, additionalProperties: {type: string}}
      extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
`), "")
	old := `{"apiVersion":"v1","kind":"K","metadata":{"name":"a"},"spec":{"size":20,"name":"a","nums":[-1,2],"keyed":[{"name":"k","weight":500}],"owners":{"alice":"a"},"extra":{"x":1}}}`
	tests := []struct {
		name, new, ptr string
		drops          bool
	}{
		{name: "an unchanged scalar", new: `{"spec":{"size":20,"name":"b"}}`, ptr: "/spec/size", drops: true},
		{name: "a changed scalar", new: `{"spec":{"size":30}}`, ptr: "/spec/size"},
		{name: "a new field has no old value; its parent changed", new: `{"spec":{"size":20,"limit":1}}`, ptr: "/spec/limit"},
		{name: "an unchanged atomic list", new: `{"spec":{"nums":[-1,2],"size":1}}`, ptr: "/spec/nums/0", drops: true},
		{name: "an atomic list item kept while another changed", new: `{"spec":{"nums":[-1,3]}}`, ptr: "/spec/nums/0"},
		{name: "a map-list item kept while another is added", new: `{"spec":{"keyed":[{"name":"j","weight":1},{"name":"k","weight":500}]}}`, ptr: "/spec/keyed/1/weight", drops: true},
		{name: "a map-list item changed", new: `{"spec":{"keyed":[{"name":"k","weight":600}]}}`, ptr: "/spec/keyed/0/weight"},
		{name: "a map entry kept", new: `{"spec":{"owners":{"alice":"a","bob":"b"}}}`, ptr: "/spec/owners/alice", drops: true},
		{name: "an object whose field changed", new: `{"spec":{"size":21}}`, ptr: "/spec"},
		{name: "undeclared keys never correlate, so such an object never equals", new: `{"spec":{"extra":{"x":1}}}`, ptr: "/spec/extra"},
		{name: "kind is never ratcheted", new: `{"kind":"K"}`, ptr: "/kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := plainDoc(t, old).(map[string]any)
			n := plainDoc(t, old).(map[string]any)
			for k, v := range plainDoc(t, tt.new).(map[string]any) {
				if k == "spec" {
					spec := n["spec"].(map[string]any)
					for sk, sv := range v.(map[string]any) {
						spec[sk] = sv
					}
					continue
				}
				n[k] = v
			}
			assert.Equal(t, tt.drops, NewRatchet(root, n, o).Drops(tt.ptr))
		})
	}
	var none *Ratchet
	assert.False(t, none.Drops("/spec"), "no ratchet drops nothing")
}
