package migrate

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

func objectGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	assert.Equal(t, string(want), string(got))
}

func readHosts(t testing.TB, s *VersionSet, version, path string) []any {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	v, _ := s.Version(version)
	var out []any
	for _, doc := range document.Texts(data) {
		x, err := params.Decode(v.Schema, doc)
		require.NoError(t, err)
		out = append(out, x)
	}
	return out
}

// TestBareMetalHostRewrite is the v1alpha2 document's start-up rewrite
// end to end: metal3.io/v1alpha1 hosts become hardware.metal3.io/v1alpha2
// hosts, the clock speed truncated to an integer (lossy, allowed, reported
// with old and new values), the hardware profile dropped and reported,
// server-set metadata removed, nothing else changed.
func TestBareMetalHostRewrite(t *testing.T) {
	s, err := LoadVersionSet(os.DirFS("testdata/bmh/set"))
	require.NoError(t, err)
	hosts := readHosts(t, s, "v1alpha1", "testdata/bmh/hosts-v1alpha1.yaml")
	const target = "hardware.metal3.io/v1alpha2"

	// Without permission the lossy change is refused, with a report.
	// The error names each failing object by its index in the input.
	_, rs, err := s.RewriteObjects(hosts, "v1alpha1", "v1alpha2", target, "")
	require.Error(t, err)
	require.Len(t, rs, len(hosts))
	for _, e := range schema.ErrorsOf(err) {
		assert.True(t, strings.HasPrefix(e.Pointer, "/0/"), "2400.0 to 2400 loses nothing: only host 0 fails, not %s", e.Pointer)
	}
	assert.NotEmpty(t, rs[0].Lossy, "a failed object still has its report")

	out, rs, err := s.RewriteObjects(hosts, "v1alpha1", "v1alpha2", target, "", AllowLossy())
	require.NoError(t, err)
	v2, _ := s.Version("v1alpha2")
	var docs, report bytes.Buffer
	for i, o := range out {
		if i > 0 {
			docs.WriteString("---\n")
		}
		y, err := params.MarshalYAML(v2.Schema, o)
		require.NoError(t, err)
		docs.Write(y)
		for _, d := range rs[i].Dropped {
			fmt.Fprintf(&report, "doc %d: %s: dropped %s\n", i, d.Pointer, encode.JSON(d.Value, nil, ""))
		}
		for _, l := range rs[i].Lossy {
			fmt.Fprintf(&report, "doc %d: %s: lossy %s -> %s\n", i, l.Pointer, encode.JSON(l.From, nil, ""), encode.JSON(l.To, nil, ""))
		}
	}
	objectGolden(t, filepath.Join("testdata/bmh", "hosts-v1alpha2.golden.yaml"), docs.Bytes())
	objectGolden(t, filepath.Join("testdata/bmh", "hosts-v1alpha2.report.golden.txt"), report.Bytes())

	// Nothing else changed: the input is untouched and each output differs
	// from its input only where the report, apiVersion and metadata say.
	again := readHosts(t, s, "v1alpha1", "testdata/bmh/hosts-v1alpha1.yaml")
	assert.True(t, identical(again, hosts), "RewriteObjects modified its input")
	m := out[0].(map[string]any)
	assert.Equal(t, "BareMetalHost", m["kind"])
	assert.NotContains(t, m["metadata"], "uid")
	assert.NotContains(t, m["metadata"], "managedFields")
	assert.Contains(t, m["metadata"], "ownerReferences")

	// Upgrade only: the reverse is refused as a whole.
	_, _, err = s.RewriteObjects(out, "v1alpha2", "v1alpha1", "metal3.io/v1alpha1", "")
	require.ErrorContains(t, err, "upgrade-only")
}

func TestConvertObjectErrors(t *testing.T) {
	s, err := LoadVersionSet(os.DirFS("testdata/bmh/set"))
	require.NoError(t, err)
	_, err = conv(s.ConvertObject(map[string]any{}, "v1alpha1", "v1alpha2", ObjectTarget{APIVersion: "a/b/c"}))
	require.ErrorContains(t, err, "not an apiVersion")
	r, err := conv(s.ConvertObject([]any{}, "v1alpha1", "v1alpha2", ObjectTarget{APIVersion: "x/v1"}))
	require.NoError(t, err)
	require.False(t, r.OK())
	r, err = conv(s.ConvertObject(map[string]any{"metadata": "x"}, "v1alpha1", "v1alpha2", ObjectTarget{APIVersion: "x/v1", Kind: "Host"}))
	require.NoError(t, err)
	require.Len(t, r.Errors, 1)
	assert.Equal(t, "/metadata", r.Errors[0].Pointer)
	r, err = conv(s.ConvertObject(map[string]any{}, "v1alpha1", "v1alpha2", ObjectTarget{APIVersion: "x/v1"}))
	require.NoError(t, err)
	assert.Equal(t, "/kind", r.Errors[0].Pointer)
	r, err = conv(s.ConvertObject(map[string]any{"kind": "A"}, "v1alpha1", "v1alpha2", ObjectTarget{APIVersion: "x/v1", Kind: "Host"}))
	require.NoError(t, err)
	assert.True(t, r.OK())
	assert.Equal(t, "Host", r.Values.(map[string]any)["kind"])
}

// BenchmarkConvertObjectsOldestToHub converts 10,000 BareMetalHosts from
// v1alpha1 to the hub v1alpha2, and 10,000 value documents of the
// three-version set from v1 to its hub v2 (with the property bag).
func BenchmarkConvertObjectsOldestToHub(b *testing.B) {
	b.Run("bmh-10000", func(b *testing.B) {
		s, err := LoadVersionSet(os.DirFS("testdata/bmh/set"))
		require.NoError(b, err)
		hosts := readHosts(b, s, "v1alpha1", "testdata/bmh/hosts-v1alpha1.yaml")
		objs := make([]any, 10000)
		for i := range objs {
			objs[i] = hosts[i%len(hosts)]
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			_, _, err := s.RewriteObjects(objs, "v1alpha1", "v1alpha2", "hardware.metal3.io/v1alpha2", "", AllowLossy())
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("three-v1-v2-10000", func(b *testing.B) {
		s := loadThree(b)
		v, _ := s.Version("v1")
		rnd := newTestRand(7)
		vals := make([]any, 10000)
		for i := range vals {
			x, err := randomValue(v.Schema, rnd)
			require.NoError(b, err)
			vals[i] = x
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for _, x := range vals {
				if _, err := conv(s.Convert(x, "v1", "v2", AllowLossy())); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
