package schema_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

var update = flag.Bool("update", false, "rewrite golden files")

// dumpTree renders the node tree, one node a line, in walk order, so a
// golden file shows both what was read and the source order.
func dumpTree(s *schema.Schema) string {
	var b strings.Builder
	s.Walk(func(n *schema.Node) bool {
		depth := strings.Count(n.Pointer(), "/")
		fmt.Fprintf(&b, "%s%q name=%q via=%s", strings.Repeat("  ", depth), n.Pointer(), n.Name(), n.Via())
		if t := n.Types(); t != nil {
			fmt.Fprintf(&b, " type=%v", t)
		}
		if n.HasDefault() {
			raw, _ := json.Marshal(n.Default())
			fmt.Fprintf(&b, " default=%s", raw)
		}
		if n.Required() {
			b.WriteString(" required")
		}
		if n.Title() != "" {
			fmt.Fprintf(&b, " title=%q", n.Title())
		}
		if n.Trigger() != "" {
			fmt.Fprintf(&b, " trigger=%s", n.Trigger())
		}
		if n.Immutable() {
			b.WriteString(" immutable")
		}
		if len(n.OldNames()) > 0 {
			fmt.Fprintf(&b, " oldName=%v", n.OldNames())
		}
		if n.Deprecated() {
			b.WriteString(" deprecated")
		}
		b.WriteString("\n")
		return true
	})
	return b.String()
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test -update")
	assert.Equal(t, string(want), got)
}

func TestKEPSchemasGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/kep/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s, err := parseSchemaFile(f)
			if strings.Contains(f, "kep-typo") {
				require.Error(t, err)
				golden(t, strings.TrimSuffix(f, ".yaml")+".errors.golden", err.Error()+"\n")
				return
			}
			require.NoError(t, err)
			golden(t, strings.TrimSuffix(f, ".yaml")+".tree.golden", dumpTree(s))
		})
	}
}

func TestDialects(t *testing.T) {
	tests := []struct {
		src  string
		want string
		err  string
	}{
		{src: `{"type":"object"}`, want: "https://json-schema.org/draft/2020-12/schema"},
		{src: `{"$schema":"http://json-schema.org/draft-07/schema#"}`, want: "http://json-schema.org/draft-07/schema#"},
		{src: `{"$schema":"https://json-schema.org/draft-07/schema"}`, want: "http://json-schema.org/draft-07/schema#"},
		{src: `{"$schema":"https://json-schema.org/draft/2019-09/schema"}`, want: "https://json-schema.org/draft/2019-09/schema"},
		{src: `{"$schema":"https://json-schema.org/draft/2020-12/schema"}`, want: "https://json-schema.org/draft/2020-12/schema"},
		{src: `{"$schema":"http://json-schema.org/draft-04/schema#"}`, want: "http://json-schema.org/draft-04/schema#"},
		{src: `{"$schema":"http://json-schema.org/draft-04/schema"}`, want: "http://json-schema.org/draft-04/schema#"},
		{src: `{"$schema":"http://json-schema.org/draft-06/schema#"}`, want: "http://json-schema.org/draft-06/schema#"},
		{src: `{"$schema":"http://json-schema.org/draft-03/schema#"}`, err: `/$schema: unknown dialect`},
		{src: `{"$schema":"https://example.com/my-dialect"}`, err: `/$schema: unknown dialect`},
		{src: `{"$schema":5}`, err: `/$schema: unknown dialect`},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.src))
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, s.Dialect())
		})
	}
}

