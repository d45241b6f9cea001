package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// Every finding on every schema in testdata points into that schema.
func TestPointersResolve(t *testing.T) {
	files, err := filepath.Glob("testdata/rules/*/*.yaml")
	require.NoError(t, err)
	files = append(files, largeSchema)
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			fs := largeFindings(t)
			if f != largeSchema {
				fs, err = Document(data, kudoSet, clusterAppSet)
				require.NoError(t, err, f)
			}
			doc, _, err := decode(data)
			require.NoError(t, err)
			for _, x := range fs {
				_, ok := pointer.Get(doc, x.Pointer)
				assert.True(t, ok, "%s: %s points to %q, which does not resolve", f, x.Rule, x.Pointer)
			}
		})
	}
}

const largeSchema = "testdata/large-values.schema.json"

var (
	largeOnce sync.Once
	large     []Finding
	largeErr  error
)

// largeFindings lints the large schema once for the tests that look at it.
func largeFindings(t *testing.T) []Finding {
	largeOnce.Do(func() {
		data, err := os.ReadFile(largeSchema)
		if err != nil {
			largeErr = err
			return
		}
		large, largeErr = Document(data, clusterAppSet, kudoSet)
	})
	require.NoError(t, largeErr)
	return large
}

// A shared definition's faults are reported once, at the definition,
// however often it is used; a title at the $ref counts.
func TestSharedDefinitionReportedOnce(t *testing.T) {
	src := []byte(`
type: object
properties:
  a: {$ref: "#/$defs/pool", title: Pool a}
  b: {$ref: "#/$defs/pool", title: Pool b}
  c: {$ref: "#/$defs/pool"}
  d: {$ref: "#/$defs/pool"}
$defs:
  pool:
    type: object
    properties:
      size:
        type: integer
        title: Size Of Pool
        trigger: x
`)
	fs, err := Document(src, clusterAppSet)
	require.NoError(t, err)
	byRule := map[string][]string{}
	for _, f := range fs {
		byRule[f.Rule] = append(byRule[f.Rule], f.Pointer)
	}
	// c and d have no title and nor has the definition: one finding there.
	assert.Equal(t, []string{"/$defs/pool"}, byRule["R5-title"])
	assert.Equal(t, []string{"/$defs/pool/properties/size/title"}, byRule["R5-title-case"])
	assert.Equal(t, []string{"/$defs/pool/properties/size"}, byRule["R8-number-constraint"])

	// In the large schema, nothing about the shared image definition is
	// reported at one of its forty-six uses.
	for _, f := range largeFindings(t) {
		assert.NotContains(t, f.Pointer, "/properties/image", "%v", f)
	}
}

func TestRunWithoutCompiledSchema(t *testing.T) {
	doc := map[string]any{"type": "int", "properties": map[string]any{"a": map[string]any{"enum": []any{"x"}, "default": "y"}}}
	fs := Run(nil, doc, kudoSet)
	rules := map[string]bool{}
	for _, f := range fs {
		rules[f.Rule] = true
	}
	assert.True(t, rules["schema-compile"], "compile errors are findings: %v", fs)
	assert.True(t, rules["kudo-enum-default"], "document rules still run: %v", fs)
}

func TestRunWithCompiledSchema(t *testing.T) {
	s, err := schema.Parse([]byte(`{"properties": {"a": {"type": "integer", "minimum": 1, "default": 0}}}`))
	require.NoError(t, err)
	fs := Run(s, nil, kudoSet)
	require.Len(t, fs, 1)
	assert.Equal(t, "kudo-default-invalid", fs[0].Rule)
	assert.Equal(t, "/properties/a/default", fs[0].Pointer)
}

func TestRuleInSeveralSetsRunsOnce(t *testing.T) {
	fs, err := Document([]byte("type: int\n"), kudoSet, clusterAppSet)
	require.NoError(t, err)
	n := 0
	for _, f := range fs {
		if f.Rule == "schema-compile" {
			n++
		}
	}
	assert.Equal(t, 1, n)
}

func TestCrashingRuleIsAFinding(t *testing.T) {
	boom := &Rule{ID: "boom", Severity: Warning, Run: func(p *Pass) { panic("kaboom") }}
	fs, err := Document([]byte("{}"), &Set{Name: "x", Rules: []*Rule{boom}})
	require.NoError(t, err)
	require.Len(t, fs, 1)
	assert.Equal(t, Error, fs[0].Severity)
	assert.Contains(t, fs[0].Message, "kaboom")
}

