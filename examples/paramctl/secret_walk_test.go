package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// secretMarker matches every recognisable secret of the walk's files:
// the defaults, enum members, examples and values of writeOnly and
// format: password nodes (and of nodes below them).
var secretMarker = regexp.MustCompile(`SECRET[a-z]+[0-9]+`)

// secretWalkSchema marks secrets three ways (writeOnly, format: password,
// an object that is writeOnly) and gives each a default, enum members and
// examples; name is a plain parameter beside them.
const secretWalkSchema = `type: object
properties:
  name: {type: string, default: visible}
  password:
    type: string
    writeOnly: true
    default: SECRETdefault1
    enum: [SECRETenum1, SECRETdefault1]
    examples: [SECRETexample1]
  token:
    type: string
    format: password
    default: SECRETdefault2
    enum: [SECRETenum2, SECRETdefault2]
    example: SECRETexample2
    minLength: 40
  db:
    type: object
    writeOnly: true
    properties:
      user: {type: string, default: SECRETdefault3, enum: [SECRETenum3, SECRETdefault3]}
      port: {type: integer, default: 5432}
`

// secretWalkFiles writes the schema and the inputs the walk's commands
// read, and returns a function naming a file in that folder.
func secretWalkFiles(t *testing.T) func(string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"schema.yaml": secretWalkSchema,
		// Values that break every rule of the secret nodes.
		"bad.yaml": "name: a\npassword: SECRETvalue1\ntoken: SECRETvalue2\ndb: {user: SECRETvalue3, port: SECRETvalue4}\n",
		// Values that pass: the documents printed hold them (a document
		// is no message), the reports beside them may not.
		"good.yaml":    "name: a\npassword: SECRETenum1\ntoken: SECRETenum2\n",
		"v1beta1.yaml": "name: a\npassword: SECRETvalue5\ndb: '{user: SECRETvalue6, port: SECRETvalue7}'\n",
		// An old version whose secrets the new one drops or retypes.
		"old.yaml":        "type: object\nproperties:\n  name: {type: string}\n  legacy: {type: string, writeOnly: true, enum: [SECRETenum8]}\n  pin: {type: number, format: password, default: 1.5}\n",
		"new.yaml":        "type: object\nproperties:\n  name: {type: string}\n  pin: {type: integer, writeOnly: true, enum: [1]}\n",
		"old-values.yaml": "name: a\nlegacy: SECRETvalue8\npin: 8675.309\n---\nname: b\nlegacy: SECRETvalue9\n",
		"README.md":       "# Parameters\n<!-- DOCS_START -->\n<!-- DOCS_END -->\n",
		"gates.yaml":      "- name: PwGate\n  enabled: false\n  preRelease: alpha\n  fieldPaths: [.spec.password, .spec.token]\n",
		"object.yaml":     "apiVersion: v1\nkind: X\nspec:\n  password: SECRETvalue10\n  token: SECRETvalue11\n",
		"stored.yaml":     "apiVersion: v1\nkind: X\nspec:\n  password: SECRETvalue12\n",
		// A version set whose second version retypes the secret.
		"set/v1.yaml": secretWalkSchema,
		"set/v2.yaml": strings.Replace(secretWalkSchema, "  password:\n    type: string\n", "  password:\n    type: integer\n", 1),
		// A Helm chart whose values break the secret nodes' rules.
		"chart/Chart.yaml":          "apiVersion: v2\nname: secrets\nversion: 0.1.0\n",
		"chart/values.yaml":         "name: a\npassword: SECRETvalue13\ntoken: SECRETvalue14\n",
		"chart/values.schema.json":  `{"type":"object","properties":{"name":{"type":"string"},"password":{"type":"string","writeOnly":true,"enum":["SECRETenum15"]},"token":{"type":"string","format":"password","minLength":40,"examples":["SECRETexample15"]}}}`,
		"chart/ci/bad-values.yaml":  "password: SECRETvalue16\n",
		"chart/templates/note.yaml": "password: {{ .Values.password }}\n",
		// A schema whose secret object gains keys from values.yaml.
		"secret-object.schema.json": `{"type":"object","properties":{"db":{"type":"object","writeOnly":true,"properties":{"user":{"type":"string"}}}}}`,
		// RFC 6902 documents: one whose test of a secret fails, one that
		// writes secrets breaking their nodes' rules.
		"test-secret.json":  `[{"op":"test","path":"/password","value":"SECRETvalue46"}]`,
		"write-secret.json": `[{"op":"replace","path":"/password","value":"SECRETvalue47"},{"op":"add","path":"/db","value":{"user":"SECRETvalue48","port":"SECRETvalue49"}},{"op":"copy","from":"/password","path":"/name"}]`,
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }
}

