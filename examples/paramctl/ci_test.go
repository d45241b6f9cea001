package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yaml "go.yaml.in/yaml/v3"
)

// TestMain lets the test binary stand in for paramctl: with
// PARAMCTL_AS_MAIN=1 it runs paramctl on its arguments, so that the CI
// scripts can be tested with the code under test, without building it.
func TestMain(m *testing.M) {
	if os.Getenv("PARAMCTL_AS_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// paramctlOnPath puts a "paramctl" on a PATH for child processes: a link
// to the test binary, which runs paramctl (TestMain). It returns the
// environment to run them with.
func paramctlOnPath(t *testing.T) []string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	bin := t.TempDir()
	require.NoError(t, os.Symlink(exe, filepath.Join(bin, "paramctl")))
	env := []string{"PARAMCTL_AS_MAIN=1", "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "GITHUB_") && !strings.HasPrefix(kv, "PARAMCTL_") {
			env = append(env, kv)
		}
	}
	return env
}

// outputs reads a GITHUB_OUTPUT file of key=value lines.
func outputs(t *testing.T, file string) map[string]string {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			out[k] = v
		}
	}
	return out
}

// TestActionScript runs the lint step of the composite action as GitHub
// runs it: inputs as PARAMCTL_* variables, outputs to GITHUB_OUTPUT; the
// SARIF file is complete, the log has the text findings, the exit status
// is lint's (or 0 with fail-on-error false).
func TestActionScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	env := paramctlOnPath(t)
	script, err := filepath.Abs("action-lint.sh")
	require.NoError(t, err)
	tests := []struct {
		name    string
		vars    map[string]string
		code    int
		log     []string
		sarifOK string
		uri     string // a file the SARIF names, from the repository root
	}{
		{name: "clean chart", vars: map[string]string{"PARAMCTL_PATHS": webChart}, code: 0, log: []string{"0 errors, 0 warnings, 0 info"}, sarifOK: "true"},
		{name: "error findings fail", vars: map[string]string{"PARAMCTL_PATHS": webChart + "\n" + lintExample}, code: 1,
			log: []string{lintExample + ":28:9: /properties/backup/properties/enabled/trigger: error kudo-trigger-conflict", "4 errors, 2 warnings"}, sarifOK: "true",
			uri: lintName([]string{webChart, lintExample}, lintExample)},
		{name: "a usage error: no complete SARIF to upload", vars: map[string]string{"PARAMCTL_PATHS": webChart + "\n" + lintExample, "PARAMCTL_VALUES": webChart + "/bad-values.yaml"}, code: 2,
			log: []string{"--values is for a Helm chart folder"}, sarifOK: "false"},
		{name: "chart with values files and config", vars: map[string]string{
			"PARAMCTL_PATHS": "  " + demoChart + "  ", "PARAMCTL_CONFIG": gsConfig, "PARAMCTL_VALUES": demoChart + "/ci/ci-values.yaml",
		}, code: 1, log: []string{demoChart + "/values.schema.json:14:11: /$defs/nodePool/properties/instanceType/title: error R5-title-case: "}, sarifOK: "true"},
		{name: "report only", vars: map[string]string{"PARAMCTL_PATHS": lintExample, "PARAMCTL_FAIL_ON_ERROR": "false"}, code: 0,
			log: []string{"error kudo-trigger-conflict", "not failing (fail-on-error: false)"}, sarifOK: "true"},
		{name: "rules and baseline", vars: map[string]string{"PARAMCTL_PATHS": lintExample, "PARAMCTL_RULES": "kudo", "PARAMCTL_BASELINE": "testdata/charts/empty-baseline.json"}, code: 1,
			log: []string{"4 errors, 2 warnings"}, sarifOK: "true"},
		{name: "changed files: their charts, the overlays that changed", vars: map[string]string{"PARAMCTL_CHANGED": "testdata/helm/charts/overlays/ci/tag-values.yaml testdata/helm/charts/overlays/ci/yes-values.yaml README.md"}, code: 1,
			log: []string{"testdata/helm/charts/overlays/ci/tag-values.yaml:3:3: /image/tag: error chart-values: Helm reads 1.10", "1 error, 0 warnings", "README.md: in no Helm chart"}, sarifOK: "true"},
		{name: "nothing to lint", vars: map[string]string{"PARAMCTL_PATHS": " \n "}, code: 2, log: []string{"the paths input names nothing to lint"}},
		{name: "a path that looks like a flag is a path", vars: map[string]string{"PARAMCTL_PATHS": "--rules"}, code: 2, log: []string{"--rules: no such file or directory"}, sarifOK: "false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "output")
			require.NoError(t, os.WriteFile(out, nil, 0o644))
			cmd := exec.Command("bash", script)
			cmd.Env = append(append([]string{}, env...), "GITHUB_OUTPUT="+out, "RUNNER_TEMP="+dir)
			for k, v := range tt.vars {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			log, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.code, code, "%s", log)
			for _, s := range tt.log {
				assert.Contains(t, string(log), s)
			}
			if tt.sarifOK == "" {
				return
			}
			o := outputs(t, out)
			assert.Equal(t, tt.sarifOK, o["sarif-ok"])
			assert.Equal(t, filepath.Join(dir, "paramctl-lint.sarif"), o["sarif-file"])
			if tt.sarifOK == "true" {
				sarif, err := os.ReadFile(o["sarif-file"])
				require.NoError(t, err)
				assert.Contains(t, string(sarif), `"version": "2.1.0"`)
				if tt.uri != "" {
					assert.Contains(t, string(sarif), `"uri": "`+tt.uri+`"`)
					assert.Contains(t, string(log), tt.uri+":", "the log names the file as the SARIF does")
				}
			}
		})
	}
}

