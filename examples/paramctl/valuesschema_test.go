package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const schemaTestdata = "testdata/schema"

// realCharts are the charts of testdata/helm (real charts, with their
// licence notices; see testdata/helm/charts/SOURCES).
var realCharts = []string{"alertmanager", "cert-manager", "cluster-aws", "prometheus-mysql-exporter", "traefik"}

// generated runs the generator on values.yaml bytes and returns the
// schema as plain JSON values.
func generated(t *testing.T, values string) map[string]any {
	t.Helper()
	o, _, err := generateSchema([]byte(values))
	require.NoError(t, err)
	out, err := renderSchema(o)
	require.NoError(t, err)
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&m))
	return m
}

// prop returns the schema of a property by its values path (a.b.c).
func prop(t *testing.T, s map[string]any, path string) map[string]any {
	t.Helper()
	n := s
	for _, k := range strings.Split(path, ".") {
		props, ok := n["properties"].(map[string]any)
		require.True(t, ok, "no properties above %q in %v", k, n)
		n, ok = props[k].(map[string]any)
		require.True(t, ok, "no property %q", path)
	}
	return n
}

// TestSchemaTypesAsHelmReads: each key gets the type Helm gives its value
// (sigs.k8s.io/yaml: YAML 1.1 booleans, 1.10 the number 1.1, an empty
// value null), and its value as default unless R18 calls it empty.
func TestSchemaTypesAsHelmReads(t *testing.T) {
	for _, c := range []struct {
		name, values string
		typ          any // nil: no type keyword
		def          any // nil: no default keyword
	}{
		{"a string", "x: nginx\n", "string", "nginx"},
		{"1.10 is the number 1.1", "x: 1.10\n", "number", json.Number("1.1")},
		{"quoted 1.10 stays a string", "x: \"1.10\"\n", "string", "1.10"},
		{"yes is a boolean", "x: yes\n", "boolean", true},
		{"on is a boolean", "x: on\n", "boolean", true},
		{"off: no default (R18)", "x: off\n", "boolean", nil},
		{"an unquoted account id is a number", "x: 1234567890\n", "integer", json.Number("1234567890")},
		{"3.0 written as a float is a number", "x: 3.0\n", "number", json.Number("3")},
		{"007 is YAML 1.1 octal", "x: 007\n", "integer", json.Number("7")},
		{"0x1F is hex", "x: 0x1F\n", "integer", json.Number("31")},
		{"0: no default (R18)", "x: 0\n", "integer", nil},
		{"empty string: no type, no default", "x: \"\"\n", nil, nil},
		{"empty string typed by helm-docs, the empty string still allowed", "# -- (int) Port\nx: \"\"\n", []any{"integer", "string"}, nil},
		{"an empty value is null: no type", "x:\n", nil, nil},
		{"~ is null", "x: ~\n", nil, nil},
		{"null typed by helm-docs: the null stays allowed (Helm hands it to a subchart's schema)", "# -- (int) Replicas\nx:\n", []any{"integer", "null"}, nil},
		{"helm-docs type joins the value's", "# -- (string) Port\nx: 80\n", []any{"integer", "string"}, json.Number("80")},
		{"an empty list: no type", "x: []\n", nil, nil},
		{"an empty map: no type", "x: {}\n", nil, nil},
		{"an empty list typed by helm-docs", "# -- (list) Args\nx: []\n", "array", nil},
		{"a list", "x: [a, b]\n", "array", []any{"a", "b"}},
		{"a duration", "x: 30s\n", "string", "30s"},
		{"a huge integer as Helm holds it", "x: 9007199254740993\n", "integer", json.Number("9007199254740992")},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := prop(t, generated(t, c.values), "x")
			assert.Equal(t, c.typ, p["type"])
			assert.Equal(t, c.def, p["default"])
			assert.Equal(t, "X", p["title"])
		})
	}
}

