package kube

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestStoredBounds: an older (or newer) version's CRD schema takes the
// stored version's tighter bounds where its value maps there through the
// oldName chain with the same type, so that without the webhooks the
// apiserver refuses through it what the stored version refuses.
func TestStoredBounds(t *testing.T) {
	tests := []struct {
		name     string
		versions []string // oldest first; the last is stored unless storedAt says
		storedAt int      // index of the stored version; -1: the last
		at       int      // the version whose field schema is checked
		pointer  string
		want     map[string]any // keywords wanted at pointer (nil value: absent)
	}{
		{name: "a renamed field takes the maximum",
			versions: []string{
				`{type: object, properties: {maxMemoryMB: {type: integer, minimum: 16, default: 64}}}`,
				`{type: object, properties: {memoryLimitMB: {type: integer, minimum: 16, maximum: 65536, default: 64, oldName: maxMemoryMB}}}`,
			}, storedAt: -1, pointer: "/maxMemoryMB",
			want: map[string]any{"maximum": json.Number("65536"), "minimum": json.Number("16")}},
		{name: "through a chain of renames",
			versions: []string{
				`{type: object, properties: {a: {type: string}}}`,
				`{type: object, properties: {b: {type: string, oldName: a}}}`,
				`{type: object, properties: {c: {type: string, maxLength: 8, pattern: "^[a-z]+$", oldName: b}}}`,
			}, storedAt: -1, pointer: "/a",
			want: map[string]any{"maxLength": json.Number("8"), "pattern": "^[a-z]+$"}},
		{name: "a newer served version than the stored one",
			versions: []string{
				`{type: object, properties: {size: {type: integer, maximum: 10}}}`,
				`{type: object, properties: {replicas: {type: integer, maximum: 100, oldName: size}}}`,
			}, storedAt: 0, at: 1, pointer: "/replicas",
			want: map[string]any{"maximum": json.Number("10")}},
		{name: "a looser bound of its own gives way, a tighter one stays",
			versions: []string{
				`{type: object, properties: {n: {type: integer, maximum: 100, minimum: 5}}}`,
				`{type: object, properties: {n: {type: integer, maximum: 50, minimum: 1}}}`,
			}, storedAt: -1, pointer: "/n",
			want: map[string]any{"maximum": json.Number("50"), "minimum": json.Number("5")}},
		{name: "an exclusive bound at the same number",
			versions: []string{
				`{type: object, properties: {n: {type: number, maximum: 1}}}`,
				`{type: object, properties: {n: {type: number, exclusiveMaximum: 1}}}`,
			}, storedAt: -1, pointer: "/n",
			want: map[string]any{"maximum": json.Number("1"), "exclusiveMaximum": true}},
		{name: "enums meet",
			versions: []string{
				`{type: object, properties: {tier: {type: string, enum: [free, pro, team]}}}`,
				`{type: object, properties: {tier: {type: string, enum: [pro, team, enterprise]}}}`,
			}, storedAt: -1, pointer: "/tier",
			want: map[string]any{"enum": []any{"pro", "team"}}},
		{name: "another type is left alone",
			versions: []string{
				`{type: object, properties: {cpu: {type: string}}}`,
				`{type: object, properties: {cpu: {type: integer, maximum: 64}}}`,
			}, storedAt: -1, pointer: "/cpu",
			want: map[string]any{"maximum": nil}},
		{name: "a default the stored bound refuses keeps the version's own",
			versions: []string{
				`{type: object, properties: {n: {type: integer, default: 100}}}`,
				`{type: object, properties: {n: {type: integer, maximum: 50, default: 10}}}`,
			}, storedAt: -1, pointer: "/n",
			want: map[string]any{"maximum": nil}},
		{name: "a field the stored version does not have",
			versions: []string{
				`{type: object, properties: {legacy: {type: integer}, n: {type: integer}}}`,
				`{type: object, properties: {n: {type: integer, maximum: 3}}}`,
			}, storedAt: -1, pointer: "/legacy",
			want: map[string]any{"maximum": nil}},
		{name: "nested objects map key by key",
			versions: []string{
				`{type: object, properties: {backup: {type: object, properties: {keep: {type: integer}}}}}`,
				`{type: object, properties: {backup: {type: object, properties: {retain: {type: integer, minimum: 1, oldName: keep}}}}}`,
			}, storedAt: -1, pointer: "/backup/keep",
			want: map[string]any{"minimum": json.Number("1")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var versions []CRDVersion
			var fields []map[string]any
			stored := tc.storedAt
			if stored < 0 {
				stored = len(tc.versions) - 1
			}
			for i, doc := range tc.versions {
				s, err := schema.Parse([]byte(doc))
				require.NoError(t, err)
				f, err := CRDSchema(s)
				require.NoError(t, err)
				versions = append(versions, CRDVersion{Name: "v" + string(rune('1'+i)), Schema: s, Served: true, Storage: i == stored})
				fields = append(fields, f)
			}
			storedBounds(versions, fields)
			n := generatedNode(fields[tc.at], tc.pointer)
			require.NotNil(t, n, "no node at %s", tc.pointer)
			for k, want := range tc.want {
				if want == nil {
					assert.NotContains(t, n, k)
					continue
				}
				assert.Equal(t, want, n[k], k)
			}
			// The stored version's own schema never changes.
			again, err := CRDSchema(versions[stored].Schema)
			require.NoError(t, err)
			assert.Equal(t, again, fields[stored])
		})
	}
}

// TestStoredBoundsOnText: a flat string field that the stored version
// holds as an integer gets a rule refusing integer text outside the
// stored range (what conversion would store as that integer), and
// leaves any other text to the webhook; the CRD stays one the apiserver
// accepts.
func TestStoredBoundsOnText(t *testing.T) {
	old, err := schema.Parse([]byte(`{type: object, properties: {cpu: {type: string}, name: {type: string}}}`))
	require.NoError(t, err)
	stored, err := schema.Parse([]byte(`{type: object, properties: {cpu: {type: integer, minimum: 1, maximum: 64}, name: {type: string}}}`))
	require.NoError(t, err)
	versions := []CRDVersion{{Name: "v1alpha1", Schema: old, Served: true}, {Name: "v1beta1", Schema: stored, Served: true, Storage: true}}
	var fields []map[string]any
	for _, v := range versions {
		f, err := CRDSchema(v.Schema)
		require.NoError(t, err)
		fields = append(fields, f)
	}
	storedBounds(versions, fields)
	cpu := generatedNode(fields[0], "/cpu")
	require.Contains(t, cpu, "x-kubernetes-validations")
	assert.NotContains(t, generatedNode(fields[0], "/name"), "x-kubernetes-validations")
	require.NoError(t, checkStructural(wrapField(fields[0], "/spec/parameters"), "/properties/spec/properties/parameters"))

	judged, err := schema.FromValue(fields[0], schema.Kubernetes())
	require.NoError(t, err)
	for _, tc := range []struct {
		cpu     string
		refused bool
	}{
		{"64", false}, {"1", false}, {"65", true}, {"0", true}, {"-3", true},
		{"99999999999999999999", true},                 // beyond int64: conversion keeps it as text, which v1beta1 refuses
		{"abc", false}, {"065", false}, {" 65", false}, // not plain integer text: the webhook's to judge
	} {
		err := judged.Validate(map[string]any{"cpu": tc.cpu})
		assert.Equal(t, tc.refused, err != nil, "cpu %q: %v", tc.cpu, err)
	}
}