func TestUnresolvablePointerMovesUp(t *testing.T) {
	r := &Rule{ID: "up", Severity: Info, DocOnly: true, Run: func(p *Pass) { p.Report("/properties/a/nope/deeper", "m") }}
	fs, err := Document([]byte(`{"properties": {"a": {}}}`), &Set{Name: "x", Rules: []*Rule{r}})
	require.NoError(t, err)
	require.Len(t, fs, 1)
	assert.Equal(t, "/properties/a", fs[0].Pointer)
}

func TestLintRefusesMalformed(t *testing.T) {
	for _, in := range []string{"a: [1,\n", "{\"a\": 1, \"a\": 2}", "a: 1\na: 2\n"} {
		_, err := Document([]byte(in), kudoSet)
		assert.Error(t, err, in)
	}
	// Empty and scalar documents are well-formed: findings, not errors.
	for _, in := range []string{"", "3", "null"} {
		fs, err := Document([]byte(in), kudoSet)
		require.NoError(t, err, in)
		assert.NotEmpty(t, fs, in)
	}
}

func TestLocate(t *testing.T) {
	src := []byte("type: object\nproperties:\n  a:\n    enum: [x]\n    default: y\n")
	fs, err := Document(src, kudoSet)
	require.NoError(t, err)
	locate(src, fs)
	require.Len(t, fs, 1)
	assert.Equal(t, 5, fs[0].Line)
	assert.Equal(t, 5, fs[0].Column)
	// Line and column stay out of the JSON form.
	b, _ := json.Marshal(fs[0])
	assert.NotContains(t, string(b), "line")
}

func TestSuggestKeyword(t *testing.T) {
	for in, want := range map[string]string{
		"trigers": "trigger", "imutable": "immutable", "oldname": "oldName", "Trigger": "trigger",
		"descripton": "description", "requried": "required", "additionalproperties": "additionalProperties",
		"ref": "$ref", "defs": "$defs", "propertys": "properties", "exclusiveMinimun": "exclusiveMinimum",
		"apiVersion": "", "kind": "", "x-foo": "", "note": "", "max": "", "labels": "",
	} {
		assert.Equal(t, want, suggestKeyword(in), in)
	}
}

func TestTextHelpers(t *testing.T) {
	for s, want := range map[string]bool{
		"Cluster name": true, "AWS region": true, "vSphere datacenter": true, "Kube-proxy mode": true,
		"Cluster Name": false, "cluster name": false, "Etcd Kubernetes": true, "GitHub token": true,
	} {
		assert.Equal(t, want, caseProblem(s) == "", s)
	}
	for s, want := range map[string]bool{
		"Cluster name": false, "Name.": true, "TCP/UDP": false, "Cluster's name": true, "Size (GB)": true, "a-b": false, "-a": true,
	} {
		_, got := punctuationIn(s)
		assert.Equal(t, want, got, s)
	}
	for s, want := range map[string]bool{
		"Plain text.": false, "Use `x`.": true, "A <b>bold</b> word.": true, "See [docs](http://x).": true,
		"**Bold** text.": true, "1 < 2 and 3 > 2.": false, "# Heading": true, "- item": true, "A *word* here.": true, "snake_case_name is fine.": false,
	} {
		assert.Equal(t, want, markupIn(s) != "", s)
	}
	assert.True(t, repeats("Cluster name identifies the cluster.", "Cluster name"))
	assert.True(t, repeats("The port of the endpoint.", "Port"))
	assert.False(t, repeats("Container port of the endpoint.", "Port"))
	assert.True(t, containsIdentifier("The baseDomain is set.", "baseDomain"))
	assert.False(t, containsIdentifier("The baseDomains are set.", "baseDomain"))
}

// A chain of definitions, each used twice by the one above, holds 2^40
// paths; the rules visit each definition a bounded number of times.
func TestSharedDefinitionsDoNotExplode(t *testing.T) {
	var b strings.Builder
	b.WriteString("type: object\nproperties:\n  top: {$ref: '#/$defs/d0'}\n$defs:\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "  d%d:\n    type: object\n    immutable: true\n    properties:\n", i)
		for _, name := range []string{"a", "b"} {
			fmt.Fprintf(&b, "      %s: {$ref: '#/$defs/d%d', trigger: x, immutable: false}\n", name, i+1)
		}
	}
	b.WriteString("  d40: {type: string, trigger: y}\n")
	done := make(chan []Finding)
	go func() {
		fs, err := Document([]byte(b.String()), kudoSet, clusterAppSet)
		assert.NoError(t, err)
		done <- fs
	}()
	select {
	case fs := <-done:
		assert.NotEmpty(t, fs)
	case <-time.After(time.Minute):
		t.Fatal("linting a chain of shared definitions does not finish")
	}
}