// TestSchemaShapes: objects, lists of objects, mixed lists and merge keys.
func TestSchemaShapes(t *testing.T) {
	s := generated(t, "hosts:\n  - name: a\n    port: 443\n  - name: b\n    paths: [/]\nmixed: [1, two]\nnums: [1, 2.5]\nbase: &b\n  cpu: 1\nres:\n  <<: *b\n  mem: 2\n")
	assert.Equal(t, "https://json-schema.org/draft/2020-12/schema", s["$schema"])
	assert.Equal(t, "object", s["type"])
	assert.Nil(t, s["additionalProperties"], "the root is open (issue 36): a subchart gets global, a user any key Helm accepts")
	hosts := prop(t, s, "hosts")
	items := hosts["items"].(map[string]any)
	assert.Equal(t, "object", items["type"])
	props := items["properties"].(map[string]any)
	assert.Len(t, props, 3, "every element's keys: name, port, paths")
	assert.Nil(t, props["name"].(map[string]any)["default"], "no default below a list")
	assert.Equal(t, map[string]any{}, prop(t, s, "mixed")["items"], "mixed items: no type")
	assert.Equal(t, "number", prop(t, s, "nums")["items"].(map[string]any)["type"])
	assert.Equal(t, "integer", prop(t, s, "res.cpu")["type"], "keys a merge key brings")
	assert.Equal(t, "integer", prop(t, s, "res.mem")["type"])
	assert.Nil(t, prop(t, s, "res")["default"], "objects carry no default: their keys do")
}

// TestSchemaKeyOrder: properties in values.yaml's order.
func TestSchemaKeyOrder(t *testing.T) {
	o, _, err := generateSchema([]byte("zeta: 1\nalpha: 2\nmid:\n  b: 1\n  a: 2\n"))
	require.NoError(t, err)
	props, _ := o.get("properties")
	assert.Equal(t, []string{"zeta", "alpha", "mid"}, props.(*jsonObject).keys)
	mid := props.(*jsonObject).vals["mid"].(*jsonObject)
	inner, _ := mid.get("properties")
	assert.Equal(t, []string{"b", "a"}, inner.(*jsonObject).keys)
}

func TestTitleOf(t *testing.T) {
	for key, want := range map[string]string{
		"replicaCount":         "Replica count",
		"pullPolicy":           "Pull policy",
		"service_account-name": "Service account name",
		"apiURL":               "API URL",
		"tls":                  "TLS",
		"awsAccountId":         "AWS account ID",
		"HTTPServer":           "HTTP server",
		"s3Bucket":             "S3 bucket",
		"kubernetes.io/os":     "Kubernetes io os",
		"AWS":                  "AWS",
		"...":                  "Value",
		"x":                    "X",
		"étéMode":              "Été mode",
	} {
		assert.Equal(t, want, titleOf(key), key)
	}
}

func TestHeadDescription(t *testing.T) {
	for _, c := range []struct {
		name, yaml, desc, typ string
	}{
		{"helm-docs", "# -- the image\nkey: 1\n", "The image.", ""},
		{"helm-docs with type", "# -- (int) Replicas\nkey: 1\n", "Replicas.", "integer"},
		{"continuation lines", "# -- first\n# second line\nkey: 1\n", "First second line.", ""},
		{"@default ends it", "# -- Port\n# @default -- 80\nkey: 1\n", "Port.", ""},
		{"the last -- wins", "# -- old\n# -- New one.\nkey: 1\n", "New one.", ""},
		{"a blank line separates", "# -- not mine\n\nkey: 1\n", "", ""},
		{"plain comment", "# Number of pods\nkey: 1\n", "Number of pods.", ""},
		{"plain comment, first paragraph", "# Number of pods\n#\n# More text\nkey: 1\n", "Number of pods.", ""},
		{"commented-out YAML", "# key: 2\nkey: 1\n", "", ""},
		{"commented-out list", "# - a\nkey: 1\n", "", ""},
		{"helm-tool annotation skipped", "# +docs:property\n# The pods\nkey: 1\n", "The pods.", ""},
		{"helm-tool ignore", "# +docs:ignore\nkey: 1\n", "", ""},
		{"markdown link", "# -- see [docs](https://x.io/a) and `k`\nkey: 1\n", "See docs (https://x.io/a) and k.", ""},
		{"white space", "# --   many\t  spaces  \nkey: 1\n", "Many spaces.", ""},
		{"trailing colon", "# -- For example:\nkey: 1\n", "For example.", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines := strings.Split(c.yaml, "\n")
			line := len(lines) - 1 // the key's line, 1-based
			d, typ := headDescription(lines, line)
			assert.Equal(t, c.desc, d)
			assert.Equal(t, c.typ, typ)
		})
	}
	t.Run("bitnami @param", func(t *testing.T) {
		s := generated(t, "## @param a.b [default: 2] [nullable] Number of pods\n## @param a.c Ignored when helm-docs speaks\na:\n  b: 1\n  # -- From helm-docs\n  c: 2\n")
		assert.Equal(t, "Number of pods.", prop(t, s, "a.b")["description"])
		assert.Equal(t, "From helm-docs.", prop(t, s, "a.c")["description"])
	})
	t.Run("line comment", func(t *testing.T) {
		assert.Equal(t, "When to pull.", prop(t, generated(t, "p: x # when to pull\n"), "p")["description"])
	})
	t.Run("@schema line comment is no description", func(t *testing.T) {
		assert.Nil(t, prop(t, generated(t, "p: x # @schema type:[string, null]\n"), "p")["description"])
	})
}