func TestInvalidSchemasNameThePlace(t *testing.T) {
	tests := []struct {
		name, src string
		pointer   string
		contains  string
	}{
		{"immutable yes", "type: object\nproperties:\n  a:\n    type: string\n    immutable: \"yes\"\n", "/properties/a/immutable", "immutable must be a boolean"},
		{"immutable yes plain yaml stays string", "properties:\n  a: {immutable: yes}\n", "/properties/a/immutable", "immutable must be a boolean"},
		{"empty trigger", "properties:\n  a: {trigger: \"\"}\n", "/properties/a/trigger", "trigger must be a non-empty string"},
		{"trigger number", "properties:\n  a: {trigger: 3}\n", "/properties/a/trigger", "trigger must be a non-empty string"},
		{"oldName number", "properties:\n  a: {oldName: 3}\n", "/properties/a/oldName", "oldName must be"},
		{"oldName empty list", "properties:\n  a: {oldName: []}\n", "/properties/a/oldName", "oldName must be"},
		{"type int", "properties:\n  a: {type: int}\n", "/properties/a/type", "invalid keyword value"},
		{"properties not object", "properties: 5\n", "/properties", "invalid keyword value"},
		{"required not list", "required: a\n", "/required", "invalid keyword value"},
		{"minimum string", "properties:\n  a: {minimum: \"3\"}\n", "/properties/a/minimum", "invalid keyword value"},
		{"unresolvable pointer ref", `{"properties":{"a":{"$ref":"#/$defs/missing"}}}`, "/properties/a/$ref", "does not resolve"},
		{"unresolvable anchor", `{"properties":{"a":{"$ref":"#nowhere"}}}`, "/properties/a/$ref", "does not resolve"},
		{"number too large", `{"maximum": 1e999999999}`, "/maximum", "out of the supported range"},
		{"array root", `[1,2]`, "", "must be an object or a boolean"},
		{"string root", `hello`, "", "must be an object or a boolean"},
		{"bad yaml", "a: [\n", "", "line"},
		{"duplicate key", "type: object\ntype: string\n", "/type", "duplicate key"},
		{"empty", "", "", "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := schema.Parse([]byte(tt.src))
			require.Error(t, err)
			var list schema.ErrorList
			require.True(t, problem.As(err, &list), "error is a schema.ErrorList: %T", err)
			require.NotEmpty(t, list)
			found := false
			for _, e := range list {
				// Error() and not Message: a syntax error's line is its Line.
				if e.Pointer == tt.pointer && strings.Contains(e.Error(), tt.contains) {
					found = true
				}
			}
			assert.True(t, found, "want an error at %q containing %q, got %v", tt.pointer, tt.contains, err)
		})
	}
}

func TestAllSchemaErrorsAtOnce(t *testing.T) {
	_, err := schema.Parse([]byte("properties:\n  a: {immutable: 1}\n  b: {trigger: 2}\n  c: {oldName: 3}\n"))
	var list schema.ErrorList
	require.True(t, problem.As(err, &list))
	var ptrs []string
	for _, e := range list {
		ptrs = append(ptrs, e.Pointer)
	}
	assert.Equal(t, []string{"/properties/a/immutable", "/properties/b/trigger", "/properties/c/oldName"}, ptrs)
}

func TestRefsStayInsideTheDocument(t *testing.T) {
	refused := []string{
		"http://example.com/schema.json",
		"https://example.com/schema.json#/definitions/a",
		"file:///etc/passwd",
		"/etc/passwd",
		"other.json",
		"../secrets.yaml#/a",
		"http://localhost:1234/integer.json",
	}
	for _, ref := range refused {
		t.Run(ref, func(t *testing.T) {
			src := fmt.Sprintf(`{"properties":{"a":{"$ref":%q}}}`, ref)
			_, err := schema.Parse([]byte(src))
			require.Error(t, err)
			var list schema.ErrorList
			require.True(t, problem.As(err, &list))
			assert.Equal(t, "/properties/a/$ref", list[0].Pointer)
			assert.Contains(t, list[0].Message, "refused")
			assert.NotContains(t, err.Error(), "root:", "no file content may leak into the message")
		})
	}
	allowed := map[string]string{
		"definitions":     `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"type":"integer"}},"properties":{"x":{"$ref":"#/definitions/a"}}}`,
		"$defs":           `{"$defs":{"a":{"type":"integer"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`,
		"anchor":          `{"$defs":{"a":{"$anchor":"num","type":"integer"}},"properties":{"x":{"$ref":"#num"}}}`,
		"draft7 anchor":   `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"$id":"#num","type":"integer"}},"properties":{"x":{"$ref":"#num"}}}`,
		"embedded $id":    `{"$id":"https://example.com/root.json","$defs":{"a":{"$id":"https://example.com/int.json","type":"integer"}},"properties":{"x":{"$ref":"int.json"}}}`,
		"embedded $id pt": `{"$id":"https://example.com/root.json","$defs":{"a":{"$id":"other.json","$defs":{"i":{"type":"integer"}}}},"properties":{"x":{"$ref":"other.json#/$defs/i"}}}`,
	}
	for name, src := range allowed {
		t.Run(name, func(t *testing.T) {
			s, err := schema.Parse([]byte(src))
			require.NoError(t, err)
			n := s.Lookup("/x")
			require.NotNil(t, n)
			assert.Equal(t, []string{"integer"}, n.Types(), "lookup goes through the $ref")
			assert.NoError(t, s.Validate(map[string]any{"x": json.Number("3")}))
			assert.Error(t, s.Validate(map[string]any{"x": "3"}))
		})
	}
	metas := []string{
		`{"properties":{"s":{"$ref":"https://json-schema.org/draft/2020-12/schema"}}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"s":{"$ref":"http://json-schema.org/draft-07/schema#"}}}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","properties":{"s":{"$ref":"https://json-schema.org/draft/2019-09/schema"}}}`,
	}
	for _, src := range metas {
		s, err := schema.Parse([]byte(src))
		require.NoError(t, err, "built-in meta-schemas resolve without a fetch")
		assert.NoError(t, s.Validate(map[string]any{"s": map[string]any{"type": "string"}}))
		assert.Error(t, s.Validate(map[string]any{"s": map[string]any{"type": json.Number("5")}}))
	}
}

