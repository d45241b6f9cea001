package kube

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/go-openapi/jsonpointer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
)

// diffEveryKey is diffPatch as it was first written: every key of both
// objects sorted and walked. diffPatch must build the same operations
// in the same order.
func diffEveryKey(path string, from, to any, ops *[]any) {
	fm, fok := from.(map[string]any)
	tm, tok := to.(map[string]any)
	if fok && tok {
		fkeys, tkeys := slices.Sorted(maps.Keys(fm)), slices.Sorted(maps.Keys(tm))
		for _, k := range fkeys {
			if _, ok := tm[k]; !ok {
				*ops = append(*ops, map[string]any{"op": "remove", "path": path + "/" + jsonpointer.Escape(k)})
			}
		}
		for _, k := range fkeys {
			tv, ok := tm[k]
			switch {
			case !ok:
			case k == "":
				if !params.Identical(fm[k], tv) {
					*ops = append(*ops, map[string]any{"op": "replace", "path": path + "/", "value": tv})
				}
			default:
				diffEveryKey(path+"/"+jsonpointer.Escape(k), fm[k], tv, ops)
			}
		}
		for _, k := range tkeys {
			if _, ok := fm[k]; !ok {
				*ops = append(*ops, map[string]any{"op": "add", "path": path + "/" + jsonpointer.Escape(k), "value": tm[k]})
			}
		}
		return
	}
	fa, fok := from.([]any)
	ta, tok := to.([]any)
	if fok && tok && len(fa) == len(ta) {
		for i := range fa {
			diffEveryKey(path+"/"+strconv.Itoa(i), fa[i], ta[i], ops)
		}
		return
	}
	if !params.Identical(from, to) {
		*ops = append(*ops, map[string]any{"op": "replace", "path": path, "value": to})
	}
}

// patchSize counts what diffPatch builds: the same operations, the same
// jsonSize in total. JSONPatch chooses between the two patches by it.
func TestPatchSizeIsWhatDiffPatchBuilds(t *testing.T) {
	for _, c := range [][2]string{
		{`{}`, `{}`},
		{`{"a":1}`, `{"a":2}`},
		{`{"a":1,"b":2}`, `{"c":3}`},
		{`{"a/b":{"~":1}}`, `{"a/b":{"~":2,"":3}}`},
		{`{"":{"x":1}}`, `{"":{"x":2}}`},
		{`{"l":[1,2,3,4,5,6,7,8,9,10,11]}`, `{"l":[1,2,3,4,5,6,7,8,9,10,12]}`},
		{`{"l":[1,2]}`, `{"l":[1]}`},
		{`{"s":"é\"x"}`, `{"s":null,"t":true,"u":false,"v":[],"w":{}}`},
		{`{"a":{"x":1},"b":[1],"c":[1,2],"d":{},"e":1,"f":"s","g":[]}`, `{"a":[1],"b":[2],"c":[1],"d":{},"e":"1","f":"s","g":{}}`},
		{`{"z":1,"y":{"b":1,"a":2},"x":3,"w":[{"k":1}]}`, `{"z":2,"y":{"a":3,"c":4},"v":5,"w":[{"k":2,"j":0}]}`},
	} {
		checkPatchSize(t, c[0], c[1])
	}
}

func FuzzPatchSize(f *testing.F) {
	f.Add([]byte(`{"a":{"b":[1,2]},"c":3}`), []byte(`{"a":{"b":[1,2,3]},"d":"x"}`))
	f.Add([]byte(`{"":{"x":1},"~/":2}`), []byte(`{"":{"x":2},"~/":3}`))
	f.Fuzz(func(t *testing.T, from, to []byte) {
		if _, err := params.Decode(nil, from); err != nil {
			return
		}
		if _, err := params.Decode(nil, to); err != nil {
			return
		}
		checkPatchSize(t, string(from), string(to))
	})
}

func checkPatchSize(t *testing.T, from, to string) {
	t.Helper()
	fv, err := params.Decode(nil, []byte(from))
	require.NoError(t, err)
	tv, err := params.Decode(nil, []byte(to))
	require.NoError(t, err)
	const base = "/spec/parameters"
	var ops []any
	diffPatch(base, fv, tv, &ops)
	var ref []any
	diffEveryKey(base, fv, tv, &ref)
	require.Equal(t, ref, ops, "%s → %s: the operations, in the order of a walk of every key", from, to)
	want := 0
	for _, op := range ops {
		want += jsonSize(op)
	}
	d := patchSize{limit: math.MaxInt}
	d.diff(len(base), fv, tv)
	assert.Equal(t, len(ops), d.ops, "%s → %s", from, to)
	assert.Equal(t, want, d.size, "%s → %s", from, to)
	assert.Equal(t, jsonSize(map[string]any{"op": "replace", "path": base, "value": tv}), replaceSize(len(base), tv))

	// JSONPatch: the single replace where it is no longer than the
	// operations (and there are two or more of them), else the operations.
	got := JSONPatch(base, fv, tv)
	if len(ops) >= 2 && replaceSize(len(base), tv) <= want {
		require.Len(t, got, 1, "%s → %s", from, to)
		assert.Equal(t, "replace", got[0].(map[string]any)["op"])
		assert.Equal(t, base, got[0].(map[string]any)["path"])
	} else {
		assert.Equal(t, ops, got, "%s → %s", from, to)
	}
}
