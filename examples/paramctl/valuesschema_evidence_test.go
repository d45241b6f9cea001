package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// generatedFrom runs the generator with overlays and returns the schema
// as plain JSON values.
func generatedFrom(t *testing.T, values string, src schemaSources) map[string]any {
	t.Helper()
	g, err := generateSchemaFrom([]byte(values), src)
	require.NoError(t, err)
	out, err := renderSchema(g.root)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(out, &m))
	return m
}

// isDeclared reports whether a values path (a.b.c) is a property.
func isDeclared(s map[string]any, path string) bool {
	n := s
	for _, k := range strings.Split(path, ".") {
		props, ok := n["properties"].(map[string]any)
		if !ok {
			return false
		}
		if n, ok = props[k].(map[string]any); !ok {
			return false
		}
	}
	return true
}

// TestSchemaCommentedKeys: keys values.yaml documents as commented-out
// YAML (plain, under helm-docs' "# --", or helm-docs' "# path -- text")
// are declared, typed from their commented value (none for an empty
// one), with no default (Helm has none); prose with a colon, examples
// under an empty map, a list's items and block scalars are not keys.
func TestSchemaCommentedKeys(t *testing.T) {
	for _, c := range []struct {
		name, values, path string
		typ                any // "-": not declared
		desc               string
	}{
		{"an empty commented key (ingress-nginx nameOverride)", "## Overrides for generated resource names\n# See templates/_helpers.tpl\n# nameOverride:\n# fullnameOverride:\nreplicas: 1\n", "nameOverride", nil, ""},
		{"the second of a block", "# nameOverride:\n# fullnameOverride:\nreplicas: 1\n", "fullnameOverride", nil, ""},
		{"helm-docs above a commented key (promtail)", "# -- The number of old ReplicaSets to retain\n# revisionHistoryLimit: 10\nreplicas: 1\n", "revisionHistoryLimit", "integer", "The number of old ReplicaSets to retain."},
		{"a commented path (blackbox configPath)", "config: {}\n# configPath: /config/blackbox.yaml\n", "configPath", "string", ""},
		{"an empty string: open", "# nameOverride: \"\"\nreplicas: 1\n", "nameOverride", nil, ""},
		{"nested in a map values.yaml writes", "controller:\n  image: x\n  # -- Extra args\n  # extraArgs:\n  #   v: 2\n", "controller.extraArgs", "object", "Extra args."},
		{"a commented block's keys", "controller:\n  image: x\n  # extraArgs:\n  #   v: 2\n", "controller.extraArgs.v", "integer", ""},
		{"before the first key of its map", "controller:\n  # nameOverride: web\n  image: x\n", "controller.nameOverride", "string", ""},
		{"after the last key of its map", "controller:\n  image: x\n  # replicas: 2\nother: 1\n", "controller.replicas", "integer", ""},
		{"helm-docs' older form", "# controller.name -- (string) The name\ncontroller:\n  image: x\n", "controller.name", "string", "The name."},
		{"a quoted key", "# \"my-key\": true\nother: 1\n", "my-key", "boolean", ""},
		{"a flow list", "# args: [a, b]\nother: 1\n", "args", "array", ""},
		{"a block list", "# args:\n# - a\n# - b\nother: 1\n", "args", "array", ""},

		{"examples under an empty map stay free-form", "resources: {}\n  # limits:\n  #   cpu: 100m\n", "resources.limits", "-", ""},
		{"examples under an empty map, at its column", "resources: {}\n# limits:\n#   cpu: 100m\nother: 1\n", "resources.limits", "-", ""},
		{"a reference is prose", "# ref: https://kubernetes.io/docs/\nother: 1\n", "ref", "-", ""},
		{"a capitalised word is prose", "# Note: this matters\nother: 1\n", "Note", "-", ""},
		{"several unquoted words are prose", "# mode: set this to on to turn it on\nother: 1\n", "mode", "-", ""},
		{"prose with spaces before the colon", "# the following keys: a, b\nother: 1\n", "the following keys", "-", ""},
		{"inside a block scalar", "config: |\n  # secretKey: abc\n  real: x\nother: 1\n", "secretKey", "-", ""},
		{"a deeper column than its map's keys", "controller:\n  image: x\n    # odd: 1\n", "controller.odd", "-", ""},
		{"helm-tool's unknown type (cert-manager minAvailable)", "pdb:\n  enabled: false\n  # It can be 1 or 25%.\n  # +docs:property\n  # +docs:type=unknown\n  # minAvailable: 1\n", "pdb.minAvailable", nil, "It can be 1 or 25%."},
		{"helm-tool's type", "pdb:\n  enabled: false\n  # +docs:type=string\n  # policy: AlwaysAllow\n", "pdb.policy", "string", ""},
		{"helm-tool's unknown type on a real key", "# +docs:type=unknown\nmaxSurge: 1\n", "maxSurge", nil, ""},
		{"a language server's directive", "# yaml-language-server: $schema=values.schema.json\nother: 1\n", "yaml-language-server", "-", ""},
		{"a real key wins", "# replicas: \"3\"\nreplicas: 1\n", "replicas", "integer", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := generated(t, c.values)
			if c.typ == "-" {
				assert.False(t, isDeclared(s, c.path), "%s declared", c.path)
				return
			}
			require.True(t, isDeclared(s, c.path), "%s not declared in %v", c.path, s)
			p := prop(t, s, c.path)
			assert.Equal(t, c.typ, p["type"])
			if !strings.Contains(c.name, "real key") {
				assert.Nil(t, p["default"], "Helm has no default for a commented key")
			}
			if c.desc != "" {
				assert.Equal(t, c.desc, p["description"])
			}
		})
	}
	t.Run("not inside a list's items", func(t *testing.T) {
		items := prop(t, generated(t, "list:\n  - a: 1\n    # b: 2\n"), "list")["items"].(map[string]any)
		assert.Equal(t, []string{"a"}, keysOf(items["properties"].(map[string]any)))
	})
	t.Run("in values.yaml's order", func(t *testing.T) {
		o, _, err := generateSchema([]byte("a: 1\n# b: 2\nc: 3\n"))
		require.NoError(t, err)
		props, _ := o.get("properties")
		assert.Equal(t, []string{"a", "b", "c"}, props.(*jsonObject).keys)
	})
}