// TestSchemaGolden: the generated file, byte for byte.
func TestSchemaGolden(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(schemaTestdata, "helm-reading.values.yaml"))
	require.NoError(t, err)
	o, _, err := generateSchema(data)
	require.NoError(t, err)
	out, err := renderSchema(o)
	require.NoError(t, err)
	golden(t, filepath.Join(schemaTestdata, "helm-reading.schema.json"), string(out))
}

// compileSchema compiles a generated schema with the validation engine
// directly (as Helm compiles values.schema.json).
func compileSchema(t testing.TB, doc []byte) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	require.NoError(t, c.AddResource("values.schema.json", bytes.NewReader(doc)))
	s, err := c.Compile("values.schema.json")
	require.NoError(t, err, "%s", doc)
	return s
}

// dropNulls removes nulls from maps, as Helm does with a chart's own
// values before it validates them.
func dropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if e != nil {
				out[k] = dropNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = dropNulls(e)
		}
		return out
	}
	return v
}

// checkRoundTrip: the schema generated from values.yaml compiles and
// accepts values.yaml as Helm reads it (with and without the nulls
// Helm drops).
func checkRoundTrip(t testing.TB, data []byte) {
	t.Helper()
	o, values, err := generateSchema(data)
	if err != nil {
		return
	}
	out, err := renderSchema(o)
	require.NoError(t, err)
	s := compileSchema(t, out)
	require.NoError(t, s.Validate(dropNulls(values)), "%s", out)
}

// TestSchemaRoundTrip on the fixture and on real charts.
func TestSchemaRoundTrip(t *testing.T) {
	files := []string{filepath.Join(schemaTestdata, "helm-reading.values.yaml"), filepath.Join(schemaTestdata, "update", "values.yaml")}
	for _, c := range realCharts {
		files = append(files, filepath.Join(helmTestdata, "charts", c, "values.yaml"))
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			checkRoundTrip(t, data)
		})
	}
}

// unpassable are the cluster-app rules a generated schema can fail,
// with why (the report lists them too). Every other error-level rule
// passes on every chart tried.
var unpassable = map[string]string{
	"R2-type":                   "a null, \"\", [] or {} in values.yaml says nothing of its type (unless other evidence does)",
	"R2-single-type":            "the evidence shows several types (a \"\" default and a number, a port by name or number): the schema accepts each",
	"R16-items-type":            "an empty or mixed list says nothing of its items' one type",
	"R17-root-properties":       "the root keys are the chart's: only a cluster app has metadata, connectivity, controlPlane, nodePools",
	"R17-root-unknown":          "the same: a chart's own root keys are not the RFC's",
	"R6-description-characters": "a comment's HTML-like placeholders (<host>) and Markdown the generator does not rewrite",
}

