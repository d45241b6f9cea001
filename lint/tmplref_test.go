package lint

import (
	"fmt"
	iofs "io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

func refStrings(refs []templateRef) []string {
	out := []string{}
	for _, r := range refs {
		out = append(out, fmt.Sprintf("%d:%s", r.Line, strings.Join(r.Path, ".")))
	}
	return out
}

// TestTemplateRefs: each way a template refers to a parameter counts,
// with its line.
func TestTemplateRefs(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		refs  []string
		whole bool
	}{
		{"field", "a: {{ .Params.memory }}", []string{"1:memory"}, false},
		{"nested field", "{{ .Params.backup.enabled }}", []string{"1:backup.enabled"}, false},
		{"root variable", "{{ $.Params.x }}", []string{"1:x"}, false},
		{"index", `{{ index .Params "comma," }}`, []string{"1:comma,"}, false},
		{"index nested", `{{ index .Params "backup" "schedule" }}`, []string{"1:backup.schedule"}, false},
		{"index by variable is any parameter", `{{ range $n := list "a" }}{{ index .Params $n }}{{ end }}`, []string{}, false},
		{"pipeline", "{{ .Params.memory | quote }}\n{{ default 3 .Params.replicas }}", []string{"1:memory", "2:replicas"}, false},
		{"with", "{{ with .Params.backup }}\n{{ .schedule }}{{ $.Params.name }}{{ end }}", []string{"1:backup", "2:backup.schedule", "2:name"}, false},
		{"with else keeps the dot", "{{ with .Params.a }}{{ else }}{{ .Params.b }}{{ end }}", []string{"1:a", "1:b"}, false},
		{"with .Params moves the dot only", "{{ with .Params }}{{ .replicas }}{{ end }}", []string{"1:replicas"}, false},
		{"range elements", "{{ range .Params.nodes }}\n{{ .name }}{{ end }}", []string{"1:nodes", "2:nodes.*.name"}, false},
		{"range with variables", "{{ range $i, $n := .Params.nodes }}{{ $n.zone }}{{ $i }}{{ end }}", []string{"1:nodes", "1:nodes.*.zone"}, false},
		{"variable", "{{ $b := .Params.backup }}\n{{ $b.enabled }}", []string{"1:backup", "2:backup.enabled"}, false},
		{"if", "{{ if .Params.tls }}x{{ end }}", []string{"1:tls"}, false},
		{"eq", `{{ if eq .Params.mode "fast" }}x{{ end }}`, []string{"1:mode"}, false},
		{"chain", `{{ (index .Params "backup").schedule }}`, []string{"1:backup", "1:backup.schedule"}, false},
		{"define", `{{ define "x" }}{{ .Params.inner }}{{ end }}{{ template "x" . }}`, []string{"1:inner"}, false},
		{"other data", "{{ .Name }}{{ .Namespace }}{{ .Pipes.x }}", []string{}, false},
		{"toYaml .Params", "{{ toYaml .Params }}", []string{}, true},
		{"range .Params", "{{ range $k, $v := .Params }}{{ $k }}{{ end }}", []string{}, true},
		{"comment", "{{/* .Params.nothing */}}", []string{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			refs, whole, err := templateRefs("t.yaml", tc.text)
			require.NoError(t, err)
			assert.ElementsMatch(t, tc.refs, refStrings(refs))
			assert.Equal(t, tc.whole, whole)
		})
	}
	_, _, err := templateRefs("t.yaml", "a\n{{ .Params.x ")
	assert.ErrorContains(t, err, "t.yaml:2")
}

// FuzzTemplateRefs: no template makes the extractor panic, and every
// reference has a path and a line inside the text.
func FuzzTemplateRefs(f *testing.F) {
	for _, s := range []string{
		"{{ .Params.a }}", `{{ index .Params "b" "c" }}`, "{{ range .Params.l }}{{ .x }}{{ end }}",
		"{{ with $.Params.w }}{{ .y }}{{ else }}{{ .Params.z }}{{ end }}", "{{ $v := .Params.q }}{{ $v.r }}",
		"{{ define \"d\" }}{{ .Params.e }}{{ end }}", "{{ (index .Params \"f\").g | quote }}", "{{ .Params",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		refs, _, err := templateRefs("f", text)
		if err != nil {
			return
		}
		lines := strings.Count(text, "\n") + 1
		for _, r := range refs {
			if len(r.Path) == 0 || r.Line < 1 || r.Line > lines {
				t.Fatalf("bad reference %+v", r)
			}
		}
	})
}

