package migrate

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/value"
)

// versionSets are the sets the generated tests run over.
var versionSets = []string{"testdata/versions/three", "testdata/bmh/set"}

// TestVersionSetRoundTrip: for every version whose conversion to the hub
// can come back, version → hub → version gives back exactly what went in
// means, with YAML plain scalar text no node types under undeclared keys,
// over thousands of generated values (the storage versioning document's
// round-trip test), in memory and with the documents written as YAML and
// read back by ConvertDocument.
func TestVersionSetRoundTrip(t *testing.T) {
	for si, dir := range versionSets {
		s, err := LoadVersionSet(os.DirFS(dir))
		require.NoError(t, err)
		for vi, name := range s.Order() {
			if name == s.Hub() || s.Refused(s.Hub(), name) != nil {
				continue
			}
			t.Run(dir+"/"+name, func(t *testing.T) {
				v, _ := s.Version(name)
				rnd := newTestRand(uint64(si*100 + vi))
				for i := 0; i < roundTrips(); i++ {
					x, err := randomValue(v.Schema, rnd)
					require.NoError(t, err)
					x = withPlainScalars(v.Schema.Root(), x, rnd)
					in := value.DeepCopy(x)
					want := plainScalarsMeaning(in)
					up, err := conv(s.Convert(x, name, s.Hub(), AllowLossy()))
					require.NoError(t, err)
					require.True(t, up.OK(), "%s → hub: %v\nin: %s", name, up.Errors, show(in))
					back, err := conv(s.Convert(up.Values, s.Hub(), name, AllowLossy()))
					require.NoError(t, err)
					require.True(t, back.OK(), "hub → %s: %v", name, back.Errors)
					if !identical(back.Values, want) {
						require.Failf(t, "round trip through the hub changed the values", "in:  %s\nhub: %s\nout: %s",
							show(want), show(up.Values), show(back.Values))
					}
					require.True(t, identical(x, in), "Convert modified its input")
					// Through YAML, as paramctl does: the document as its
					// author wrote it, the hub's values as paramkit writes
					// them.
					up2, err := conv(s.ConvertDocument(yamlWithText(t, x), name, s.Hub(), AllowLossy()))
					require.NoError(t, err)
					require.True(t, identical(up.Values, up2.Values), "read from YAML: %s\nin memory:      %s", show(up2.Values), show(up.Values))
					back, err = conv(s.ConvertDocument(writeYAML(t, up2.Values), s.Hub(), name, AllowLossy()))
					require.NoError(t, err)
					require.True(t, back.OK(), "hub → %s through YAML: %v", name, back.Errors)
					require.True(t, identical(back.Values, want), "through YAML\nin:  %s\nout: %s", show(want), show(back.Values))
				}
			})
		}
	}
}

// TestVersionSetEveryPair: every version converts to every other through
// the hub without error, or is refused as the set says; every loss is
// reported: what the target lacks appears as dropped or lossy, never
// silently. A loss is checked by converting without the bag and looking
// for every source leaf either in the result or under a reported pointer.
func TestVersionSetEveryPair(t *testing.T) {
	for si, dir := range versionSets {
		s, err := LoadVersionSet(os.DirFS(dir))
		require.NoError(t, err)
		for fi, from := range s.Order() {
			for ti, to := range s.Order() {
				if from == to {
					continue
				}
				t.Run(dir+"/"+from+"-"+to, func(t *testing.T) {
					if s.Refused(from, to) != nil {
						_, err := conv(s.Convert(map[string]any{}, from, to))
						require.Error(t, err)
						return
					}
					v, _ := s.Version(from)
					i, j, _ := s.pair(from, to)
					rnd := newTestRand(uint64(si*10000 + fi*100 + ti))
					for n := 0; n < roundTrips()/4; n++ {
						x, err := randomValue(v.Schema, rnd)
						require.NoError(t, err)
						x = withPlainScalars(v.Schema.Root(), x, rnd)
						r := got2(s.run(x, i, j, options{allowLossy: true}, false))
						// The only error allowed is a value the target's range
						// cannot take (a clock speed beyond int32): reported,
						// with its pointer.
						for _, e := range r.Errors {
							require.Contains(t, e.Message, "out of range for format", "%s → %s: %v\nin: %s", from, to, e, show(x))
						}
						if !r.OK() {
							continue
						}
						_, hasBag := stripBagCheck(r.Values)
						require.False(t, hasBag, "no bag without keepBag")
						// The bag makes the losses come back: with it, to → from
						// restores x whenever the reverse is allowed.
						if s.refusal(j, i) == nil {
							withBag := got2(s.run(x, i, j, options{allowLossy: true}, true))
							back := got2(s.run(withBag.Values, j, i, options{allowLossy: true}, true))
							require.True(t, identical(back.Values, plainScalarsMeaning(x)), "%s → %s → %s\nin:  %s\nout: %s", from, to, from, show(x), show(back.Values))
						}
						if len(r.Dropped) == 0 && len(r.Lossy) == 0 && s.refusal(j, i) == nil {
							// Nothing reported lost: the way back without a bag
							// must give everything back.
							back := got2(s.run(r.Values, j, i, options{allowLossy: true}, false))
							// Numbers compare by value: 2593.0 to 2593 loses nothing.
							require.True(t, value.Equal(plainScalarsMeaning(back.Values), plainScalarsMeaning(x)), "a loss went unreported: %s → %s\nin:  %s\nmid: %s\nout: %s",
								from, to, show(x), show(r.Values), show(back.Values))
						}
					}
				})
			}
		}
	}
}

func stripBagCheck(v any) (any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return v, false
	}
	_, has := m[bagKey]
	return v, has
}
