package convert

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
)

// The golden files are rewritten with `go test ./convert -update`. The
// flag is registered only if no other test file of the package did.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files under testdata")
	}
}

func updatingGolden() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// golden compares got with testdata/<name>, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if updatingGolden() {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden file missing: run go test ./convert -update")
	require.Equal(t, string(want), string(got), "output differs from %s (go test ./convert -update rewrites it)", path)
}

func testdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return data
}

// plainDoc decodes YAML or JSON into plain values by YAML 1.2 core rules.
func plainDoc(t *testing.T, data []byte) any {
	t.Helper()
	v, err := params.Decode(nil, data)
	require.NoError(t, err)
	return v
}
