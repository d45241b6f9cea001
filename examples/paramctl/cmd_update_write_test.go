package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const writeValues = `# production cluster
clusterName: prod # do not change
topology:
  - datacenterName: dc1
    labels:
      - key: Usage
        value: "primary"
# chosen at install
storage:
  class: fast
`

// TestUpdateWrite: update and patch --write edit the values file in
// place: only the changed values' lines differ, no default is written,
// nothing goes to standard output.
func TestUpdateWrite(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		want   string // the file afterwards
		stdout string // JSON; "" for none
		stderr string
	}{
		{name: "a -p change, no default written", args: []string{"update", "-p", "topology/0/labels/0/value=secondary", "-p", "nodeCount=5"},
			want:   "# production cluster\nclusterName: prod # do not change\nnodeCount: 5\ntopology:\n  - datacenterName: dc1\n    labels:\n      - key: Usage\n        value: \"secondary\"\n# chosen at install\nstorage:\n  class: fast\n",
			stderr: "plan: deploy (changed /nodeCount, /topology/0/labels/0/value)\nVALUES: written\n"},
		{name: "patch --add appends, --remove takes the key", args: []string{"patch", "--add", "topology={datacenterName: dc2}", "--remove", "topology/0/labels"},
			want:   "# production cluster\nclusterName: prod # do not change\ntopology:\n  - datacenterName: dc1\n  - datacenterName: dc2\n# chosen at install\nstorage:\n  class: fast\n",
			stderr: "plan: deploy (changed /topology)\nVALUES: written\n"},
		{name: "a -P null removes a key", args: []string{"update", "-P", "PATCH"},
			want:   "# production cluster\nclusterName: prod # do not change\n# chosen at install\nstorage:\n  class: fast\n",
			stderr: "plan: deploy (changed /topology)\nVALUES: written\n"},
		{name: "--json-patch", args: []string{"patch", "--json-patch", "JSONPATCH"},
			want:   "# production cluster\nclusterName: prod # do not change\ntopology:\n  - datacenterName: dc1\n    labels:\n      - key: Usage\n        value: \"primary\"\n      - key: Tier\n        value: gold\n# chosen at install\nstorage:\n  class: fast\n",
			stderr: "plan: deploy (changed /topology/0/labels)\nVALUES: written\n"},
		{name: "nothing changed leaves the file", args: []string{"update", "-p", "clusterName=prod"},
			want: writeValues, stderr: "plan: none (nothing changed)\nVALUES: unchanged\n"},
		{name: "a refused update writes nothing", args: []string{"update", "-p", "storage.class=slow"},
			code: exitInvalid, want: writeValues},
		{name: "-o json prints the report", args: []string{"update", "-p", "nodeCount=4", "-o", "json"},
			want:   "# production cluster\nclusterName: prod # do not change\nnodeCount: 4\ntopology:\n  - datacenterName: dc1\n    labels:\n      - key: Usage\n        value: \"primary\"\n# chosen at install\nstorage:\n  class: fast\n",
			stdout: `{"values":{"clusterName":"prod","nodeCount":4,"topology":[{"datacenterName":"dc1","labels":[{"key":"Usage","value":"primary"}]}],"storage":{"class":"fast"}},"plan":"deploy","changed":["/nodeCount"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "values.yaml")
			require.NoError(t, os.WriteFile(file, []byte(writeValues), 0o644))
			patch := filepath.Join(dir, "patch.yaml")
			require.NoError(t, os.WriteFile(patch, []byte("topology: null\n"), 0o644))
			jsonPatch := filepath.Join(dir, "patch.json")
			require.NoError(t, os.WriteFile(jsonPatch, []byte(`[{"op":"add","path":"/topology/0/labels/-","value":{"key":"Tier","value":"gold"}}]`), 0o644))
			args := []string{tt.args[0], "--schema", updSchema, "--values", file, "--write"}
			for _, a := range tt.args[1:] {
				args = append(args, strings.NewReplacer("JSONPATCH", jsonPatch, "PATCH", patch).Replace(a))
			}
			code, stdout, stderr := updRun(t, "", args...)
			assert.Equal(t, tt.code, code, stderr)
			got, err := os.ReadFile(file)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			if tt.stdout == "" {
				assert.Empty(t, stdout)
			} else {
				assert.JSONEq(t, tt.stdout, stdout)
			}
			if tt.stderr != "" {
				assert.Equal(t, strings.ReplaceAll(tt.stderr, "VALUES", file), stderr)
			}
		})
	}
}

// TestUpdateWriteUsage: --write needs a values file of its own.
func TestUpdateWriteUsage(t *testing.T) {
	for _, args := range [][]string{
		{"update", "--schema", updSchema, "--write", "-p", "nodeCount=4"},
		{"update", "--schema", updSchema, "--values", "-", "--write", "-p", "nodeCount=4"},
	} {
		code, stdout, stderr := updRun(t, "clusterName: x\n", args...)
		assert.Equal(t, exitUsage, code)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, "--write needs --values FILE")
	}
}

// TestUpdateWriteAnchor: a change inside a YAML anchor that aliases share
// is refused with the value's pointer, and the file stays as it was.
func TestUpdateWriteAnchor(t *testing.T) {
	file := filepath.Join(t.TempDir(), "values.yaml")
	src := "clusterName: &name prod\nAuthorization:\n  NAME: *name\n"
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	code, _, stderr := updRun(t, "", "update", "--schema", updSchema, "--values", file, "--write", "-p", "clusterName=test")
	assert.Equal(t, exitInvalid, code)
	assert.Contains(t, stderr, file+": /clusterName: cannot edit the file in place")
	got, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, src, string(got))
}

// TestUpdateWriteChart: on real charts' values.yaml files (Helm charts,
// comments everywhere), update --write changes exactly the lines of the
// changed values: no default of the schema is written.
func TestUpdateWriteChart(t *testing.T) {
	tests := []struct {
		chart string
		set   []string
		lines map[string]string // old line -> new line
	}{
		{chart: "traefik", set: []string{"deployment.replicas=3", "log.level=DEBUG"}, lines: map[string]string{
			`  replicas: 1  # @schema type:[integer, null];minimum:0`:                                    `  replicas: 3  # @schema type:[integer, null];minimum:0`,
			`  level: "INFO"  # @schema enum:[TRACE,DEBUG,INFO,WARN,ERROR,FATAL,PANIC]; default: "INFO"`: `  level: "DEBUG"  # @schema enum:[TRACE,DEBUG,INFO,WARN,ERROR,FATAL,PANIC]; default: "INFO"`,
		}},
		{chart: "cert-manager", set: []string{"replicaCount=2"}, lines: map[string]string{
			`replicaCount: 1`: `replicaCount: 2`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.chart, func(t *testing.T) {
			dir := filepath.Join("testdata", "helm", "charts", tt.chart)
			src, err := os.ReadFile(filepath.Join(dir, "values.yaml"))
			require.NoError(t, err)
			file := filepath.Join(t.TempDir(), "values.yaml")
			require.NoError(t, os.WriteFile(file, src, 0o644))
			args := []string{"update", "--schema", filepath.Join(dir, "values.schema.json"), "--values", file, "--write"}
			for _, s := range tt.set {
				args = append(args, "-p", s)
			}
			code, stdout, stderr := updRun(t, "", args...)
			require.Equal(t, exitOK, code, stderr)
			assert.Empty(t, stdout)
			got, err := os.ReadFile(file)
			require.NoError(t, err)
			before, after := strings.Split(string(src), "\n"), strings.Split(string(got), "\n")
			require.Len(t, after, len(before), "no line added or removed")
			changed := 0
			for i := range before {
				if before[i] != after[i] {
					changed++
					assert.Equal(t, tt.lines[before[i]], after[i], "line %d", i+1)
				}
			}
			assert.Equal(t, len(tt.lines), changed)
		})
	}
}
