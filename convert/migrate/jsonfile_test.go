package migrate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadVersionSetJSONIsJSON: a version's NAME.json is read as JSON
// only, as every reader of a .json schema file takes it.
func TestLoadVersionSetJSONIsJSON(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "v1.yaml"), []byte("type: object\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "v2.json"), []byte("{\"type\": \"object\",}"), 0o644))
	_, err := LoadVersionSet(os.DirFS(dir))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "v2.json: line 1: a trailing comma before '}' is not JSON")
}