// A KUDO package as data: params, the operator's plans, templates.
func ExamplePackage_Lint() {
	pkg := &Package{
		ParamsFile: "params.yaml",
		Params: []byte(`apiVersion: kudo.dev/v1beta1
parameters:
  - name: memory
    default: "1Gi"
  - name: cpus
    default: "0.25"
    trigger: restart
  - name: replicas
    type: integer
    default: 1
`),
		OperatorFile: "operator.yaml",
		Plans:        []string{"deploy", "update"},
		Templates: map[string][]byte{
			"templates/pod.yaml": []byte("memory: {{ .Params.memory }}\ncpu: {{ .Params.cpu }}\n"),
		},
	}
	fs, err := pkg.Lint(kudoSet)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range fs {
		fmt.Printf("%s:%d %s %s\n", f.File, f.Line, f.Rule, f.Pointer)
	}
	// Output:
	// params.yaml:7 kudo-package-plan /parameters/1/trigger
	// params.yaml:8 kudo-package-unused /parameters/2
	// templates/pod.yaml:2 kudo-package-undefined
}

func TestReadPackage(t *testing.T) {
	fsys := fstest.MapFS{
		"operator.yaml":        {Data: []byte("name: x\nplans:\n  deploy: {}\n  backup: {}\n")},
		"params.yaml":          {Data: []byte("a:\n  default: 1\n")},
		"templates/a.yaml":     {Data: []byte("{{ .Params.a }}")},
		"templates/sub/b.yaml": {Data: []byte("b")},
		"README.md":            {Data: []byte("not read")},
	}
	pkg, err := ReadPackage(fsys)
	require.NoError(t, err)
	assert.Equal(t, []string{"backup", "deploy"}, pkg.Plans)
	assert.Equal(t, "operator.yaml", pkg.OperatorFile)
	assert.Len(t, pkg.Templates, 2)
	assert.Contains(t, pkg.Templates, "templates/sub/b.yaml")
	fs, err := pkg.Lint(kudoSet)
	require.NoError(t, err)
	assert.Empty(t, fs)

	_, err = ReadPackage(fstest.MapFS{"x.yaml": {Data: []byte("a: 1")}})
	assert.ErrorIs(t, err, iofs.ErrNotExist)
	assert.EqualError(t, err, "not a KUDO package folder: it holds neither params.yaml nor operator.yaml")

	// Without operator.yaml the plans are unknown: no plan check.
	pkg, err = ReadPackage(fstest.MapFS{"params.yaml": {Data: []byte("a:\n  default: 1\n  trigger: any\n")}})
	require.NoError(t, err)
	assert.Nil(t, pkg.Plans)
	fs, err = pkg.Lint(kudoSet)
	require.NoError(t, err)
	for _, f := range fs {
		assert.NotEqual(t, "kudo-package-plan", f.Rule)
	}
	assert.True(t, isOperatorFile([]byte("name: x\ntasks: []\n")))
	assert.False(t, isOperatorFile([]byte("kind: OperatorVersion\nplans: {}\n")))
}

// The package rules are silent outside a package.
func TestPackageRulesNeedAPackage(t *testing.T) {
	fs, err := Document([]byte("type: object\nproperties:\n  Cpus: {type: string}\n  cpus: {type: string}\n  'comma,': {type: string, trigger: nowhere}\n"), kudoSet)
	require.NoError(t, err)
	for _, f := range fs {
		assert.NotContains(t, f.Rule, "kudo-package-")
	}
}