// TestSchemaOverlayEvidence: overlays are evidence of keys and types;
// an empty value leaves the type open alone and is kept allowed beside
// other evidence.
func TestSchemaOverlayEvidence(t *testing.T) {
	ov := func(y string) overlayValues {
		v, err := readHelmValues([]byte(y))
		require.NoError(t, err)
		return overlayValues{name: "ci/x.yaml", values: v}
	}
	values := "service:\n  servicePort: \"\"\n  annotations: {}\nnodePorts:\n  http: \"\"\nports: []\nimage: {tag: v1}\n"
	s := generatedFrom(t, values, schemaSources{overlays: []overlayValues{
		ov("service:\n  servicePort: 80\n  annotations: {a: b}\nmyDomain: example.com\nports: [80]\nimage: {tag: 2}\n"),
		ov("service:\n  servicePort: null\n"),
	}})
	assert.Equal(t, []any{"integer", "string"}, prop(t, s, "service.servicePort")["type"], "node-exporter's servicePort: 80 overlay")
	assert.Nil(t, prop(t, s, "nodePorts.http")["type"], "no other evidence: open (--set controller.service.nodePorts.http=30080)")
	assert.Equal(t, "string", prop(t, s, "myDomain")["type"], "a root key an overlay adds (blackbox myDomain)")
	assert.Nil(t, prop(t, s, "myDomain")["default"], "an overlay's value is no default")
	assert.Equal(t, "object", prop(t, s, "service.annotations")["type"])
	assert.Equal(t, "array", prop(t, s, "ports")["type"])
	assert.Equal(t, map[string]any{"type": "integer"}, prop(t, s, "ports")["items"])
	assert.Equal(t, []any{"integer", "string"}, prop(t, s, "image.tag")["type"])
	assert.Equal(t, "v1", prop(t, s, "image.tag")["default"])
}

// TestSchemaClosedRoot: --closed closes the root and still allows global.
func TestSchemaClosedRoot(t *testing.T) {
	s := generatedFrom(t, "a: 1\n", schemaSources{closed: true})
	assert.Equal(t, false, s["additionalProperties"])
	assert.Equal(t, "object", prop(t, s, "global")["type"])
	s = generatedFrom(t, "global:\n  registry: r\na: 1\n", schemaSources{closed: true})
	assert.Equal(t, "r", prop(t, s, "global.registry")["default"], "values.yaml's own global is kept")
	assert.Nil(t, generated(t, "a: 1\n")["additionalProperties"], "open by default")
}