// walkCase is one run of a command.
type walkCase struct {
	args  []string
	stdin string
	// document is set where standard output is the document the
	// command's contract prints (values, a schema, an object): it holds
	// the secrets it was given, as it must. Standard error is checked.
	document bool
	// written names a file the run writes, checked like its output.
	written string
	// refused is set where exit 2 is the command's answer to the input
	// (not a mistake in the run's arguments).
	refused bool
}

// secretWalkCases lists, for every command in paramctl's command table,
// the runs that can put a secret value into a message. A command missing
// here fails TestSecretWalkCoversEveryCommand.
func secretWalkCases(f func(string) string) map[string][]walkCase {
	var lintRuns []walkCase
	for _, set := range lintBuiltinSets() {
		for _, o := range []string{"text", "json", "sarif"} {
			lintRuns = append(lintRuns,
				walkCase{args: []string{"lint", "--rules", set.Name, "-o", o, f("schema.yaml")}},
				walkCase{args: []string{"lint", "--rules", set.Name, "-o", o, f("chart"), "--values", f("chart/ci/bad-values.yaml")}})
		}
	}
	lintRuns = append(lintRuns, walkCase{args: []string{"lint", "--rules", "kudo,cluster-app,structural", f("set/v2.yaml")}})
	return map[string][]walkCase{
		"add-param": {
			{args: []string{"add-param", "--schema", f("schema.yaml"), "--path", "/db/extra", "--type", "string", "--enum", "SECRETenum20", "--default", "SECRETvalue20", "--dry-run"}},
			{args: []string{"add-param", "--schema", f("schema.yaml"), "--path", "/db/n", "--type", "integer", "--enum", "SECRETenum21", "--dry-run"}},
			{args: []string{"add-param", "--schema", f("schema.yaml"), "--path", "/db/pin", "--type", "integer", "--default", "SECRETvalue22", "--dry-run"}},
		},
		"convert": {
			{args: []string{"convert", f("schema.yaml")}, document: true},
			{args: []string{"convert", "--schema", f("schema.yaml"), f("v1beta1.yaml")}, document: true},
		},
		"crd": {
			// The structural schema is a document: the schema's own text.
			{args: []string{"crd", f("schema.yaml")}, document: true},
			// The apiserver would refuse a default shorter than its
			// minLength: the refusal names no secret.
			{args: []string{"crd", "--versions", f("set"), "--group", "example.paramkit.dev", "--kind", "Cache", "--plural", "caches", "--output", f("crd.yaml")}, refused: true},
			{args: []string{"crd", "--versions", f("set"), "--group", "example.paramkit.dev", "--kind", "Cache", "--plural", "caches", "--check", f("crd.yaml")}, refused: true},
		},
		"defaults": {
			{args: []string{"defaults", "--schema", f("schema.yaml"), f("bad.yaml")}, document: true},
			{args: []string{"defaults", "--schema", f("schema.yaml"), "-o", "json", f("bad.yaml")}, document: true},
			{args: []string{"defaults", "--structural", "--schema", f("schema.yaml"), f("bad.yaml")}, document: true},
		},
		"demo": {{args: []string{"demo", "--list"}}},
		"gates": {
			{args: []string{"gates", "--gates", f("gates.yaml"), "--old", f("stored.yaml"), f("object.yaml")}, document: true},
			{args: []string{"gates", "--gates", f("gates.yaml"), "--old", f("stored.yaml"), "-o", "json", f("object.yaml")}, document: true},
			{args: []string{"gates", "--list", "--gates", f("gates.yaml")}},
		},
		"lint": lintRuns,
		"list": {
			{args: []string{"list", "--schema", f("schema.yaml")}},
			{args: []string{"list", "--schema", f("schema.yaml"), "-o", "markdown"}},
			{args: []string{"list", "--schema", f("schema.yaml"), "-o", "json"}},
			{args: []string{"list", "--schema", f("schema.yaml"), "--write", f("README.md")}, written: f("README.md")},
		},
		"migrate": {
			{args: []string{"migrate", "--schema", f("new.yaml"), f("old-values.yaml")}, document: true},
			{args: []string{"migrate", "--schema", f("new.yaml"), "--dry-run", f("old-values.yaml")}},
			{args: []string{"migrate", "--schema", f("new.yaml"), "--dry-run", "-o", "json", f("old-values.yaml")}},
			{args: []string{"migrate", "--schema", f("new.yaml"), "--via", f("old.yaml"), "--dry-run", f("old-values.yaml")}},
			{args: []string{"migrate", "--schema", f("new.yaml"), "--via", f("old.yaml"), "--dry-run", "-o", "json", f("old-values.yaml")}},
			{args: []string{"migrate", "--schema", f("new.yaml"), "--via", f("old.yaml"), "--allow-lossy", "-o", "json", f("old-values.yaml")}, document: true},
			{args: []string{"migrate", "--versions", f("set"), "--from", "v1", "--to", "v2", "--dry-run", f("bad.yaml")}},
			{args: []string{"migrate", "--versions", f("set"), "--from", "v1", "--to", "v2", "--dry-run", "-o", "json", f("good.yaml")}},
		},
		"patch": {
			{args: []string{"patch", "--schema", f("schema.yaml"), "--values", f("good.yaml"), "--replace", "password=SECRETvalue23", "--add", "db={user: SECRETvalue24}"}},
			{args: []string{"patch", "--schema", f("schema.yaml"), "--values", f("good.yaml"), "--replace", "/token=SECRETvalue25", "-o", "json"}},
			{args: []string{"patch", "--schema", f("schema.yaml"), "--values", f("good.yaml"), "--remove", "password", "--replace", "db/port=SECRETvalue26"}},
			{args: []string{"patch", "--schema", f("schema.yaml"), "--values", f("good.yaml"), "--json-patch", f("test-secret.json")}},
			{args: []string{"patch", "--schema", f("schema.yaml"), "--values", f("good.yaml"), "--json-patch", f("write-secret.json")}},
			{args: []string{"patch", "--schema", f("schema.yaml"), "--values", f("good.yaml"), "--json-patch", f("write-secret.json"), "-o", "json"}},
		},
		"schema": {
			// The chart's schema is the document (its enum holds a marker).
			{args: []string{"schema", f("chart")}, document: true},
			{args: []string{"schema", "--check", f("chart")}},
			// Keys added below a secret object get no default.
			{args: []string{"schema", "--schema", f("secret-object.schema.json"), "-"}, stdin: "db:\n  user: a\n  pass: SECRETvalue43\n  more: {x: SECRETvalue44}\n"},
		},
		"triggers": {
			{args: []string{"triggers", "--schema", f("schema.yaml")}},
			{args: []string{"triggers", "--schema", f("schema.yaml"), "-o", "json"}},
		},
		"unwrap": {
			{args: []string{"unwrap", "--schema", f("schema.yaml"), f("v1beta1.yaml")}, document: true},
			{args: []string{"unwrap", "--schema", f("schema.yaml"), "-"}, stdin: "db: '{user: SECRETvalue27, port: SECRETvalue28}'\n"},
		},
		"update": {
			{args: []string{"update", "--schema", f("schema.yaml"), "-p", "password=SECRETvalue29", "-p", "token=SECRETvalue30"}},
			{args: []string{"update", "--schema", f("schema.yaml"), "--values", f("good.yaml"), "-p", "db.user=SECRETvalue31", "-o", "json"}},
			{args: []string{"update", "--schema", f("schema.yaml"), "--values", f("good.yaml"), "-p", "password=SECRETenum1", "-p", "passwrd=SECRETvalue32"}, document: true},
			{args: []string{"update", "--schema", f("schema.yaml"), "--values", f("good.yaml"), "-p", "password=SECRETdefault1", "-o", "json"}, document: true},
		},
		"validate": {
			{args: []string{"validate", "--schema", f("schema.yaml"), f("bad.yaml")}},
			{args: []string{"validate", "--schema", f("schema.yaml"), "-o", "json", f("bad.yaml"), f("good.yaml")}},
		},
		"values": {
			{args: []string{"values", f("chart")}},
			{args: []string{"values", f("chart"), "-f", f("chart/ci/bad-values.yaml"), "-o", "json"}},
			{args: []string{"values", f("chart"), "--set", "password=SECRETvalue40", "--set-string", "token=SECRETvalue41", "--set-json", `name="SECRETvalue42"`}},
		},
		"version": {{args: []string{"version"}}},
		"versions": {
			{args: []string{"versions", f("set")}},
			{args: []string{"versions", "-o", "json", f("set")}},
		},
		// The webhook serves over TLS; its answers are checked in process
		// by TestWebhookAnswersCarryNoSecretMarker (webhook_secret_markers_test.go).
		"webhook": {},
	}
}

