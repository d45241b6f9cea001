//go:build helm

package helm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStrvalsIsHelms: internal/helmvalues/strvals is Helm's pkg/strvals
// of the version in go.mod, byte for byte but for the note naming where
// it comes from (refresh it with its update.sh).
func TestStrvalsIsHelms(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "helm.sh/helm/v4").Output()
	require.NoError(t, err)
	helmDir := filepath.Join(strings.TrimSpace(string(out)), "pkg", "strvals")
	for _, f := range []string{"parser.go", "literal_parser.go", "doc.go", "parser_test.go", "literal_parser_test.go"} {
		want, err := os.ReadFile(filepath.Join(helmDir, f))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join("../../internal/helmvalues/strvals", f))
		require.NoError(t, err)
		note := strings.Index(string(got), "// Copied unchanged from helm.sh/helm/v4@")
		end := strings.Index(string(got), "package strvals")
		require.True(t, note >= 0 && end > note, "%s carries the note", f)
		assert.Equal(t, string(want), string(got[:note])+string(got[end:]), f)
	}
}