// TestSchemaClusterAppLint runs paramctl lint --rules cluster-app on the
// generated schemas: no error-level finding outside the rules above, and
// the rules the generator is built to satisfy never fire.
func TestSchemaClusterAppLint(t *testing.T) {
	files := []string{filepath.Join(schemaTestdata, "helm-reading.values.yaml")}
	for _, c := range realCharts {
		files = append(files, filepath.Join(helmTestdata, "charts", c, "values.yaml"))
	}
	must := []string{"R1-dialect", "R3-root-closed", "R4-items", "R5-title", "R5-title-case",
		"R5-title-characters", "R6-description-line-breaks", "R6-description-case", "R9-required-default", "R18-empty-default"}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			code, out, errs := paramctl(t, "", "schema", "--closed", "--fresh", f)
			require.Equal(t, 0, code, errs)
			tmp := filepath.Join(t.TempDir(), "values.schema.json")
			require.NoError(t, os.WriteFile(tmp, []byte(out), 0o644))
			_, lintOut, lintErr := paramctl(t, "", "lint", "--rules", "cluster-app", "-o", "json", tmp)
			var findings []struct{ Rule, Severity, Pointer, Message string }
			require.NoError(t, json.Unmarshal([]byte(lintOut), &findings), lintErr)
			fired := map[string]bool{}
			for _, fd := range findings {
				fired[fd.Rule] = true
				if fd.Severity == "error" {
					assert.Contains(t, unpassable, fd.Rule, "%s: %s", fd.Pointer, fd.Message)
				}
			}
			for _, r := range must {
				assert.False(t, fired[r], "%s fired", r)
			}
		})
	}
}

// TestSchemaUpdateInPlace: an existing hand-written schema gets the keys
// values.yaml gained, spliced in; every byte of the file is kept in
// order (the additions are insertions), the result is the golden, keys
// the schema declares and values.yaml lacks are reported, not removed.
func TestSchemaUpdateInPlace(t *testing.T) {
	dir := filepath.Join(schemaTestdata, "update")
	values, err := os.ReadFile(filepath.Join(dir, "values.yaml"))
	require.NoError(t, err)
	existing, err := os.ReadFile(filepath.Join(dir, "values.schema.json"))
	require.NoError(t, err)
	gen, _, err := generateSchema(values)
	require.NoError(t, err)
	up, err := updateSchema(existing, gen)
	require.NoError(t, err)
	golden(t, filepath.Join(dir, "values.schema.json.golden"), string(up.out))

	// A null key is added without a type (issue 36); the closed root
	// gets global, which Helm adds to a subchart's values.
	assert.Equal(t, []string{"/image/digest", "/tls", "/tls/enabled", "/tls/secretName", "/tls/issuer", "/tls/issuer/kind", "/sidecar/newKnob", "/unset", "/global"}, up.added)
	assert.Equal(t, []string{"/legacyMode"}, up.left)
	assert.Regexp(t, `"unset": \{\s*"title": "Unset"\s*\}`, string(up.out))
	assert.Empty(t, up.failed)
	assert.True(t, isSubsequence(existing, up.out), "every byte of the hand-written file is kept, in order")
	for _, kept := range []string{
		`"tag": {"type": "string", "title": "Tag", "pattern": "^[0-9]+\\.[0-9]+$"}`,
		`"nodeSelector": {"type": "object", "title": "Node selector", "additionalProperties": {"type": "string"}},`,
		`"legacyMode": {"type": "boolean", "title": "Legacy mode", "deprecated": true}`,
		"\"$comment\": \"hand-written: keep my layout\",\n",
	} {
		assert.Contains(t, string(up.out), kept)
	}
	assert.NotContains(t, string(up.out), `"kubernetes.io/os"`, "a free-form map gets no properties")

	// The result accepts the values, and a second run adds nothing.
	compileSchema(t, up.out)
	again, err := updateSchema(up.out, gen)
	require.NoError(t, err)
	assert.Empty(t, again.added)
	assert.Equal(t, string(up.out), string(again.out))
}

// isSubsequence reports whether every byte of a appears in b in order.
func isSubsequence(a, b []byte) bool {
	i := 0
	for j := 0; i < len(a) && j < len(b); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}

// TestSchemaUpdateRefusal: a key schema/edit cannot add (the schema says
// its parent is a string) fails the run: exit 1, nothing written.
func TestSchemaUpdateRefusal(t *testing.T) {
	dir := t.TempDir()
	schemaFile := filepath.Join(dir, "values.schema.json")
	doc := `{"type": "object", "properties": {"a": {"type": "string", "properties": {}}}}` + "\n"
	require.NoError(t, os.WriteFile(schemaFile, []byte(doc), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte("a:\n  b: 1\n"), 0o644))
	code, _, errs := paramctl(t, "", "schema", "--write", dir)
	assert.Equal(t, 1, code, errs)
	assert.Contains(t, errs, "/a/b: not added")
	got, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	assert.Equal(t, doc, string(got))
}