// TestSecretWalkCoversEveryCommand: the walk names every command of
// paramctl's command table, so that a new command is not forgotten.
func TestSecretWalkCoversEveryCommand(t *testing.T) {
	cases := secretWalkCases(func(string) string { return "" })
	var missing []string
	for name := range commands {
		if _, ok := cases[name]; !ok {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	assert.Empty(t, missing, "add the runs that could quote a secret for these commands to secretWalkCases (secret_walk_test.go)")
	for name := range cases {
		assert.Contains(t, commands, name, "secretWalkCases names a command paramctl does not have")
	}
}

// TestSecretWalk runs every command and every lint rule set over a schema
// whose writeOnly and format: password nodes carry recognisable defaults,
// enum members, examples and values (issue 26): no marker may appear in
// standard error, in a report, in JSON or SARIF, or in a file written;
// standard output only where it is the document the command prints.
func TestSecretWalk(t *testing.T) {
	f := secretWalkFiles(t)
	for name, runs := range secretWalkCases(f) {
		for i, c := range runs {
			t.Run(name+"/"+strings.Join(c.args[1:], " "), func(t *testing.T) {
				var out, errOut bytes.Buffer
				code := run(c.args, strings.NewReader(c.stdin), &out, &errOut)
				if !c.refused {
					assert.NotEqual(t, exitUsage, code, "run %d is no usage error: %s", i, errOut.String())
				}
				assert.Empty(t, secretMarker.FindAllString(errOut.String(), -1), "standard error:\n%s", errOut.String())
				if !c.document {
					assert.Empty(t, secretMarker.FindAllString(out.String(), -1), "standard output:\n%s", out.String())
				}
				if c.written != "" {
					data, err := os.ReadFile(c.written)
					require.NoError(t, err)
					assert.Empty(t, secretMarker.FindAllString(string(data), -1), "%s:\n%s", c.written, data)
				}
			})
		}
	}
}
