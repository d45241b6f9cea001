package migrate

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

func nestedLossless(t *testing.T) *Migration {
	old, new := loadPair(t, "testdata/migrate/pairs/nested")
	m, err := New(new, FromVersion(old), Lossless())
	require.NoError(t, err)
	return m
}

func TestBagKeepsWhatTheOldVersionCannotHold(t *testing.T) {
	m := nestedLossless(t)
	x := map[string]any{"cluster": map[string]any{"name": "prod"}, "tolerations": []any{"gpu"}}
	d := got(m.Down(x))
	require.True(t, d.OK(), "%v", d.Errors)
	dm := d.Values.(map[string]any)
	require.Contains(t, dm, bagKey)
	require.Equal(t, map[string]any{"clusterName": "prod"}, dm["cluster"])
	require.Equal(t, []Dropped{{Pointer: "/tolerations", Value: []any{"gpu"}}}, d.Dropped)
	u := got(m.Migrate(d.Values))
	require.True(t, u.OK(), "%v", u.Errors)
	require.Equal(t, x, u.Values, "the bag is popped and applied; nothing is left of it")
}

// TestChangesMadeMeanwhileWinOverTheBag: a value the old version holds and
// a client changed there comes back changed; what the old version cannot
// hold comes back from the bag.
func TestChangesMadeMeanwhileWinOverTheBag(t *testing.T) {
	old, new := loadPair(t, "testdata/migrate/pairs/types")
	m, err := New(new, FromVersion(old), Lossless())
	require.NoError(t, err)
	// ratio 7 is an integer in the new version; down it is 7 too. timeout
	// "soon" cannot be a number in the old version: the bag keeps it.
	x := map[string]any{"ratio": json.Number("7"), "timeout": "soon", "port": "yes"}
	d := got(m.Down(x))
	dm := d.Values.(map[string]any)
	require.NotContains(t, dm, "timeout")
	require.NotContains(t, dm, "port", "a value that does not fit is left out in lossless mode")
	require.Equal(t, json.Number("7"), dm["ratio"])
	dm["ratio"] = json.Number("8")
	u := got(m.Migrate(dm))
	require.Equal(t, map[string]any{"ratio": json.Number("8"), "timeout": "soon", "port": "yes"}, u.Values)

	// A value that went down lossy (2.5 is not an integer... the other way
	// round: old 2.5 to new integer 2) comes back exactly unless changed.
	y := map[string]any{"ratio": json.Number("2.5")}
	up := got(m.Migrate(y))
	require.Equal(t, json.Number("2"), up.Values.(map[string]any)["ratio"])
	require.Len(t, up.Lossy, 1)
	require.False(t, up.Lossy[0].Refused, "lossless mode allows lossy changes: the bag keeps the original")
	require.Equal(t, y, got(m.Down(up.Values)).Values)
	changed := up.Values.(map[string]any)
	changed["ratio"] = json.Number("3")
	require.Equal(t, map[string]any{"ratio": json.Number("3")}, got(m.Down(changed)).Values)
}

// TestBagSurvivesYAML: the bag is plain values and comes back through the
// YAML writer and reader exactly.
func TestBagSurvivesYAML(t *testing.T) {
	m := nestedLossless(t)
	x := map[string]any{"zone": "007", "tolerations": []any{"yes", json.Number("1.10"), nil, true}, "logging": map[string]any{}}
	d := got(m.Down(x))
	text, err := params.MarshalYAML(m.steps[0].from, d.Values)
	require.NoError(t, err)
	back, err := params.Decode(m.steps[0].from, text)
	require.NoError(t, err)
	require.True(t, identical(d.Values, back), "%s", text)
	require.True(t, identical(x, got(m.Migrate(back)).Values))
}

func TestMalformedBag(t *testing.T) {
	m := nestedLossless(t)
	for _, bag := range []any{"x", []any{"x"}, []any{map[string]any{"step": "s"}},
		[]any{map[string]any{"step": "s", "dir": "up"}},
		[]any{map[string]any{"step": "s", "dir": "up", "patch": []any{map[string]any{"pointer": "nope"}}}}} {
		r := got(m.Migrate(map[string]any{bagKey: bag}))
		require.NotEmpty(t, r.Errors)
		require.Equal(t, "/"+bagKey, r.Errors[0].Pointer)
		require.True(t, strings.HasPrefix(r.Errors[0].Message, "malformed property bag"), r.Errors[0].Message)
	}
}

func TestBagNeedsAnObject(t *testing.T) {
	old := mustSchema(t, `type: array`)
	new := mustSchema(t, `type: string`)
	m, err := New(new, FromVersion(old), Lossless())
	require.NoError(t, err)
	r := got(m.Migrate([]any{"x"}))
	require.NotEmpty(t, r.Errors)
	require.Contains(t, r.Errors[0].Message, "property bag cannot be kept")
}

// TestHubAndSpokes: versions 0.1, 0.2 and 0.3 with 0.3 the hub. Values of
// 0.1 go to the hub, from there to 0.2, back to the hub and back to 0.1,
// and come out as they went in: each step pops only its own layer.
func TestHubAndSpokes(t *testing.T) {
	v1, v2 := loadPair(t, "testdata/migrate/pairs/chain-1-2")
	_, v3 := loadPair(t, "testdata/migrate/pairs/chain-2-3")
	from1, err := New(v3, FromVersion(v1), ThroughVersions(v2), Lossless())
	require.NoError(t, err)
	from2, err := New(v3, FromVersion(v2), Lossless())
	require.NoError(t, err)
	rnd := newTestRand(3)
	for i := 0; i < roundTrips()/2; i++ {
		x, err := randomValue(v1, rnd)
		require.NoError(t, err)
		x.(map[string]any)["UNKNOWN"] = "kept" // 0.1 values 0.2 and 0.3 cannot hold
		hub := got(from1.Migrate(x))
		at2 := got(from2.Down(hub.Values))
		hub2 := got(from2.Migrate(at2.Values))
		require.True(t, identical(hub.Values, hub2.Values), "hub %s\nhub again %s", show(hub.Values), show(hub2.Values))
		back := got(from1.Down(hub2.Values))
		require.True(t, identical(x, back.Values), "in %s\nout %s", show(x), show(back.Values))
	}
}

func TestHookErrors(t *testing.T) {
	s := mustSchema(t, `properties: {a: {type: string}}`)
	m, err := New(s, StepHooks(0, func(from, to any) (any, error) {
		return nil, errors.New("boom")
	}, nil))
	require.NoError(t, err)
	r := got(m.Migrate(map[string]any{"a": "x"}))
	require.Len(t, r.Errors, 1)
	require.Equal(t, `"": hook: boom`, r.Errors[0].Error())
	require.Equal(t, map[string]any{"a": "x"}, r.Values, "a failing hook leaves the generated values")

	m, err = New(s, StepHooks(0, func(from, to any) (any, error) {
		return nil, &schema.Error{Pointer: "/a", Message: "not allowed"}
	}, nil))
	require.NoError(t, err)
	r = got(m.Migrate(map[string]any{"a": "x"}))
	require.Equal(t, "/a: not allowed", r.Errors[0].Error())
}