func TestSchemaCommand(t *testing.T) {
	dir := t.TempDir()
	values := "# -- Number of pods\nreplicas: 2\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte(values), 0o644))
	schemaFile := filepath.Join(dir, "values.schema.json")

	code, out, errs := paramctl(t, "", "schema", dir)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, `"description": "Number of pods."`)
	_, err := os.Stat(schemaFile)
	assert.True(t, os.IsNotExist(err), "printing writes nothing")

	code, _, errs = paramctl(t, "", "schema", "--check", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "missing")

	code, _, errs = paramctl(t, "", "schema", dir, "--write")
	require.Equal(t, 0, code, errs)
	written, err := os.ReadFile(schemaFile)
	require.NoError(t, err)
	assert.Equal(t, out, string(written))

	code, _, errs = paramctl(t, "", "schema", "--check", dir)
	assert.Equal(t, 0, code, errs)

	// values.yaml gains a key: --check fails, --write adds it in place.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte(values+"port: 80\n"), 0o644))
	code, _, errs = paramctl(t, "", "schema", "--check", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs, "/port: added")
	assert.Contains(t, errs, "stale")
	code, _, errs = paramctl(t, "", "schema", "--write", dir)
	require.Equal(t, 0, code, errs)
	code, _, errs = paramctl(t, "", "schema", "--check", dir)
	assert.Equal(t, 0, code, errs)

	// A key leaves values.yaml: kept, not stale, and nothing said about
	// what did not change (issue 36).
	require.NoError(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte("port: 80\n"), 0o644))
	code, _, errs = paramctl(t, "", "schema", "--check", dir)
	assert.Equal(t, 0, code, errs)
	assert.Empty(t, errs)

	for _, c := range []struct {
		name  string
		args  []string
		stdin string
		code  int
		err   string
	}{
		{"no argument", []string{"schema"}, "", 2, "usage"},
		{"both flags", []string{"schema", "--write", "--check", dir}, "", 2, "exclude each other"},
		{"missing file", []string{"schema", filepath.Join(dir, "nope.yaml")}, "", 2, "nope.yaml: no such file or directory"},
		{"values Helm cannot read", []string{"schema", "-"}, "- a\n- b\n", 2, "Helm cannot read the values"},
		{"malformed YAML", []string{"schema", "-"}, "a: [\n", 2, "Helm cannot read the values"},
		{"standard input needs --schema to write", []string{"schema", "--write", "-"}, "a: 1\n", 2, "--schema"},
		{"a schema that is not JSON", []string{"schema", "--schema", filepath.Join(dir, "values.yaml"), "-"}, "a: 1\n", 2, "expected a JSON Schema"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := paramctl(t, c.stdin, c.args...)
			assert.Equal(t, c.code, code, errs)
			assert.Contains(t, errs, c.err)
		})
	}
	t.Run("comment-only values", func(t *testing.T) {
		code, out, errs := paramctl(t, "# nothing yet\n", "schema", "-")
		require.Equal(t, 0, code, errs)
		assert.JSONEq(t, `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}`, out)
	})
}

