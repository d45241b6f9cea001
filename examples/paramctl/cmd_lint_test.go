package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const lintExample = "demo/kep-lint-example.yaml"

func TestLintCommand(t *testing.T) {
	tests := []cliCase{
		{name: "clean schema", args: []string{"lint", demoSchema}, code: 0},
		{name: "error findings exit 1", args: []string{"lint", lintExample}, code: 1,
			out: []string{
				lintExample + ":28:9: /properties/backup/properties/enabled/trigger: error kudo-trigger-conflict: ",
				lintExample + ":34:9: /properties/backup/properties/schedule/imutable: warning kudo-misspelt-keyword: ",
			}},
		{name: "flags after the file", args: []string{"lint", lintExample, "--rules", "kudo"}, code: 1, out: []string{"kudo-trigger-conflict"}},
		{name: "warnings only exit 0", args: []string{"lint", "-", "--disable", "kudo-enum-default"}, stdin: "type: object\nproperties:\n  a:\n    type: string\n    trigers: x\n", code: 0,
			out: []string{"-:5:5: /properties/a/trigers: warning kudo-misspelt-keyword: "}},
		{name: "root pointer shown as \"\"", args: []string{"lint", "--rules", "cluster-app", "-"}, stdin: "type: object\n", code: 1,
			out: []string{`-:1:1: "": error R1-dialect: `}},
		{name: "several sets", args: []string{"lint", "--rules", "kudo,cluster-app", lintExample}, code: 1,
			out: []string{"kudo-trigger-conflict", "R1-dialect"}},
		{name: "disable a rule", args: []string{"lint", "--disable", "kudo-trigger-conflict", lintExample}, code: 1,
			notOut: []string{"kudo-trigger-conflict"}, out: []string{"kudo-enum-default"}},
		{name: "disable comma-separated", args: []string{"lint", "--disable", "kudo-trigger-conflict,kudo-oldname-duplicate,kudo-enum-default,kudo-default-invalid", lintExample}, code: 0,
			out: []string{"kudo-misspelt-keyword"}},
		{name: "schema that does not compile is findings, not exit 2", args: []string{"lint", "-"}, stdin: "type: int\nproperties:\n  a:\n    immutable: yes\n", code: 1,
			out: []string{"-:1:1: /type: error schema-compile: ", "-:4:5: /properties/a/immutable: error schema-compile: "}},
		{name: "json document", args: []string{"lint", "-"}, stdin: `{"type":"object","properties":{"a":{"enum":[1],"default":2}}}`, code: 1,
			out: []string{"-:1:48: /properties/a/default: error kudo-enum-default"}},
		{name: "an OperatorVersion is linted at spec.parameters", args: []string{"lint", "testdata/lint/operatorversion.yaml"}, code: 1,
			out: []string{`testdata/lint/operatorversion.yaml:15:13: /spec/parameters/properties/backup/properties/enabled/trigger: error kudo-trigger-conflict: trigger "deploy" conflicts with trigger "backup" at /spec/parameters/properties/backup/trigger`}},
		{name: "a v1beta1 params.yaml is linted as the schema it converts to", args: []string{"lint", "--rules", "cluster-app", "demo/kep-params-v1beta1.yaml"}, code: 1,
			out: []string{`demo/kep-params-v1beta1.yaml:12:5: /parameters/2: error R4-items: property "ARRAY_PARAM" is an array without "items": define the schema of its items`, `/parameters/1/default: error R18-empty-default`}},
		{name: "JSON escapes YAML does not know", args: []string{"lint", "-"}, stdin: `{"properties": {"a": {"enum": ["a\/b"], "default": "c\/d"}}}`, code: 1,
			out: []string{`-: /properties/a/default: error kudo-enum-default: the default "c/d" is not one of the enum values ["a/b"]`}},
		{name: "unknown set", args: []string{"lint", "--rules", "nope", demoSchema}, code: 2, err: []string{`unknown rule set "nope"`, "cluster-app", "kudo"}},
		{name: "unknown rule", args: []string{"lint", "--disable", "R99", demoSchema}, code: 2, err: []string{`unknown rule "R99"`}},
		{name: "no file", args: []string{"lint"}, code: 2, err: []string{"SCHEMA"}},
		{name: "missing file", args: []string{"lint", "nope.yaml"}, code: 2, err: []string{"nope.yaml"}},
		{name: "malformed YAML", args: []string{"lint", "-"}, stdin: "a: [1,\n", code: 2, err: []string{"-: "}},
		{name: "bad -o", args: []string{"lint", "-o", "xml", demoSchema}, code: 2, err: []string{"xml"}},
		{name: "list rules", args: []string{"lint", "--list-rules", "--rules", "cluster-app"}, code: 0,
			out: []string{"R5-title-case", "R18-empty-default", "cannot be checked by a program"}, notOut: []string{"kudo-trigger-conflict"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, out, _ := tt.run(t)
			assert.NotContains(t, out, "\x1b[", "no colours in a pipe")
		})
	}
}

