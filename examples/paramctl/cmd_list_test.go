package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const listSchema = "testdata/list/schema.yaml"

func TestListGolden(t *testing.T) {
	for _, format := range []string{"table", "markdown", "json"} {
		t.Run(format, func(t *testing.T) {
			code, out, errs := paramctl(t, "", "list", "--schema", listSchema, "-o", format)
			require.Equal(t, 0, code, errs)
			ext := map[string]string{"table": "txt", "markdown": "md", "json": "json"}[format]
			golden(t, "testdata/list/schema."+ext, out)
		})
	}
}

func TestListRows(t *testing.T) {
	code, out, _ := paramctl(t, "", "list", "--schema", listSchema, "-o", "json")
	require.Equal(t, 0, code)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	byPtr := map[string]map[string]any{}
	var order []string
	for _, r := range rows {
		p := r["pointer"].(string)
		byPtr[p] = r
		order = append(order, p)
	}
	// Schema order, parents before children.
	assert.Equal(t, []string{
		"/clusterName", "/nodeCount", "/topology", "/topology/*", "/topology/*/datacenterName", "/topology/*/labels",
		"/topology/*/labels/*", "/topology/*/labels/*/key", "/topology/*/labels/*/value",
		"/zones", "/extraLabels", "/racks", "/racks/*", "/racks/*/size",
		"/backup", "/backup/enabled", "/backup/bucket", "/storage", "/storage/size", "/storage/class",
		"/legacyMode", "/tree", "/tree/name", "/tree/children", "/tree/children/*",
	}, order)
	for _, r := range rows {
		for _, k := range []string{"pointer", "name", "depth", "type", "default", "required", "trigger", "ownTrigger", "immutable", "description"} {
			assert.Contains(t, r, k, r["pointer"])
		}
	}
	assert.Equal(t, "scale", byPtr["/nodeCount"]["trigger"])
	assert.Equal(t, "scale", byPtr["/nodeCount"]["ownTrigger"])
	assert.Equal(t, "deploy", byPtr["/zones"]["trigger"], "no trigger anywhere: deploy")
	assert.Nil(t, byPtr["/zones"]["ownTrigger"], "inherited: null, as triggers -o json writes it")
	assert.Equal(t, "backup", byPtr["/backup/enabled"]["trigger"], "inherited")
	assert.Nil(t, byPtr["/backup/enabled"]["ownTrigger"])
	assert.Equal(t, true, byPtr["/storage/size"]["immutable"], "immutability covers children")
	assert.Equal(t, false, byPtr["/nodeCount"]["immutable"])
	assert.Equal(t, true, byPtr["/clusterName"]["required"])
	assert.Equal(t, true, byPtr["/backup/enabled"]["required"], "required by the $ref target")
	assert.Equal(t, true, byPtr["/topology/*/datacenterName"]["required"])
	assert.Equal(t, float64(3), byPtr["/nodeCount"]["default"])
	assert.Contains(t, byPtr["/storage/class"], "default", "an explicit null default is listed")
	assert.Nil(t, byPtr["/storage/class"]["default"])
	assert.Contains(t, byPtr["/zones"], "default", "every row carries default")
	assert.Nil(t, byPtr["/zones"]["default"], "no default: null")
	assert.Equal(t, "array<string>", byPtr["/zones"]["type"])
	assert.Equal(t, "object<string>", byPtr["/extraLabels"]["type"])
	assert.Equal(t, "string|null", byPtr["/storage/class"]["type"])
	assert.Equal(t, float64(4), byPtr["/topology/*/labels/*/key"]["depth"])
	assert.Equal(t, true, byPtr["/legacyMode"]["deprecated"])
}

func TestListErrors(t *testing.T) {
	code, out, _ := paramctl(t, "", "list", "--schema", "-", "-o", "json")
	assert.Equal(t, 2, code, "an empty schema document is unusable")
	assert.Empty(t, out)

	code, out, _ = paramctl(t, "type: object\n", "list", "--schema", "-", "-o", "json")
	assert.Equal(t, 0, code)
	assert.Equal(t, "[]\n", out, "no parameters is an empty list")

	code, _, errs := paramctl(t, "type: int\n", "list", "--schema", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "/type")

	code, _, _ = paramctl(t, "", "list")
	assert.Equal(t, 2, code)
	code, _, _ = paramctl(t, "", "list", "--schema", listSchema, "-o", "xml")
	assert.Equal(t, 2, code)
	code, _, _ = paramctl(t, "", "list", "--schema", listSchema, "extra")
	assert.Equal(t, 2, code)
}

func TestListLargeSchema(t *testing.T) {
	code, out, errs := paramctl(t, "", "list", "--schema", "../../lint/testdata/large-values.schema.json", "-o", "json")
	require.Equal(t, 0, code, errs)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	assert.Greater(t, len(rows), 1000)
}

func TestListStopsOnExplosion(t *testing.T) {
	defer func(n int) { maxListRows = n }(maxListRows)
	maxListRows = 1000
	var b strings.Builder
	b.WriteString("type: object\nproperties:\n  top: {$ref: '#/$defs/d0'}\n$defs:\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "  d%d:\n    type: object\n    properties:\n      a: {$ref: '#/$defs/d%d'}\n      b: {$ref: '#/$defs/d%d'}\n", i, i+1, i+1)
	}
	b.WriteString("  d30: {type: string}\n")
	code, out, errs := paramctl(t, b.String(), "list", "--schema", "-", "-o", "json")
	assert.Equal(t, 0, code)
	assert.Contains(t, errs, "the list stops there")
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	assert.Len(t, rows, maxListRows)
}

// TestListTableCutsLongDefaults: one long default does not widen the
// table past the screen; JSON keeps it whole.
func TestListTableCutsLongDefaults(t *testing.T) {
	long := strings.Repeat("x", 300)
	schemaFile := filepath.Join(t.TempDir(), "s.yaml")
	require.NoError(t, os.WriteFile(schemaFile, []byte("type: object\nproperties:\n  script: {type: string, default: "+long+"}\n"), 0o644))
	code, out, errs := paramctl(t, "", "list", "--schema", schemaFile)
	require.Equal(t, 0, code, errs)
	assert.NotContains(t, out, long)
	assert.Contains(t, out, strings.Repeat("x", 37)+"…")
	code, out, _ = paramctl(t, "", "list", "--schema", schemaFile, "-o", "json")
	require.Equal(t, 0, code)
	assert.Contains(t, out, long)
}