// FuzzGenerateSchema: any values.yaml bytes: no panic; where Helm reads
// them, the schema compiles and accepts the values it came from.
func FuzzGenerateSchema(f *testing.F) {
	seeds := []string{"", "a: 1\n", "a: [1, b]\n", "# -- (int) x\na:\n", "a: &x {b: 1}\nc: *x\n", "a:\n  - b: 1\n  - b: x\n",
		"a: 1.10\nb: yes\nc: 0x1F\n", "--- \na: 1\n---\nb: 2\n", "a: {b: [[], {}]}\n", "'': 1\n", "a~/b: 1\n", "a: 1\na: x\n",
		// Commented-out keys (issue 36).
		"# nameOverride:\n# -- (int) n\n# limit: 10\na:\n  b: 1\n  # c:\n  #   d: [1, x]\n# a.e -- text\n",
		"r: {}\n  # limits:\n  #   cpu: 1\n# x: |\n#   y\nz: |\n  # w: 1\n", "#\n#:\n# :\n# '': 1\n# \"a\": [\n", "a:\n  # b: 1\n---\n# c: 2\nd: 1\n"}
	for _, c := range realCharts {
		if data, err := os.ReadFile(filepath.Join(helmTestdata, "charts", c, "values.yaml")); err == nil && c == "prometheus-mysql-exporter" {
			seeds = append(seeds, string(data))
		}
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		checkRoundTrip(t, data)
		// Updating the generated schema from the same values changes
		// nothing and reports nothing.
		gen, _, err := generateSchema(data)
		if err != nil {
			return
		}
		out, err := renderSchema(gen)
		require.NoError(t, err)
		up, err := updateSchema(out, gen)
		require.NoError(t, err)
		assert.Empty(t, up.added)
		assert.Empty(t, up.left)
		assert.Empty(t, up.failed)
		assert.Equal(t, string(out), string(up.out))
	})
}