func TestSecretKey(t *testing.T) {
	for key, want := range map[string]bool{
		"password": true, "adminPassword": true, "apiKey": true, "api_key": true, "token": true, "authToken": true,
		"clientSecret": true, "secretKey": true, "privateKey": true, "accessKey": true, "secret": true, "passphrase": true,
		"existingSecret": false, "secretName": false, "passwordSecretKey": false, "tokenTTL": false, "passwordFile": false,
		"secretRef": false, "name": false, "keyFile": false, "key": false, "monkey": false, "tokenEnabled": false,
		"createSecret": false,
	} {
		assert.Equal(t, want, secretKey(key), key)
	}
}

// TestSchemaSecretNoDefault: a value whose key reads as a secret is
// never written as default; the property is writeOnly and standard
// error says so, when generating and when updating (issue 35 item 5).
func TestSchemaSecretNoDefault(t *testing.T) {
	dir := t.TempDir()
	values := "auth:\n  adminPassword: hunter2\n  existingSecret: my-secret\n  token: \"\"\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte(values), 0o644))
	code, out, errs := paramctl(t, "", "schema", "--write", dir)
	require.Equal(t, 0, code, errs)
	written, err := os.ReadFile(filepath.Join(dir, "values.schema.json"))
	require.NoError(t, err)
	assert.NotContains(t, string(written), "hunter2")
	assert.Empty(t, out)
	assert.Contains(t, errs, "/auth/adminPassword: reads as a secret: its value is not written as default (writeOnly: true)")
	var s map[string]any
	require.NoError(t, json.Unmarshal(written, &s))
	assert.Equal(t, true, prop(t, s, "auth.adminPassword")["writeOnly"])
	assert.Equal(t, "my-secret", prop(t, s, "auth.existingSecret")["default"], "a reference to a secret is no secret")
	assert.Nil(t, prop(t, s, "auth.token")["writeOnly"], "no value withheld: nothing to say")

	// An update adds a new secret the same way.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte(values+"  apiKey: abc123\n"), 0o644))
	code, _, errs = paramctl(t, "", "schema", "--write", dir)
	require.Equal(t, 0, code, errs)
	written, err = os.ReadFile(filepath.Join(dir, "values.schema.json"))
	require.NoError(t, err)
	assert.NotContains(t, string(written), "abc123")
	assert.Contains(t, errs, "/auth/apiKey: added")
	assert.Contains(t, errs, "/auth/apiKey: reads as a secret")
	assert.NotContains(t, errs, "adminPassword", "nothing said about what did not change")
}

