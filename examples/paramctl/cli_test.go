package main

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCLIExplainsItself covers issue 16's command-line behaviour: exit
// codes, suggestions, version, help spelling, files named once.
func TestCLIExplainsItself(t *testing.T) {
	tests := []cliCase{
		{name: "help for an unknown command exits 2", args: []string{"help", "nosuch"}, code: 2,
			err: []string{`unknown command "nosuch"`, "'paramctl help' lists every command"}, notOut: []string{"Commands:"}},
		{name: "help for a mistyped command suggests", args: []string{"help", "updat"}, code: 2, err: []string{"did you mean update?"}},
		{name: "help for a known command", args: []string{"help", "update"}, code: 0, out: []string{"usage: paramctl update", "--schema FILE", "--values FILE", "-p KEY=VALUE", "-P FILE", "-o FORMAT"}},
		{name: "mistyped command suggests", args: []string{"valdate"}, code: 2, err: []string{`unknown command "valdate": did you mean validate?`}},
		{name: "far-off command suggests nothing", args: []string{"frobnicate"}, code: 2, err: []string{`unknown command "frobnicate" (`}, notEr: []string{"did you mean"}},
		{name: "mistyped flag suggests", args: []string{"validate", "--schem", "x"}, code: 2,
			err: []string{"unknown flag --schem: did you mean --schema? ('paramctl validate --help' lists its flags)", "usage: paramctl validate"}},
		{name: "mistyped flag with one dash", args: []string{"update", "-vaules", "x"}, code: 2, err: []string{"unknown flag --vaules: did you mean --values?"}},
		{name: "far-off flag suggests nothing", args: []string{"validate", "--zzzzzz"}, code: 2, err: []string{"unknown flag --zzzzzz ("}, notEr: []string{"did you mean", "flag provided but not defined"}},
		{name: "help spells long flags --flag", args: []string{"validate", "--help"}, code: 0, out: []string{"  --schema ", "  -o "}, notOut: []string{"  -schema"}},
		{name: "missing schema file named once", args: []string{"validate", "--schema", "nope.yaml", "x.yaml"}, code: 2,
			err: []string{"nope.yaml: no such file or directory"}, notEr: []string{"open nope.yaml"}},
		{name: "missing values file named once", args: []string{"validate", "--schema", demoSchema, "nope.yaml"}, code: 2,
			err: []string{"nope.yaml: no such file or directory\n"}, notEr: []string{"open nope.yaml"}},
		{name: "missing --values named once", args: []string{"update", "--schema", demoSchema, "--values", "nope.yaml"}, code: 2,
			err: []string{"--values nope.yaml: no such file or directory\n"}, notEr: []string{"open nope.yaml"}},
		{name: "missing -P named once", args: []string{"update", "--schema", demoSchema, "-P", "nope.yaml"}, code: 2,
			err: []string{"-P nope.yaml: no such file or directory\n"}, notEr: []string{"open nope.yaml"}},
		{name: "missing convert input named once", args: []string{"convert", "nope.yaml"}, code: 2,
			err: []string{"nope.yaml: no such file or directory\n"}, notEr: []string{"open nope.yaml"}},
		{name: "unusable schema says why validate exits 2", args: []string{"validate", "--schema", "testdata/cli/type-int.yaml", "demo/update-values.yaml"}, code: 2,
			err: []string{"testdata/cli/type-int.yaml: /properties/a/type:", "testdata/cli/type-int.yaml: the schema is unusable, so this command stops (exit 2); 'paramctl lint testdata/cli/type-int.yaml' lists such faults as findings (exit 1)\n"}},
		{name: "migrate's help says where progress shows", args: []string{"help", "migrate"}, code: 0,
			out: []string{"Progress: when standard error is a terminal", "never\nin pipes or CI"}},
		{name: "demo's help", args: []string{"help", "demo"}, code: 0, out: []string{"--list", "--step N", "works as shown when pasted"}},
		{name: "a syntax error in the schema is not sent to lint", args: []string{"validate", "--schema", "testdata/cli/unclosed.yaml", "demo/update-values.yaml"}, code: 2,
			err: []string{"testdata/cli/unclosed.yaml: "}, notEr: []string{"paramctl lint"}},
		{name: "validate without FILE says so", args: []string{"validate", "--schema", demoSchema}, code: 2, err: []string{"validate needs the FILE of values to validate"}},
		{name: "validate without --schema says so", args: []string{"validate", "x.yaml"}, code: 2, err: []string{"validate needs --schema"}},
		{name: "validate names each missing file", args: []string{"validate", "--schema", demoSchema, "a.yaml", "b.yaml"}, code: 2, err: []string{"a.yaml: no such file or directory", "b.yaml: no such file or directory"}},
		{name: "lint reports the same schema as findings, exit 1", args: []string{"lint", "testdata/cli/type-int.yaml"}, code: 1,
			out: []string{"/properties/a/type"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t) })
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, errs := paramctl(t, "", args...)
		assert.Equal(t, 0, code, errs)
		// A test binary, like go run and go build in a checkout, records
		// no module version: (devel).
		assert.Equal(t, "paramctl (devel) (github.com/paramkit/paramkit) "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH+"\n", out, "%v", args)
	}
	code, _, errs := paramctl(t, "", "version", "extra")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, `version takes no arguments (got "extra")`)
	_, out, _ := paramctl(t, "", "help")
	assert.Contains(t, out, "version")
}

// TestUpdatePlanOnStderr: in the default output the values alone go to
// standard output and the plan with the changed pointers to standard error.
func TestUpdatePlanOnStderr(t *testing.T) {
	base := []string{"update", "--schema", "demo/update-schema.yaml", "--values", "demo/update-values.yaml"}
	tests := []struct {
		name string
		args []string
		err  string
	}{
		{"one change", []string{"-p", "nodeCount=5"}, "plan: deploy (changed /nodeCount)\n"},
		{"its own plan", []string{"-p", "Authorization.ENABLED=true"}, "plan: auth-update (changed /Authorization/ENABLED)\n"},
		{"nothing changed", nil, "plan: none (nothing changed)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := paramctl(t, "", append(append([]string{}, base...), tt.args...)...)
			assert.Equal(t, 0, code, errs)
			assert.Equal(t, tt.err, errs)
			assert.NotContains(t, out, "plan")
			assert.True(t, strings.HasPrefix(out, "clusterName:") || strings.Contains(out, "nodeCount:"), out)
		})
	}
	// -o json keeps the plan in the document and nothing on standard error.
	code, out, errs := paramctl(t, "", append(base, "-p", "nodeCount=5", "-o", "json")...)
	assert.Equal(t, 0, code)
	assert.Empty(t, errs)
	assert.Contains(t, out, `"plan": "deploy"`)
}

func TestClosest(t *testing.T) {
	cands := []string{"validate", "update", "unwrap", "defaults", "demo", "lint", "list", "gates", "patch"}
	tests := []struct {
		name string
		want []string
	}{
		{"valdate", []string{"validate"}},
		{"updte", []string{"update"}},
		{"lnt", []string{"lint", "list"}},
		{"lis", []string{"list", "lint"}},
		{"VALIDATE", []string{"validate"}},
		{"def", []string{"demo", "defaults"}},
		{"frobnicate", []string{}},
		{"x", []string{}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, closest(tt.name, cands), tt.name)
	}
	assert.Equal(t, 3, editDistance("kitten", "sitting"))
	assert.Equal(t, 0, editDistance("", ""))
	assert.Equal(t, 2, editDistance("ab", ""))
}