func TestLookupGovernsValuePointers(t *testing.T) {
	src := `
$defs:
  label:
    type: object
    properties:
      key: {type: string}
      value: {type: string}
type: object
properties:
  topology:
    type: array
    items:
      type: object
      properties:
        datacenterName: {type: string}
        labels:
          type: array
          items: {$ref: "#/$defs/label"}
  tuple:
    type: array
    prefixItems: [{type: string}, {type: integer}]
    items: {type: boolean}
  annotations:
    type: object
    additionalProperties: {type: string}
  ports:
    type: object
    patternProperties:
      "^port-": {type: integer}
  merged:
    allOf:
    - properties: {a: {type: integer}}
    - properties: {b: {type: boolean}}
  "0": {type: string}
`
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err)
	tests := map[string]string{
		"/topology/0/labels/1/key":   "/$defs/label/properties/key",
		"/topology/3/datacenterName": "/properties/topology/items/properties/datacenterName",
		"/tuple/0":                   "/properties/tuple/prefixItems/0",
		"/tuple/1":                   "/properties/tuple/prefixItems/1",
		"/tuple/7":                   "/properties/tuple/items",
		"/annotations/anything":      "/properties/annotations/additionalProperties",
		"/ports/port-http":           "/properties/ports/patternProperties/^port-",
		"/merged/a":                  "/properties/merged/allOf/0/properties/a",
		"/merged/b":                  "/properties/merged/allOf/1/properties/b",
		"/0":                         "/properties/0",
		"":                           "",
	}
	for vp, want := range tests {
		n := s.Lookup(vp)
		if assert.NotNil(t, n, vp) {
			assert.Equal(t, want, n.Pointer(), vp)
		}
	}
	assert.Nil(t, s.Lookup("/nothing/here"))
	assert.Nil(t, s.Lookup("/ports/other"))
}

func TestChildrenKeepSourceOrder(t *testing.T) {
	src := "properties:\n  zeta: {}\n  alpha: {}\n  mid: {}\n  beta: {}\n"
	s, err := schema.Parse([]byte(src))
	require.NoError(t, err)
	var names []string
	for _, p := range s.Root().Properties() {
		names = append(names, p.Name())
	}
	assert.Equal(t, []string{"zeta", "alpha", "mid", "beta"}, names)
	j, err := schema.Parse([]byte(`{"properties":{"zeta":{},"alpha":{},"mid":{},"beta":{}}}`))
	require.NoError(t, err)
	names = nil
	for _, p := range j.Root().Properties() {
		names = append(names, p.Name())
	}
	assert.Equal(t, []string{"zeta", "alpha", "mid", "beta"}, names, "JSON keeps its order too")
}

func TestKudoFilesCarryApiVersion(t *testing.T) {
	s, err := parseSchemaFile("testdata/kep/zookeeper.yaml")
	require.NoError(t, err)
	n := s.Lookup("/Zookeeper/URI")
	require.NotNil(t, n)
	assert.True(t, n.Required())
	assert.Equal(t, "zookeeper-instance-zookeeper-0.zookeeper-instance-hs:2181", n.Default())
}