// TestSchemaCommandEvidence: the command reads the chart's ci/*.yaml
// (unless --ci=false) and -f files; an update adds a null key and
// --check counts it; a run that changes nothing says only that.
func TestSchemaCommandEvidence(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "ci"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte("port: \"\"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ci", "a.yaml"), []byte("port: 80\nmyDomain: x.io\n"), 0o644))
	extra := filepath.Join(dir, "extra.yaml")
	require.NoError(t, os.WriteFile(extra, []byte("debug: true\n"), 0o644))

	code, out, errs := paramctl(t, "", "schema", dir)
	require.Equal(t, 0, code, errs)
	var s map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &s))
	assert.Equal(t, []any{"integer", "string"}, prop(t, s, "port")["type"])
	assert.True(t, isDeclared(s, "myDomain"))
	assert.False(t, isDeclared(s, "debug"))

	code, out, errs = paramctl(t, "", "schema", "--ci=false", "-f", extra, dir)
	require.Equal(t, 0, code, errs)
	s = nil
	require.NoError(t, json.Unmarshal([]byte(out), &s))
	assert.Nil(t, prop(t, s, "port")["type"])
	assert.False(t, isDeclared(s, "myDomain"))
	assert.Equal(t, "boolean", prop(t, s, "debug")["type"])

	code, _, errs = paramctl(t, "", "schema", "-f", filepath.Join(dir, "nope.yaml"), dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "nope.yaml")

	code, _, errs = paramctl(t, "", "schema", "--write", dir)
	require.Equal(t, 0, code, errs)
	code, _, errs = paramctl(t, "", "schema", "--write", dir)
	require.Equal(t, 0, code, errs)
	assert.Equal(t, filepath.Join(dir, "values.schema.json")+": up to date\n", errs, "one line, nothing per key")

	// A null key is added (no type), and --check sees it missing.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "values.yaml"), []byte("port: \"\"\nnewKey:\n"), 0o644))
	code, _, errs = paramctl(t, "", "schema", "--check", dir)
	assert.Equal(t, 1, code, errs)
	assert.Contains(t, errs, "/newKey: added")
	code, _, errs = paramctl(t, "", "schema", "--write", dir)
	require.Equal(t, 0, code, errs)
	code, _, errs = paramctl(t, "", "schema", "--check", dir)
	assert.Equal(t, 0, code, errs)
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestSchemaUpdateEvidence: updating a hand-written schema follows the
// generator's rules: commented-out keys and overlay keys are added, a
// "" default with a number in an overlay as a type list, an empty one
// with no type; what the schema declares stays as written.
func TestSchemaUpdateEvidence(t *testing.T) {
	existing := []byte(`{"type": "object", "properties": {"port": {"type": "string", "title": "Port"}}}` + "\n")
	ov, err := readHelmValues([]byte("port: 80\nmyDomain: x.io\nservicePort: 8080\n"))
	require.NoError(t, err)
	g, err := generateSchemaFrom([]byte("port: \"\"\nservicePort: \"\"\n# nameOverride:\n# -- Pods kept\n# revisionHistoryLimit: 10\n"), schemaSources{overlays: []overlayValues{{name: "ci/a.yaml", values: ov}}})
	require.NoError(t, err)
	up, err := updateSchema(existing, g.root)
	require.NoError(t, err)
	assert.Equal(t, []string{"/servicePort", "/nameOverride", "/revisionHistoryLimit", "/myDomain"}, up.added)
	var s map[string]any
	require.NoError(t, json.Unmarshal(up.out, &s))
	assert.Equal(t, "string", prop(t, s, "port")["type"], "declared: kept as written")
	assert.Equal(t, []any{"integer", "string"}, prop(t, s, "servicePort")["type"])
	assert.Nil(t, prop(t, s, "nameOverride")["type"])
	assert.Equal(t, "integer", prop(t, s, "revisionHistoryLimit")["type"])
	assert.Equal(t, "Pods kept.", prop(t, s, "revisionHistoryLimit")["description"])
	assert.Equal(t, "string", prop(t, s, "myDomain")["type"])
	assert.True(t, isSubsequence(existing, up.out))
}

// TestSchemaNullDefaultStaysAllowed: a key values.yaml sets to null and
// other evidence types (helm-docs' "(bool)", an overlay, a commented-out
// value) takes null beside that type. Helm hands a subchart's own null
// to its schema whenever the parent sets any of the subchart's values
// (traefik's `offline:  # -- (bool)` refused as a subchart, found by
// test/helm's TestGeneratedSchemasHelm); a null with no other evidence
// stays untyped, and a null in an overlay (which Helm's merge deletes)
// adds nothing.
func TestSchemaNullDefaultStaysAllowed(t *testing.T) {
	ov := func(y string) overlayValues {
		v, err := readHelmValues([]byte(y))
		require.NoError(t, err)
		return overlayValues{name: "ci/x.yaml", values: v}
	}
	values := "hub:\n  # -- (bool) Disables all external network connections.\n  offline:\n  # -- (int) A limit.\n  maxRequestBodySize:\n  token:\ndeployment:\n  revisionHistoryLimit:\n  replicas: 1\nlist:\n  - name: a\n    value:\n  - name: b\n    value: x\n"
	s := generatedFrom(t, values, schemaSources{overlays: []overlayValues{ov("deployment:\n  revisionHistoryLimit: 10\n  replicas: null\n")}})
	for _, c := range []struct {
		path string
		typ  any
	}{
		{"hub.offline", []any{"boolean", "null"}},
		{"hub.maxRequestBodySize", []any{"integer", "null"}},
		{"hub.token", nil},
		{"deployment.revisionHistoryLimit", []any{"integer", "null"}},
		{"deployment.replicas", "integer"},
	} {
		assert.Equal(t, c.typ, prop(t, s, c.path)["type"], c.path)
	}
	items := prop(t, s, "list")["items"].(map[string]any)
	assert.Equal(t, []any{"string", "null"}, items["properties"].(map[string]any)["value"].(map[string]any)["type"], "a null in a list element")
}
