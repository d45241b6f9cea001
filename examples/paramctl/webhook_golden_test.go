package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGolden speaks the wire JSON to the server over HTTPS on loopback:
// each testdata/webhook/golden/ENDPOINT-CASE.request.json is posted to /ENDPOINT
// and the response must equal CASE.response.json. An admission patch is
// also written out decoded (CASE.patch.json) and applied to the request's
// object, whose result is CASE.patched.json, so that reviewers read what
// the patch does rather than base64.
func TestGolden(t *testing.T) {
	ts := startServer(t, testHandler(t, nil), nil)
	files, err := filepath.Glob("testdata/webhook/golden/*.request.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".request.json")
		endpoint := "/" + strings.SplitN(name, "-", 2)[0]
		t.Run(name, func(t *testing.T) {
			req, err := os.ReadFile(f)
			require.NoError(t, err)
			code, body := ts.post(t, endpoint+"?timeout=30s", req)
			require.Equal(t, 200, code, string(body))
			goldenBytes(t, strings.TrimSuffix(f, ".request.json")+".response.json", indentJSON(t, body))

			var in struct {
				Request struct {
					UID    string          `json:"uid"`
					Object json.RawMessage `json:"object"`
				} `json:"request"`
			}
			require.NoError(t, json.Unmarshal(req, &in))
			var out struct {
				Response struct {
					UID   string `json:"uid"`
					Patch []byte `json:"patch"`
				} `json:"response"`
			}
			require.NoError(t, json.Unmarshal(body, &out))
			assert.Equal(t, in.Request.UID, out.Response.UID, "the response echoes the request uid")
			if len(out.Response.Patch) > 0 {
				goldenBytes(t, strings.TrimSuffix(f, ".request.json")+".patch.json", indentJSON(t, out.Response.Patch))
				p, err := jsonpatch.DecodePatch(out.Response.Patch)
				require.NoError(t, err)
				patched, err := p.Apply(in.Request.Object)
				require.NoError(t, err, "the patch applies to the request's object")
				goldenBytes(t, strings.TrimSuffix(f, ".request.json")+".patched.json", indentJSON(t, patched))
			}
		})
	}
}

func indentJSON(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, json.Indent(&buf, bytes.TrimSpace(b), "", "  "))
	buf.WriteByte('\n')
	return buf.Bytes()
}

func goldenBytes(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test -update")
	assert.Equal(t, string(want), string(got), path)
}
