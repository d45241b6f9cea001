package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCRDNeverPrintsASecret: paramctl crd prints no secret, neither in
// the CRD nor in a message, and says on standard error which defaults it
// left out (issue 35 item 5). The default below once came back quoted in
// a structural finding (the pattern refuses it).
func TestCRDNeverPrintsASecret(t *testing.T) {
	dir := t.TempDir()
	secretSchema := `type: object
properties:
  admin:
    type: object
    default: {user: admin, password: Hunter2-Secret}
    properties:
      user: {type: string}
      password:
        type: string
        writeOnly: true
        pattern: "^[a-z]+$"
        default: Hunter2-Secret
  token: {type: string, format: password, default: Token-Secret}
  plain: {type: string, default: visible}
`
	file := filepath.Join(dir, "schema.yaml")
	require.NoError(t, os.WriteFile(file, []byte(secretSchema), 0o644))
	versions := filepath.Join(dir, "versions")
	require.NoError(t, os.MkdirAll(versions, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(versions, "v1.yaml"), []byte(secretSchema), 0o644))

	for _, tc := range []struct {
		name string
		args []string
		from string
	}{
		{"a field's schema", []string{"crd", file}, file},
		{"a field's schema as JSON", []string{"crd", file, "-o", "json"}, file},
		{"a whole CRD", []string{"crd", "--versions", versions, "--group", "example.dev", "--kind", "App", "--plural", "apps"}, versions + ": version v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := paramctl(t, "", tc.args...)
			require.Equal(t, exitOK, code, errs)
			for _, secret := range []string{"Hunter2-Secret", "Token-Secret"} {
				assert.NotContains(t, out, secret)
				assert.NotContains(t, errs, secret)
			}
			assert.Contains(t, out, "visible", "other defaults stay")
			assert.Contains(t, out, "admin", "the object's default keeps what is not secret")
			assert.Contains(t, errs, tc.from+": /properties/admin/properties/password: note: the default of a secret (writeOnly or format: password) is left out of the CRD")
			assert.Contains(t, errs, tc.from+": /properties/token: note: the default of a secret")
			assert.Contains(t, errs, tc.from+": /properties/admin: note: the default leaves out the secrets below it in the CRD")
			assert.NotContains(t, errs, "/properties/plain")
		})
	}
}
