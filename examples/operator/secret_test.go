package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUpgradeHidesSecretsOfTheOldVersion: a value the old version marks
// writeOnly is not quoted when the upgrade cannot move it.
func TestUpgradeHidesSecretsOfTheOldVersion(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"sec-1.yaml": "type: object\nproperties:\n  pin: {type: number, writeOnly: true}\n  size: {type: number}\n",
		"sec-2.yaml": "type: object\nproperties:\n  pin: {type: integer}\n  size: {type: integer}\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600))
	}
	instance := func(params string) string {
		return `apiVersion: kudo.dev/v1beta2
kind: Instance
metadata:
  name: i
  namespace: default
  annotations:
    kudo.dev/last-applied-instance-state: '{"operatorVersion":"sec-1","parameters":` + params + `}'
spec:
  operatorVersion:
    name: sec-2
  parameters: ` + params + "\n"
	}
	code, out, stderr := operatorRun(t, instance(`{"pin":8675.309}`), "--operator-versions", dir, "-")
	assert.Equal(t, 1, code, out)
	assert.NotContains(t, out+stderr, "8675")
	assert.Contains(t, stderr, "/pin: changing number (value hidden) to number (value hidden)")

	// The control: a plain value is quoted.
	_, out, stderr = operatorRun(t, instance(`{"size":2.5}`), "--operator-versions", dir, "-")
	assert.Contains(t, out+stderr, "changing number 2.5 to number 2")
}
