package migrate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/value"
)

// Three versions: v1 flat, v2 renamed (with a legacy object), v3 nested.
const (
	chainV2 = `
properties:
  clusterName: {type: string, oldName: CLUSTER_NAME}
  speed: {type: integer, oldName: SPEED}
  code: {oldName: CODE}
  typed: {type: integer, oldName: TYPED}
  legacy:
    type: object
    oldName: /OLD
    properties:
      x: {type: string}`
	chainV3 = `
properties:
  cluster:
    properties:
      name: {type: string, oldName: /clusterName}
  perf:
    properties:
      speed: {type: integer, oldName: /speed}
  code: {type: string}
  typed: {type: string}`
)

func chainMigration(t *testing.T, opts ...Option) *Migration {
	m, err := New(mustSchema(t, chainV3), append([]Option{ThroughVersions(mustSchema(t, chainV2))}, opts...)...)
	require.NoError(t, err)
	return m
}

func TestChainTracesDroppedValuesBackToTheInput(t *testing.T) {
	m := chainMigration(t)
	r := got(m.MigrateDocument([]byte("CLUSTER_NAME: prod\nOLD:\n  x: a\n  y: b\nGONE: 1\n")))
	require.True(t, r.OK(), "%v", r.Errors)
	require.Equal(t, map[string]any{"cluster": map[string]any{"name": "prod"}}, r.Values)
	// GONE is dropped by the first step, OLD/y by the first step (v2's
	// legacy has no y), what is left of OLD (legacy in v2) by the second
	// (v3 has no legacy): all by their pointer in the input.
	require.Equal(t, []Dropped{
		{Pointer: "/GONE", Value: json.Number("1")},
		{Pointer: "/OLD", Value: map[string]any{"x": "a"}},
		{Pointer: "/OLD/y", Value: "b"},
	}, r.Dropped)
}

func TestChainTracesLossyChangesToTheOutput(t *testing.T) {
	m := chainMigration(t)
	// Refused by the first step and met again by the second: reported once.
	r := got(m.MigrateDocument([]byte("SPEED: 2.5\n")))
	require.Equal(t, []Lossy{{Pointer: "/perf/speed", From: json.Number("2.5"), To: json.Number("2"), Refused: true}}, r.Lossy)
	require.Len(t, r.Errors, 1)
	require.Equal(t, "/perf/speed", r.Errors[0].Pointer)
	require.True(t, strings.Contains(r.Errors[0].Message, "refused"))

	r = got(chainMigration(t, AllowLossy()).MigrateDocument([]byte("SPEED: 2.5\n")))
	require.True(t, r.OK(), "%v", r.Errors)
	require.Equal(t, map[string]any{"perf": map[string]any{"speed": json.Number("2")}}, r.Values)
}

// TestTextIsTypedWhereItIsPlaced: text that passes through a version
// whose node says nothing stays text until the final node types it; text
// typed by an intermediate node keeps that type and changes from there.
func TestTextIsTypedWhereItIsPlaced(t *testing.T) {
	m := chainMigration(t)
	r := got(m.MigrateDocument([]byte("CODE: 007\nTYPED: 007\n")))
	require.True(t, r.OK(), "%v", r.Errors)
	require.Equal(t, map[string]any{"code": "007", "typed": "7"}, r.Values)
}

// TestHooksRunAfterTheGeneratedStep: the storage-versioning document's
// AssignableTo/AssignableFrom: a hand-written step splits a name on the
// way up and joins it on the way down, after the generated conversion,
// and a lossless round trip stays the identity.
func TestHooksRunAfterTheGeneratedStep(t *testing.T) {
	old := mustSchema(t, `
properties:
  owner: {type: string}
  size: {type: integer}`)
	new := mustSchema(t, `
properties:
  owner:
    type: object
    properties:
      first: {type: string}
      last: {type: string}
  replicas: {type: integer, oldName: size}`)
	var sawUp, sawDown []any
	up := func(from, to any) (any, error) {
		sawUp = []any{value.DeepCopy(from), value.DeepCopy(to)}
		if s, ok := from.(map[string]any)["owner"].(string); ok {
			first, last, _ := strings.Cut(s, " ")
			to.(map[string]any)["owner"] = map[string]any{"first": first, "last": last}
		}
		return to, nil
	}
	down := func(from, to any) (any, error) {
		sawDown = []any{value.DeepCopy(from), value.DeepCopy(to)}
		if o, ok := from.(map[string]any)["owner"].(map[string]any); ok {
			first, _ := o["first"].(string)
			last, _ := o["last"].(string)
			to.(map[string]any)["owner"] = first + " " + last
		}
		return to, nil
	}
	m, err := New(new, FromVersion(old), Lossless(), StepHooks(0, up, down))
	require.NoError(t, err)
	in := map[string]any{"owner": "Ada Lovelace", "size": json.Number("3")}
	r := got(m.Migrate(in))
	require.True(t, r.OK(), "%v", r.Errors)
	require.Equal(t, map[string]any{"owner": map[string]any{"first": "Ada", "last": "Lovelace"}, "replicas": json.Number("3")}, r.Values)
	// The hook saw the old values and the generated new ones (the owner
	// string does not fit the object node: in lossless mode the generated
	// step leaves it out).
	require.Equal(t, in, sawUp[0])
	require.Equal(t, map[string]any{"replicas": json.Number("3")}, sawUp[1])
	d := got(m.Down(r.Values))
	require.True(t, d.OK(), "%v", d.Errors)
	require.Equal(t, in, d.Values)
	require.Equal(t, r.Values, sawDown[0])
	require.Equal(t, map[string]any{"size": json.Number("3")}, sawDown[1])
}