// BenchmarkGenerateSchema: traefik's values.yaml (about 1,000 keys, many
// comments) to its schema text.
func BenchmarkGenerateSchema(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(helmTestdata, "charts", "traefik", "values.yaml"))
	require.NoError(b, err)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		o, _, err := generateSchema(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := renderSchema(o); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSchemaRulesListed keeps the report's list of rules a generated
// schema cannot pass sorted and named by real rules.
func TestSchemaRulesListed(t *testing.T) {
	_, out, _ := paramctl(t, "", "lint", "--list-rules", "--rules", "cluster-app")
	var ids []string
	for id := range unpassable {
		ids = append(ids, id)
		assert.Contains(t, out, id)
	}
	sort.Strings(ids)
	assert.NotEmpty(t, ids)
}

// schemaTypes maps each values path of a schema (a list's items as /[])
// to its type: a string, a list of strings, or nil for no type. An anyOf
// whose branches all declare one type counts as that type, as
// dadav/helm-schema writes list items.
func schemaTypes(doc map[string]any) map[string]any {
	out := map[string]any{}
	typeOf := func(n map[string]any) any {
		if t, ok := n["type"]; ok {
			return t
		}
		l, _ := n["anyOf"].([]any)
		var one any
		for i, b := range l {
			bm, _ := b.(map[string]any)
			if i > 0 && !reflectEqual(bm["type"], one) {
				return nil
			}
			one = bm["type"]
		}
		return one
	}
	var walk func(n map[string]any, path string, depth int)
	walk = func(n map[string]any, path string, depth int) {
		if depth > 60 {
			return
		}
		if props, ok := n["properties"].(map[string]any); ok {
			for k, v := range props {
				if c, ok := v.(map[string]any); ok {
					p := path + "/" + escapeToken(k)
					out[p] = typeOf(c)
					walk(c, p, depth+1)
				}
			}
		}
		if it, ok := n["items"].(map[string]any); ok {
			out[path+"/[]"] = typeOf(it)
			walk(it, path+"/[]", depth+1)
		}
	}
	walk(doc, "", 0)
	return out
}

// helmValueAt finds the value at a schema path in Helm's reading of the
// values (the first element for /[]); ok is false where there is none.
func helmValueAt(values any, path string) (v any, ok bool) {
	v = values
	for _, tok := range strings.Split(path, "/")[1:] {
		if tok == "[]" {
			l, isList := v.([]any)
			if !isList || len(l) == 0 {
				return nil, false
			}
			v = l[0]
			continue
		}
		m, isMap := v.(map[string]any)
		if !isMap {
			return nil, false
		}
		if v, ok = m[strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")]; !ok {
			return nil, false
		}
	}
	return v, true
}

// TestSchemaAgreesWithGenerators compares the types paramctl assigns with
// the ones helm-values-schema-json and dadav/helm-schema assigned on the
// same charts (recorded in testdata/schema/generators.json). paramctl
// differs from both only where Helm's reading decides against them or
// says nothing: a null in values.yaml (they write type null, which
// refuses any value a user sets; paramctl writes no type, or the one
// helm-docs' "# -- (TYPE)" names), and an empty value ("", [], {}),
// which they type by its kind and paramctl leaves open (issue 36: a ""
// default refused servicePort: 80).
func TestSchemaAgreesWithGenerators(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(schemaTestdata, "generators.json"))
	require.NoError(t, err)
	var rec struct {
		Charts map[string]map[string][2]any `json:"charts"`
	}
	require.NoError(t, json.Unmarshal(data, &rec))
	require.Len(t, rec.Charts, len(realCharts))
	total, allAgree, withHVSJ, withDadav, nulls, empties, widened := 0, 0, 0, 0, 0, 0, 0
	for _, chart := range realCharts {
		values, err := os.ReadFile(filepath.Join(helmTestdata, "charts", chart, "values.yaml"))
		require.NoError(t, err)
		if chart == "traefik" { // recorded without its # @schema annotations
			values = regexpSchemaAnnotation.ReplaceAll(values, nil)
		}
		mine := schemaTypes(generated(t, string(values)))
		helm, err := readHelmValues(values)
		require.NoError(t, err)
		for path, theirs := range rec.Charts[chart] {
			got, ok := mine[path]
			if !assert.True(t, ok, "%s: paramctl has no %s", chart, path) {
				continue
			}
			total++
			h, d := reflectEqual(got, theirs[0]), reflectEqual(got, theirs[1])
			if h {
				withHVSJ++
			}
			if d {
				withDadav++
			}
			if h && d {
				allAgree++
				continue
			}
			v, found := helmValueAt(helm, path)
			switch {
			case found && v == nil:
				nulls++
				assert.NotEqual(t, "null", got, "%s %s", chart, path)
			case found && emptyValue(v) && got == nil:
				empties++
			case found && intOrString(path[strings.LastIndex(path, "/")+1:], typeBit(kindName(v))) != 0:
				widened++
				assert.IsType(t, []any{}, got, "%s %s: an int-or-string field takes both", chart, path)
			case h || d:
				// one of them agrees: the other's own reading (see the report)
			default:
				t.Errorf("%s %s: paramctl %v, helm-values-schema-json %v, helm-schema %v (Helm reads %#v)", chart, path, got, theirs[0], theirs[1], v)
			}
		}
	}
	t.Logf("%d paths compared: all three agree on %d, paramctl and helm-values-schema-json on %d, paramctl and helm-schema on %d; %d differ on a null, %d on an empty value, %d on an int-or-string field", total, allAgree, withHVSJ, withDadav, nulls, empties, widened)
	assert.Greater(t, total, 1500)
	// Off the nulls, the empty values and the int-or-string fields
	// (among them alertmanager's probe port "http", which
	// helm-values-schema-json v2.2.1 leaves untyped), both agree on every
	// path.
	assert.Equal(t, total-nulls-empties-widened, withDadav)
	assert.Equal(t, total-nulls-empties-widened, withHVSJ)
}

// kindName is the JSON type name of a plain value.
func kindName(v any) string {
	switch x := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return "number"
		}
		return "integer"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

var regexpSchemaAnnotation = regexp.MustCompile(`[ \t]*# @schema[^\n]*`)

func reflectEqual(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// TestSchemaUpdateBelowSecret: keys added below a writeOnly (or format:
// password) node get no default, so no value lands in the schema.
func TestSchemaUpdateBelowSecret(t *testing.T) {
	for _, mark := range []string{`"writeOnly": true`, `"format": "password"`} {
		doc := `{"type": "object", "properties": {"db": {"type": "object", ` + mark + `, "properties": {"user": {"type": "string"}}}}}`
		gen, _, err := generateSchema([]byte("db:\n  user: a\n  pass: hunter2\n  more: {x: hunter3}\nopen: visible\n"))
		require.NoError(t, err)
		up, err := updateSchema([]byte(doc), gen)
		require.NoError(t, err)
		assert.Equal(t, []string{"/db/pass", "/db/more", "/db/more/x", "/open"}, up.added)
		assert.NotContains(t, string(up.out), "hunter", mark)
		assert.Contains(t, string(up.out), `"default": "visible"`, "outside the secret, defaults stay")
	}
}
