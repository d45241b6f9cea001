package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// secretFiles writes the schemas and values of the secret tests.
func secretFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"schema.yaml": `type: object
properties:
  name: {type: string}
  replicas: {type: integer}
  pin: {type: integer, writeOnly: true}
  db:
    type: object
    properties:
      password: {type: string, format: password, minLength: 8}
      port: {$ref: '#/$defs/secretPort'}
$defs:
  secretPort: {type: integer, writeOnly: true}
`,
		"mid.yaml": `type: object
properties:
  name: {type: string}
  pw: {type: string, writeOnly: true}
  pin: {type: number}
`,
		"new.yaml": `type: object
properties:
  name: {type: string}
  pin: {type: integer, writeOnly: true}
`,
		"values.yaml":  "name: a\nreplicas: 1\n",
		"old.yaml":     "name: a\npw: S3cr3tXYZ\npin: 8675.309\n",
		"invalid.yaml": "pin: S3cr3tXYZ\ndb:\n  port: S3cr3tXYZ\nreplicas: visible\n",
		"v1beta1.yaml": "pin: S3cr3tXYZ\nreplicas: visible\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600))
	}
	return dir
}

// TestSecretsStayOutOfOutput runs each command that can quote a value
// with a secret in it: the secret appears nowhere, (value hidden) does,
// and a plain value beside it is still quoted.
func TestSecretsStayOutOfOutput(t *testing.T) {
	dir := secretFiles(t)
	f := func(name string) string { return filepath.Join(dir, name) }
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		want     []string // parts of standard output and error together
		notWant  string   // besides the secret text (the values document itself holds the migrated values)
		visiblel string   // a plain value that is still quoted
	}{
		{"update -p, wrong type", []string{"update", "--schema", f("schema.yaml"), "--values", f("values.yaml"), "-p", "pin=S3cr3tXYZ", "-p", "replicas=visible"}, 1,
			[]string{`/pin: expected integer, but got string (value hidden)`}, "S3cr3tXYZ", `"visible"`},
		{"update -p, $ref below an object", []string{"update", "--schema", f("schema.yaml"), "-p", "db.port=S3cr3tXYZ"}, 1,
			[]string{`/db/port: expected integer, but got string (value hidden)`}, "S3cr3tXYZ", ""},
		{"update -p, flow text that does not read", []string{"update", "--schema", f("schema.yaml"), "-p", "db={password: S3cr3tXYZ"}, 1,
			[]string{`"db=(value hidden)"`}, "S3cr3tXYZ", ""},
		{"patch --replace of a missing value", []string{"patch", "--schema", f("schema.yaml"), "--values", f("values.yaml"), "--replace", "pin=S3cr3tXYZ"}, 1,
			[]string{`"replace pin=(value hidden)"`}, "S3cr3tXYZ", ""},
		{"validate", []string{"validate", "--schema", f("schema.yaml"), f("invalid.yaml")}, 1,
			[]string{`/pin: expected integer, but got string (value hidden)`, `/db/port: expected integer, but got string (value hidden)`}, "S3cr3tXYZ", `"visible"`},
		{"validate -o json", []string{"validate", "--schema", f("schema.yaml"), "-o", "json", f("invalid.yaml")}, 1,
			[]string{`(value hidden)`}, "S3cr3tXYZ", `\"visible\"`},
		{"unwrap", []string{"unwrap", "--schema", f("schema.yaml"), f("v1beta1.yaml")}, 1,
			[]string{`/pin: (value hidden) is not an integer`}, "S3cr3tXYZ", `"visible"`},
		{"migrate, text report", []string{"migrate", "--via", f("mid.yaml"), "--schema", f("new.yaml"), f("old.yaml")}, 1,
			[]string{`/pw: dropped (value hidden)`, `/pin: lossy (value hidden) -> (value hidden) (refused`}, "8675", ""},
		{"migrate -o json", []string{"migrate", "--via", f("mid.yaml"), "--schema", f("new.yaml"), "-o", "json", f("old.yaml")}, 1,
			[]string{`"dropped":[{"pointer":"/pw","hidden":true}]`, `"lossy":[{"pointer":"/pin","hidden":true,"refused":true}]`}, `"from"`, ""},
		{"migrate -o json --dry-run --allow-lossy", []string{"migrate", "--via", f("mid.yaml"), "--schema", f("new.yaml"), "-o", "json", "--dry-run", "--allow-lossy", f("old.yaml")}, 0,
			[]string{`{"pointer":"/pin","hidden":true,"refused":false}`}, "S3cr3tXYZ", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tc.args, strings.NewReader(""), &out, &errOut)
			all := out.String() + errOut.String()
			assert.Equal(t, tc.code, code, all)
			assert.NotContains(t, all, tc.notWant)
			assert.NotContains(t, all, "S3cr3tXYZ")
			for _, w := range tc.want {
				assert.Contains(t, all, w)
			}
			if tc.visiblel != "" {
				assert.Contains(t, all, tc.visiblel, "a plain value is still quoted")
			}
		})
	}
}