func TestConcurrentUseOfOneSchema(t *testing.T) {
	s, err := parseSchemaFile("testdata/kep/upgraded.yaml")
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				v := map[string]any{"clusterName": fmt.Sprint("c", i), "backup": map[string]any{"enabled": j%2 == 0}}
				assert.NoError(t, s.Validate(v))
				assert.Error(t, s.Validate(map[string]any{"clusterName": json.Number("1")}))
				assert.NotNil(t, s.Lookup("/backup/credentials/name"))
			}
		}(i)
	}
	wg.Wait()
}

func TestErrorListCarryPointers(t *testing.T) {
	s, err := parseSchemaFile("testdata/kep/upgraded.yaml")
	require.NoError(t, err)
	err = s.Validate(map[string]any{
		"clusterName": json.Number("5"),
		"backup":      map[string]any{"credentials": map[string]any{"name": true}},
	})
	var list schema.ErrorList
	require.True(t, problem.As(err, &list))
	got := map[string]string{}
	for _, e := range list {
		got[e.Pointer] += e.Message + ";"
	}
	assert.Contains(t, got["/clusterName"], "expected string")
	assert.Contains(t, got["/backup/enabled"], "missing required property: \"enabled\"")
	assert.Contains(t, got["/backup/credentials/password"], "missing required property: \"password\"")
	assert.Contains(t, got["/backup/credentials/name"], "expected string")
}

func TestBooleanSchemas(t *testing.T) {
	for src, valid := range map[string]bool{"true": true, "false": false} {
		s, err := schema.Parse([]byte(src))
		require.NoError(t, err)
		assert.Equal(t, valid, s.Valid(json.Number("1")))
		assert.Equal(t, valid, s.Valid("x"))
		assert.NotNil(t, s.Root().Bool())
	}
}

func TestJSONEscapesYAMLDoesNotKnow(t *testing.T) {
	s, err := schema.Parse([]byte(`{"properties":{"url":{"type":"string","default":"http:\/\/example.com","description":"a \/ b"},"b":{}}}`))
	require.NoError(t, err)
	n := s.Lookup("/url")
	require.NotNil(t, n)
	assert.Equal(t, "http://example.com", n.Default())
	var names []string
	for name := range s.Root().Properties() {
		names = append(names, name)
	}
	assert.Equal(t, []string{"url", "b"}, names, "source order kept for JSON")
}

func TestWideSharedAnyOfStaysCheap(t *testing.T) {
	// d0 is anyOf ten refs to d1, d1 ten refs to d2, ... : 10^8 paths
	// through a small schema. Lookups must visit each node once.
	defs := []string{}
	for i := 0; i < 8; i++ {
		var branches []string
		for j := 0; j < 10; j++ {
			branches = append(branches, fmt.Sprintf(`{"$ref":"#/$defs/d%d"}`, i+1))
		}
		defs = append(defs, fmt.Sprintf(`"d%d":{"anyOf":[%s]}`, i, strings.Join(branches, ",")))
	}
	defs = append(defs, `"d8":{"type":"object"}`)
	s, err := schema.Parse([]byte(`{"$ref":"#/$defs/d0","$defs":{` + strings.Join(defs, ",") + `}}`))
	require.NoError(t, err)
	done := make(chan struct{})
	go func() {
		defer close(done)
		assert.Nil(t, s.Lookup("/a/b/c"))
		assert.Nil(t, s.Root().Elem(3))
		_ = s.Root().Types()
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("lookups through shared anyOf branches did not finish")
	}
}

// TestRefusedRefsInPointerOrder: refused $refs are found walking a map,
// yet every Parse lists them in the same order, by pointer.
func TestRefusedRefsInPointerOrder(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"properties": {`)
	const n = 12
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"p%02d": {"$ref": "http://example.com/s%02d.json"}`, i, i)
	}
	b.WriteString(`}}`)
	for run := 0; run < 20; run++ {
		_, err := schema.Parse([]byte(b.String()))
		var list schema.ErrorList
		require.True(t, problem.As(err, &list))
		require.Len(t, list, n)
		for i, e := range list {
			require.Equal(t, fmt.Sprintf("/properties/p%02d/$ref", i), e.Pointer, "run %d", run)
			require.Equal(t, schema.KindRefused, e.Kind)
		}
	}
}