func TestLintJSON(t *testing.T) {
	code, out, _ := paramctl(t, "", "lint", "-o", "json", demoSchema)
	assert.Equal(t, 0, code)
	assert.Equal(t, "[]\n", out, "no findings is an empty list, not null")

	code, out, _ = paramctl(t, "", "lint", "-o", "json", lintExample)
	assert.Equal(t, 1, code)
	var raw []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	require.NotEmpty(t, raw)
	for _, f := range raw {
		keys := []string{}
		for k := range f {
			keys = append(keys, k)
		}
		assert.ElementsMatch(t, []string{"rule", "severity", "pointer", "message", "file", "line"}, keys)
		assert.Equal(t, lintName([]string{lintExample}, lintExample), f["file"], "the file named from the root, one file or several")
	}
	assert.Contains(t, out, `"pointer": "/properties/backup/properties/enabled/trigger"`)

	// Several files: each finding names its file, as with one.
	code, out, _ = paramctl(t, "", "lint", "-o", "json", demoSchema, lintExample)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, `"file": "`+lintName([]string{demoSchema, lintExample}, lintExample)+`"`)
}

func TestLintSARIF(t *testing.T) {
	code, out, _ := paramctl(t, "", "lint", "-o", "sarif", lintExample)
	assert.Equal(t, 1, code)
	var log struct {
		Version string `json:"version"`
		Schema  string `json:"$schema"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name    string `json:"name"`
					Version string `json:"version"`
					Rules   []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
					LogicalLocations []struct {
						FullyQualifiedName string `json:"fullyQualifiedName"`
					} `json:"logicalLocations"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &log))
	assert.Equal(t, "2.1.0", log.Version)
	require.Len(t, log.Runs, 1)
	run := log.Runs[0]
	// The tool's version from build info: a test binary is a build of
	// the checkout, "(devel)".
	assert.Equal(t, "(devel)", run.Tool.Driver.Version)
	require.NotEmpty(t, run.Results)
	found := false
	for _, r := range run.Results {
		assert.Equal(t, r.RuleID, run.Tool.Driver.Rules[r.RuleIndex].ID)
		assert.Contains(t, []string{"error", "warning", "note"}, r.Level)
		loc := r.Locations[0]
		assert.Equal(t, lintName([]string{lintExample}, lintExample), loc.PhysicalLocation.ArtifactLocation.URI)
		assert.Positive(t, loc.PhysicalLocation.Region.StartLine)
		if loc.LogicalLocations[0].FullyQualifiedName == "/properties/backup/properties/enabled/trigger" {
			found = true
			// trigger: deploy is written on line 28 of the example, at column 9.
			assert.Equal(t, 28, loc.PhysicalLocation.Region.StartLine)
			assert.Equal(t, 9, loc.PhysicalLocation.Region.StartColumn)
			assert.Equal(t, "error", r.Level)
		}
	}
	assert.True(t, found)
}

// TestNoColorEnvironment: NO_COLOR set to anything but "" turns colour
// off (https://no-color.org).
func TestNoColorEnvironment(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	assert.True(t, newEnv(nil, &bytes.Buffer{}, &bytes.Buffer{}).noColor)
	t.Setenv("NO_COLOR", "")
	assert.False(t, newEnv(nil, &bytes.Buffer{}, &bytes.Buffer{}).noColor)
}

// TestLintTerminal: a terminal gets the same FILE:LINE:COL lines as a
// pipe, the severity coloured unless NO_COLOR is set; the count goes to
// standard error either way.
func TestLintTerminal(t *testing.T) {
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, stdoutIsTerminal: true}
	code := e.dispatch([]string{"lint", lintExample})
	assert.Equal(t, 1, code)
	s := unroot(out.String())
	// Findings come by place in the file: line 8 (required) before line 28.
	assert.True(t, strings.HasPrefix(s, lintExample+":8:3: /required/1: \x1b[33mwarning\x1b[0m kudo-required: "), "%q", s)
	assert.Contains(t, s, "\n"+lintExample+":28:9: /properties/backup/properties/enabled/trigger: \x1b[31merror\x1b[0m kudo-trigger-conflict: ")
	assert.Contains(t, s, "\x1b[33mwarning\x1b[0m kudo-misspelt-keyword")
	assert.Equal(t, "4 errors, 2 warnings, 0 info\n", errb.String())

	out.Reset()
	errb.Reset()
	e = &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, stdoutIsTerminal: true, noColor: true}
	assert.Equal(t, 1, e.dispatch([]string{"lint", lintExample}))
	assert.NotContains(t, out.String(), "\x1b[", "NO_COLOR: no colour on a terminal either")
	assert.Contains(t, out.String(), lintExample+":28:9: /properties/backup/properties/enabled/trigger: error kudo-trigger-conflict: ")

	out.Reset()
	errb.Reset()
	e = &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, stdoutIsTerminal: true}
	assert.Equal(t, 0, e.dispatch([]string{"lint", demoSchema}))
	assert.Empty(t, out.String())
	assert.Equal(t, "0 errors, 0 warnings, 0 info\n", errb.String())
}

// lintName is the name paramctl lint gives a file in every output when
// run on args: from the repository root in a checkout (see lintRoot).
func lintName(args []string, file string) string { return newLintRoot(args).name(file) }

// unroot names the files in paramctl lint's output as this folder does
// (the goldens keep those names): in a checkout, lint names them from the
// repository root, where this folder is examples/paramctl.
func unroot(out string) string {
	return strings.ReplaceAll(out, lintName([]string{"."}, ".")+"/", "")
}
