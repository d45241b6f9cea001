package main

import (
	"embed"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The demo's input files, from the KEP-33 example and its upgrade.
//
//go:embed demo
var demoFiles embed.FS

// demoStep is one command the demo runs, with the exit status it expects
// (refusals are part of the story).
type demoStep struct {
	title    string
	args     []string // paramctl arguments; file names are under the demo folder
	wantExit int
}

// demoSteps walks the KEP example end to end. Each capability adds its
// steps here.
var demoSteps = []demoStep{
	// 1. The KEP's v1beta1 operator becomes a schema; its instance's strings become typed values.
	{"Convert the KEP's v1beta1 OperatorVersion: its flat parameter list becomes a v1beta2 JSON Schema",
		[]string{"convert", "kep-operatorversion-v1beta1.yaml"}, exitOK},
	{"A v1beta1 params.yaml converts too (as JSON here)",
		[]string{"convert", "-o", "json", "kep-params-v1beta1.yaml"}, exitOK},
	{"Unwrap the KEP's v1beta1 Instance of that operator: it becomes a v1beta2 Instance, values typed by the converted schema",
		[]string{"unwrap", "--schema", "kep-operatorversion-v1beta1.yaml", "kep-instance-v1beta1.yaml"}, exitOK},
	{"The KEP's string values with the params.yaml schema: \"3\" becomes 3, '[foo,bar,bazz]' a list, '{foo:\"bar\"}' a map",
		[]string{"unwrap", "--schema", "kep-params-v1beta1.yaml", "kep-values-v1beta1.yaml"}, exitOK},
	{"Without a schema, --guess unwraps by safe rules and reports every guess",
		[]string{"unwrap", "--guess", "kep-values-v1beta1.yaml"}, exitOK},

	// The KEP's upgrade: values move into the restructured schema by oldName.
	{"Upgrade the operator: each instance's flat values move to their new places by oldName",
		[]string{"migrate", "--schema", "kep-upgraded-schema.yaml", "migrate-instances.yaml"}, exitOK},
	{"The KEP's pre-migration: --dry-run checks every document and writes nothing (one JSON report a document)",
		[]string{"migrate", "--schema", "kep-upgraded-schema.yaml", "--dry-run", "-o", "json", "migrate-instances.yaml"}, exitOK},
	{"Skip a \"non-skippable\" version: 0.1 values to 0.3 through 0.2's oldName",
		[]string{"migrate", "--schema", "migrate-0.3-schema.yaml", "--via", "migrate-0.2-schema.yaml", "migrate-0.1-values.yaml"}, exitOK},

	// 2. Values of the restructured operator: validation and defaults.
	{"Validate values of the restructured operator (the KEP's upgrade schema)",
		[]string{"validate", "--schema", "kep-upgraded-schema.yaml", "kep-upgraded-values.yaml"}, exitOK},
	{"Every mistake at once, each with its JSON pointer (exit 1)",
		[]string{"validate", "--schema", "kep-upgraded-schema.yaml", "kep-upgraded-invalid.yaml"}, exitInvalid},
	{"The same as JSON, for machines",
		[]string{"validate", "--schema", "kep-upgraded-schema.yaml", "-o", "json", "kep-upgraded-invalid.yaml"}, exitInvalid},
	{"Defaults fill what the user left out (here: from nothing)",
		[]string{"defaults", "--schema", "kep-upgraded-schema.yaml"}, exitOK},

	// 3. Updates: -p, -P, patch, immutability and plans.
	{"Each parameter's plan: triggers are inherited, the default plan is deploy",
		[]string{"triggers", "--schema", "update-schema.yaml"}, exitOK},
	{"Update with -p (a JSON pointer into an array, a dotted path): the new values, the plan and what changed",
		[]string{"update", "--schema", "update-schema.yaml", "--values", "update-values.yaml", "-p", `topology/0/labels/0={ key: "Usage", value: "newValue" }`, "-p", "nodeCount=5", "-o", "json"}, exitOK},
	{"A change under Authorization runs its own plan",
		[]string{"update", "--schema", "update-schema.yaml", "--values", "update-values.yaml", "-p", "Authorization.ENABLED=true", "-o", "json"}, exitOK},
	{"A values file is a merge patch (-P): arrays are replaced whole",
		[]string{"update", "--schema", "update-schema.yaml", "--values", "update-values.yaml", "-P", "update-patch.yaml"}, exitOK},
	{"An immutable field cannot change (exit 1)",
		[]string{"update", "--schema", "update-schema.yaml", "--values", "update-values.yaml", "-p", "storage.size=20Gi"}, exitInvalid},
	{"An update that would run two plans is refused, naming each path and its plan (exit 1)",
		[]string{"update", "--schema", "update-schema.yaml", "--values", "update-values.yaml", "-p", "Authorization.ENABLED=true", "-p", "nodeCount=4"}, exitInvalid},
	{"patch adds to an array, which update refuses to keep it idempotent",
		[]string{"patch", "--schema", "update-schema.yaml", "--values", "update-values.yaml", "--add", `topology/0/labels={ key: "NewKey", value: "NewValue" }`}, exitOK},

	// 4. The schema itself: listing, adding a parameter, lint.
	{"The parameters as a tree table (the KEP's listing)",
		[]string{"list", "--schema", "kep-upgraded-schema.yaml"}, exitOK},
	{"Add a parameter: the file keeps its order and comments (the KEP's wizard is add-param --interactive)",
		[]string{"add-param", "--schema", "kep-upgraded-schema.yaml", "--path", "/backup/retentionDays", "--type", "integer", "--default", "7", "--title", "Retention days", "--dry-run"}, exitOK},
	{"The KEP's schema passes the kudo lint rules",
		[]string{"lint", "kep-upgraded-schema.yaml"}, exitOK},
	{"Lint finds conflicting triggers, a doubly claimed old name, bad defaults and typos (exit 1)",
		[]string{"lint", "kep-lint-example.yaml"}, exitInvalid},
	{"A cluster-app values schema against the Giant Swarm RFC (R1 to R18)",
		[]string{"lint", "--rules", "cluster-app", "cluster-values.schema.json"}, exitInvalid},
	// Versions through a hub, and stored objects under a new group.
	{"A version set: its order, its hub, and what each conversion loses",
		[]string{"versions", "versions-set"}, exitOK},
	{"BareMetalHost v1alpha1 to hardware.metal3.io/v1alpha2: the fractional clock speed is a lossy change, refused by default (exit 1)",
		[]string{"migrate", "--versions", "bmh-set", "--from", "v1alpha1", "--to", "v1alpha2", "--api-version", "hardware.metal3.io/v1alpha2", "bmh-hosts-v1alpha1.yaml"}, exitInvalid},
	{"Allowed explicitly: 2593.75 becomes 2593, the hardware profiles are dropped and reported, nothing else changes",
		[]string{"migrate", "--versions", "bmh-set", "--from", "v1alpha1", "--to", "v1alpha2", "--api-version", "hardware.metal3.io/v1alpha2", "--allow-lossy", "bmh-hosts-v1alpha1.yaml"}, exitOK},
	{"The new version is upgrade-only: going back is refused (exit 1)",
		[]string{"migrate", "--versions", "bmh-set", "--from", "v1alpha2", "--to", "v1alpha1", "bmh-hosts-v1alpha1.yaml"}, exitInvalid},
}

func init() {
	register(&command{
		name:  "demo",
		usage: "",
		short: "walk through the KEP-33 example end to end on embedded files",
		setup: func(fs *flag.FlagSet) any { return nil },
		run:   runDemo,
	})
}

func runDemo(e *env, _ any, args []string) int {
	if len(args) != 0 {
		return e.fail(exitUsage, "usage: paramctl demo")
	}
	dir, err := os.MkdirTemp("", "paramctl-demo-")
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	defer os.RemoveAll(dir)
	if err := writeDemoFiles(dir); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	failed := 0
	for i, st := range demoSteps {
		fmt.Fprintf(e.stdout, "\n## %d. %s\n\n$ paramctl %s\n", i+1, st.title, strings.Join(st.args, " "))
		args := make([]string, len(st.args))
		for j, a := range st.args {
			if _, err := fs.Stat(demoFiles, "demo/"+a); err == nil {
				a = filepath.Join(dir, a)
			}
			args[j] = a
		}
		// Errors go to standard output too, so the story reads in order.
		sub := &env{stdin: strings.NewReader(""), stdout: e.stdout, stderr: e.stdout}
		code := sub.dispatch(args)
		fmt.Fprintf(e.stdout, "(exit %d)\n", code)
		if code != st.wantExit {
			failed++
			fmt.Fprintf(e.stderr, "demo step %d exited %d, expected %d\n", i+1, code, st.wantExit)
		}
	}
	if failed > 0 {
		return exitInvalid
	}
	fmt.Fprintln(e.stdout, "\nDone: every step behaved as expected.")
	return exitOK
}

func writeDemoFiles(dir string) error {
	return fs.WalkDir(demoFiles, "demo", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// Version sets are folders (demo/bmh-set, demo/versions-set).
			return os.MkdirAll(filepath.Join(dir, strings.TrimPrefix(path, "demo")), 0o755)
		}
		data, err := demoFiles.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, strings.TrimPrefix(path, "demo/")), data, 0o644)
	})
}
