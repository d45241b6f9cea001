package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValidateVersionsHint: with --versions, a document written for an
// older version of the set is still invalid (exit 1), and a hint says
// which version it is and how to upgrade it (issue 37).
func TestValidateVersionsHint(t *testing.T) {
	dir := t.TempDir()
	set := filepath.Join(dir, "set")
	require.NoError(t, os.Mkdir(set, 0o755))
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	write("set/v1.yaml", "type: object\nadditionalProperties: false\nproperties:\n  name: {type: string}\n  replicas: {type: integer}\n")
	v2 := write("set/v2.yaml", "type: object\nadditionalProperties: false\nproperties:\n  name: {type: string}\n  replicaCount: {type: integer, oldName: replicas}\n")
	old := write("old.yaml", "# staging\nname: a\nreplicas: 3\n")
	current := write("current.yaml", "name: a\nreplicaCount: 3\n")
	neither := write("neither.json", `{"name": 1}`)

	code, out, errs := updRun(t, "", "validate", "--schema", v2, "--versions", set, old)
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Equal(t, `/replicas: not allowed here: "replicas" (the schema does not declare it)`+"\n"+
		"hint: this document is v1 of "+set+" (valid against it, not against --schema): upgrade it with paramctl migrate --versions "+set+" --from v1 --to v2\n", errs)

	code, out, _ = updRun(t, "", "validate", "--schema", v2, "--versions", set, "-o", "json", old)
	assert.Equal(t, 1, code)
	var verdicts []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &verdicts))
	require.Len(t, verdicts, 1)
	assert.Equal(t, []any{"v1"}, verdicts[0]["fits"])

	code, out, errs = updRun(t, "", "validate", "--schema", v2, "--versions", set, current, neither)
	assert.Equal(t, 1, code)
	assert.Equal(t, current+": valid\n", out)
	assert.NotContains(t, errs, "hint", "no hint for a document that fits no version")

	code, _, errs = updRun(t, "", "validate", "--schema", v2, "--versions", filepath.Join(dir, "missing"), old)
	assert.Equal(t, 2, code, errs)

	// Without --versions, the output is as it was.
	code, _, errs = updRun(t, "", "validate", "--schema", v2, old)
	assert.Equal(t, 1, code)
	assert.NotContains(t, errs, "hint")
}