func TestLintCRD(t *testing.T) {
	crd := []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  versions:
    - name: v1beta1
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, properties: {a: {type: string, enum: [x], default: y}}}
    - name: v1
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, properties: {a: {type: string, enum: [x], default: z}}}
`)
	fs, err := Document(crd, kudoSet, structuralSet)
	require.NoError(t, err)
	var got []string
	for _, f := range fs {
		got = append(got, f.Rule+" "+f.Pointer+" "+strings.SplitN(f.Message, ":", 2)[0])
	}
	assert.Equal(t, []string{
		"kudo-enum-default /spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/a/default version v1beta1",
		"structural-default /spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/a/default version v1beta1",
		"kudo-enum-default /spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/a/default version v1",
		"structural-default /spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/a/default version v1",
	}, got)
	_, err = Document([]byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  versions: [{name: v1}]\n"), kudoSet)
	assert.Equal(t, schema.KindNotFound, schema.ErrorsOf(err)[0].Kind, "a CRD without a schema: %v", err)
}

// FuzzLintPackage: no params file or template makes Package.Lint panic or
// a rule crash; every finding names its file.
func FuzzLintPackage(f *testing.F) {
	f.Add([]byte("a:\n  default: 1\n  trigger: x\n"), "{{ .Params.a.b }}{{ index .Params \"c\" }}")
	f.Add([]byte("type: object\nproperties:\n  b: {type: object, properties: {c: {type: integer}}}\n"), "{{ range .Params.b }}{{ .c }}{{ end }}")
	f.Add([]byte("parameters:\n  - name: 'x,'\n  - name: X\n"), "{{ with $.Params }}{{ .X }}{{ end }}")
	f.Fuzz(func(t *testing.T, params []byte, tmpl string) {
		pkg := &Package{ParamsFile: "params.yaml", Params: params, OperatorFile: "operator.yaml", Plans: []string{"deploy"},
			toggles: []toggle{{Task: "t", Parameter: "a"}}, Templates: map[string][]byte{"templates/t.yaml": []byte(tmpl)}}
		fs, err := pkg.Lint(kudoSet)
		if err != nil {
			return
		}
		for _, x := range fs {
			if strings.HasPrefix(x.Message, "rule crashed") {
				t.Fatalf("%s: %s", x.Rule, x.Message)
			}
			if x.File == "" {
				t.Fatalf("finding without a file: %+v", x)
			}
		}
	})
}

// TestLintPackagePlacesFindings: a schema finding about a parameter
// points into the params file as written, whatever its format, with its
// line.
func TestLintPackagePlacesFindings(t *testing.T) {
	tests := []struct {
		name, params, pointer string
		line                  int
	}{
		{"list", "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: b\n  - name: a\n    enum: [x]\n    default: y\n", "/parameters/1/default", 6},
		{"first format", "b: {}\na:\n  enum: [x]\n  default: y\n", "/a/default", 4},
		{"v1beta2", "apiVersion: kudo.dev/v1beta2\ntype: object\nproperties:\n  b: {}\n  a: {type: string, enum: [x], default: y}\n", "/properties/a/default", 5},
		{"schema labelled v1beta1", "apiVersion: kudo.dev/v1beta1\ntype: object\nproperties:\n  b: {}\n  a: {type: string, enum: [x], default: y}\n", "/properties/a/default", 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pkg := &Package{ParamsFile: "params.yaml", Params: []byte(tc.params),
				Templates: map[string][]byte{"templates/t.yaml": []byte("{{ .Params.a }}{{ .Params.b }}")}}
			fs, err := pkg.Lint(kudoSet)
			require.NoError(t, err)
			require.Len(t, fs, 1, "%+v", fs)
			assert.Equal(t, "kudo-enum-default", fs[0].Rule)
			assert.Equal(t, tc.pointer, fs[0].Pointer)
			assert.Equal(t, "params.yaml", fs[0].File)
			assert.Equal(t, tc.line, fs[0].Line)
			assert.Equal(t, `parameter "a": the default "y" is not one of the enum values ["x"]: add it to the enum or change the default`, fs[0].Message)
		})
	}
}

// TestPackageFindingsNameTheParameter: every finding of a package about a
// parameter names it, as KUDO's verifier does (`plan "x" used in
// parameter "y" is not defined`), whatever the rule and the params
// format; a nested parameter by its path. Findings about no parameter
// (the root, a template) are left as they are.
func TestPackageFindingsNameTheParameter(t *testing.T) {
	tests := []struct {
		name, params string
		want         []string // rule: message, in the order lint gives
	}{
		{"list", "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: size\n    trigger: resize\n  - name: Size\n    enum: [a]\n    default: b\n", []string{
			`kudo-package-plan: parameter "size": trigger "resize" names a plan operator.yaml does not declare (it declares deploy)`,
			`kudo-package-name-case: parameter "Size" differs from "size" only by case: one is easily taken for the other`,
			`kudo-enum-default: parameter "Size": the default "b" is not one of the enum values ["a"]: add it to the enum or change the default`,
			`kudo-package-undefined: .Params.backup: no parameter "backup" is declared`,
		}},
		{"first format", "size:\n  trigger: resize\n  example: 3\n", []string{
			`kudo-package-plan: parameter "size": trigger "resize" names a plan operator.yaml does not declare (it declares deploy)`,
			`kudo-package-undefined: .Params.Size: no parameter "Size" is declared`,
			`kudo-package-undefined: .Params.backup: no parameter "backup" is declared`,
		}},
		{"v1beta2, nested", "apiVersion: kudo.dev/v1beta2\ntype: object\ndescripton: root\nproperties:\n  size: {type: string}\n  backup:\n    type: object\n    properties:\n      enabled: {type: boolean, default: \"yes\", trigger: backup}\n      targets:\n        type: array\n        items:\n          type: object\n          properties:\n            region: {type: string, imutable: true}\n", []string{
			`kudo-misspelt-keyword: unknown keyword "descripton": did you mean "description"?`,
			`kudo-default-invalid: parameter "backup.enabled": the default "yes" does not satisfy its own schema: expected boolean, but got string`,
			`kudo-package-plan: parameter "backup.enabled": trigger "backup" names a plan operator.yaml does not declare (it declares deploy)`,
			`kudo-misspelt-keyword: parameter "backup.targets[].region": unknown keyword "imutable": did you mean "immutable"?`,
			`kudo-package-undefined: .Params.Size: no parameter "Size" is declared`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pkg := &Package{ParamsFile: "params.yaml", Params: []byte(tc.params), OperatorFile: "operator.yaml", Plans: []string{"deploy"},
				Templates: map[string][]byte{"templates/t.yaml": []byte("{{ .Params.size }}{{ .Params.backup }}{{ .Params.Size }}")}}
			fs, err := pkg.Lint(kudoSet)
			require.NoError(t, err)
			var got []string
			for _, f := range fs {
				got = append(got, f.Rule+": "+f.Message)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestParameterOf(t *testing.T) {
	for ptr, want := range map[string]string{
		"":                         "",
		"/properties":              "",
		"/trigger":                 "",
		"/$defs/a/trigger":         "",
		"/properties/a":            "a",
		"/properties/a/default":    "a",
		"/properties/a~1b/trigger": "a/b",
		"/properties/a/properties": "a",
		"/properties/backup/properties/enabled/default":               "backup.enabled",
		"/properties/list/items/properties/x/trigger":                 "list[].x",
		"/properties/pair/items/1/enum":                               "pair[1]",
		"/properties/pair/prefixItems/0":                              "pair[0]",
		"/properties/labels/additionalProperties/maxLength":           "labels.*",
		"/properties/labels/patternProperties/^a/type":                "labels.*",
		"/properties/a/allOf/0/properties/b/default":                  "a.b",
		"/properties/a/anyOf/1/type":                                  "a",
		"/properties/a/allOf":                                         "a",
		"/properties/a/not/properties/b":                              "a",
		"/properties/a/properties/b/$ref":                             "a.b",
		"/properties/a/items/properties/b/items/additionalProperties": "a[].b[].*",
	} {
		assert.Equal(t, want, parameterOf(ptr), ptr)
	}
}

// The parameters one template refers to, with their lines.
func TestTemplateRefsWithLines(t *testing.T) {
	refs, whole, err := templateRefs("sts.yaml", "{{ with .Params.backup }}\nschedule: {{ .schedule }}\n{{ end }}\nx: {{ index .Params \"comma,\" }}\n")
	require.NoError(t, err)
	assert.False(t, whole)
	require.Len(t, refs, 3)
	for i, want := range []struct {
		line int
		path []string
	}{{1, []string{"backup"}}, {2, []string{"backup", "schedule"}}, {4, []string{"comma,"}}} {
		assert.Equal(t, want.line, refs[i].Line)
		assert.Equal(t, want.path, refs[i].Path)
	}
}
