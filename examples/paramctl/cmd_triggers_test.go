package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTriggersCommand(t *testing.T) {
	valid := updWrite(t, "valid.yaml", `
type: object
properties:
  ClusterName:
    type: string
    trigger: "deploy"
  NodeCount:
    type: integer
  Authorization:
    type: object
    trigger: "auth-update"
    properties:
      ENABLED:
        type: "boolean"
        trigger: "auth-update"
      NAME:
        type: "string"
`)
	code, out, errs := updRun(t, "", "triggers", "--schema", valid)
	require.Equal(t, exitOK, code, errs)
	assert.Equal(t, "/ClusterName\tdeploy\n/NodeCount\tdeploy\n/Authorization\tauth-update\n/Authorization/ENABLED\tauth-update\n/Authorization/NAME\tauth-update\n", out)
	assert.Empty(t, errs)

	code, out, _ = updRun(t, "", "triggers", "--schema", valid, "--plans", "deploy,update")
	require.Equal(t, exitOK, code)
	assert.Contains(t, out, "/ClusterName\tdeploy\n/NodeCount\tupdate\n")

	code, out, _ = updRun(t, "", "triggers", "--schema", valid, "-o", "json")
	require.Equal(t, exitOK, code)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.Len(t, rows, 5)
	assert.Equal(t, map[string]any{"pointer": "/NodeCount", "plan": "deploy", "ownTrigger": nil, "schemaPointer": "/properties/NodeCount"}, rows[1])
	assert.Equal(t, "auth-update", rows[2]["ownTrigger"])
}

func TestTriggersCommandConflict(t *testing.T) {
	invalid := updWrite(t, "invalid.yaml", `
type: object
properties:
  Authorization:
    type: object
    trigger: "deploy"
    properties:
      ENABLED:
        type: "boolean"
        trigger: "update-instance"
`)
	code, out, errs := updRun(t, "", "triggers", "--schema", invalid)
	assert.Equal(t, exitInvalid, code)
	assert.Equal(t, `/properties/Authorization/properties/ENABLED: trigger "update-instance" differs from trigger "deploy" of its ancestor /properties/Authorization (a level below a trigger must name the same plan or none)`+"\n", errs)
	assert.Equal(t, "/Authorization\tdeploy\n/Authorization/ENABLED\tupdate-instance\n", out)
}

func TestTriggersCommandEdges(t *testing.T) {
	scalar := updWrite(t, "scalar.yaml", "type: string\n")
	code, out, _ := updRun(t, "", "triggers", "--schema", scalar, "-o", "json")
	assert.Equal(t, exitOK, code)
	assert.JSONEq(t, "[]", out, "an empty list is [], never null")

	code, _, _ = updRun(t, "", "triggers")
	assert.Equal(t, exitUsage, code)
	code, _, _ = updRun(t, "", "triggers", "--schema", "nope.yaml")
	assert.Equal(t, exitUsage, code)
	code, _, _ = updRun(t, "", "triggers", "--schema", scalar, "-o", "xml")
	assert.Equal(t, exitUsage, code)
	code, out, _ = updRun(t, "type: object\nproperties: {a: {trigger: x}}\n", "triggers", "--schema", "-")
	assert.Equal(t, exitOK, code)
	assert.Equal(t, "/a\tx\n", out)
}