// TestActionAndHooksFiles: action.yml and .pre-commit-hooks.yaml are what
// their users' tools read: the action's steps run the script that
// TestActionScript tests with every input it declares, the hooks run
// paramctl commands that work on a chart's files.
func TestActionAndHooksFiles(t *testing.T) {
	var action struct {
		Inputs map[string]struct {
			Required bool   `yaml:"required"`
			Default  string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				ID   string            `yaml:"id"`
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				Env  map[string]string `yaml:"env"`
				With map[string]string `yaml:"with"`
				If   string            `yaml:"if"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	data, err := os.ReadFile("../../action.yml")
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(data, &action))
	assert.Equal(t, "composite", action.Runs.Using)
	used := map[string]bool{}
	var lintStep, uploadStep bool
	for _, st := range action.Runs.Steps {
		for _, v := range st.Env {
			used[v] = true
		}
		for _, v := range st.With {
			used[v] = true
		}
		if strings.Contains(st.Run, "examples/paramctl/action-lint.sh") {
			lintStep = st.ID == "lint"
		}
		if strings.Contains(st.Run, "go build") {
			assert.Contains(t, st.Run, "./examples/paramctl")
		}
		if strings.HasPrefix(st.Uses, "github/codeql-action/upload-sarif@") {
			uploadStep = true
			assert.Equal(t, "${{ steps.lint.outputs.sarif-file }}", st.With["sarif_file"])
			assert.Contains(t, st.If, "steps.lint.outputs.sarif-ok == 'true'")
		}
	}
	assert.True(t, lintStep, "a step with id lint runs the script")
	assert.True(t, uploadStep, "the SARIF is uploaded")
	for name := range action.Inputs {
		assert.True(t, used["${{ inputs."+name+" }}"] || strings.Contains(string(data), "inputs."+name), "input %s is used", name)
	}
	script, err := os.ReadFile("action-lint.sh")
	require.NoError(t, err)
	for _, v := range []string{"PARAMCTL_PATHS", "PARAMCTL_RULES", "PARAMCTL_CONFIG", "PARAMCTL_BASELINE", "PARAMCTL_VALUES", "PARAMCTL_CHANGED", "PARAMCTL_FAIL_ON_ERROR"} {
		assert.True(t, used["${{ inputs."+strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(v, "PARAMCTL_")), "_", "-")+" }}"], "%s is an input", v)
		assert.Contains(t, string(script), v)
	}

	var hooks []struct {
		ID            string `yaml:"id"`
		Entry         string `yaml:"entry"`
		Language      string `yaml:"language"`
		Files         string `yaml:"files"`
		RequireSerial bool   `yaml:"require_serial"`
	}
	data, err = os.ReadFile("../../.pre-commit-hooks.yaml")
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(data, &hooks))
	require.Len(t, hooks, 2)
	files := map[string][]string{
		"paramctl-lint-chart": {webChart + "/Chart.yaml", webChart + "/values.yaml", webChart + "/values.schema.json", webChart + "/ci/ci-values.yaml", "testdata/helm/charts/overlays/ci/yes-values.yaml"},
		"paramctl-lint":       {webChart + "/values.schema.json"},
	}
	for _, h := range hooks {
		assert.Equal(t, "golang", h.Language)
		require.True(t, strings.HasPrefix(h.Entry, "paramctl "), h.Entry)
		re, err := regexpCompile(h.Files)
		require.NoError(t, err)
		names := files[h.ID]
		require.NotEmpty(t, names, h.ID)
		for _, n := range names {
			assert.True(t, re.MatchString(n), "%s matches %s", h.ID, n)
		}
		assert.False(t, re.MatchString(webChart+"/templates/deployment.yaml"), h.ID)
		// pre-commit runs the entry with the matching files appended.
		args := append(strings.Fields(strings.TrimPrefix(h.Entry, "paramctl ")), names...)
		code, out, errs := paramctl(t, "", args...)
		assert.Equal(t, 0, code, "%s: %s%s", h.ID, out, errs)
	}
}

func regexpCompile(s string) (*regexp.Regexp, error) { return regexp.Compile(s) }
