package main

import (
	"bytes"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The demo's input files. They live in the repository under demoDir and
// are embedded, so an installed paramctl runs the demo anywhere.
//
//go:embed demo
var demoFiles embed.FS

// demoDir is where the demo's files are in the repository; every command
// the demo prints names them from the repository root.
const demoDir = "examples/paramctl/demo"

// demoStep is one step of the tour: what to look at, the command, the
// exit status it must have (refusals are part of the story) and what to
// notice.
type demoStep struct {
	title    string
	show     []demoExcerpt
	args     []string // file arguments are d("name"), under demoDir
	wantExit int
	notice   string
}

// demoExcerpt is an input file, or the lines of it that matter (first and
// last, 1-based; 0, 0 for the whole file).
type demoExcerpt struct {
	file        string
	first, last int
}

// d names a demo file as a user at the repository root would.
func d(name string) string { return demoDir + "/" + name }

// demoSteps: the core value first, then KUDO conversion, version sets and
// lint. The whole tour prints at most 250 lines (TestDemoGolden checks).
var demoSteps = []demoStep{
	{"Types come from the schema, not from YAML's guesses",
		[]demoExcerpt{{"types-schema.yaml", 4, 8}, {"types-values.yaml", 0, 0}},
		[]string{"defaults", "-o", "json", "--schema", d("types-schema.yaml"), d("types-values.yaml")}, exitOK,
		"YAML 1.1 and Helm would read true, 1.1, 7 and 9007199254740992; each stays what its node's type says."},
	{"Every error at once, each with its JSON pointer",
		[]demoExcerpt{{"kep-upgraded-invalid.yaml", 4, 8}},
		[]string{"validate", "--schema", d("kep-upgraded-schema.yaml"), d("kep-upgraded-invalid.yaml")}, exitInvalid,
		"three mistakes, three lines, one run; exit 1 means read but invalid."},
	{"An update: the new values on standard output, the plan and what changed on standard error",
		[]demoExcerpt{{"update-values.yaml", 1, 6}},
		[]string{"update", "--schema", d("update-schema.yaml"), "--values", d("update-values.yaml"),
			"-p", "nodeCount=5", "-p", `topology/0/labels/0={ key: "Usage", value: "newValue" }`}, exitOK,
		"a key with / is a JSON pointer; the value is typed by the schema; the last line names the plan to run."},
	{"An immutable field cannot change",
		[]demoExcerpt{{"update-schema.yaml", 43, 47}},
		[]string{"update", "--schema", d("update-schema.yaml"), "--values", d("update-values.yaml"), "-p", "storage.size=20Gi"}, exitInvalid,
		"immutable covers the node and everything under it; nothing is printed but the refusal."},
	{"A migration: old flat values move to their new places by oldName",
		[]demoExcerpt{{"upgrade-instances.yaml", 4, 11}, {"kep-upgraded-schema.yaml", 8, 13}, {"kep-upgraded-schema.yaml", 35, 38}},
		[]string{"migrate", "--schema", d("kep-upgraded-schema.yaml"), d("upgrade-instances.yaml")}, exitOK,
		"every document of the stream moves; NODE_COUNT maps to no parameter, so it is reported as dropped, never lost silently."},
	{"An update that would run two plans is refused",
		nil,
		[]string{"update", "--schema", d("update-schema.yaml"), "--values", d("update-values.yaml"), "-p", "Authorization.ENABLED=true", "-p", "nodeCount=4"}, exitInvalid,
		"Authorization has trigger: auth-update, nodeCount the default plan deploy: one update, one plan."},
	{"KUDO: a v1beta1 params.yaml becomes a v1beta2 JSON Schema",
		[]demoExcerpt{{"kep-params-v1beta1.yaml", 5, 16}},
		[]string{"convert", d("kep-params-v1beta1.yaml")}, exitOK,
		"types come from type: or the default; array and map become real types."},
	{"KUDO: v1beta1 string values become typed values",
		[]demoExcerpt{{"kep-values-v1beta1.yaml", 2, 5}},
		[]string{"unwrap", "--schema", d("kep-params-v1beta1.yaml"), d("kep-values-v1beta1.yaml")}, exitOK,
		`the terse '[foo,bar,bazz]' and '{foo:"bar"}' of KUDO users unwrap to what they meant.`},
	{"A version set: its order, its hub, and what each conversion loses",
		nil,
		[]string{"versions", d("versions-set")}, exitOK,
		"the folder holds v1.yaml, v2.yaml, v3.yaml and versions.yaml; kept names the pointers the property bag carries back, lossy those that do not survive."},
	{"A lossy type change is refused unless allowed (BareMetalHost v1alpha1 to v1alpha2)",
		nil,
		[]string{"migrate", "--versions", d("bmh-set"), "--from", "v1alpha1", "--to", "v1alpha2",
			"--api-version", "hardware.metal3.io/v1alpha2", d("bmh-hosts-v1alpha1.yaml")}, exitInvalid,
		"2593.75 cannot become an integer silently (--allow-lossy says you mean it); dropped fields are named."},
	{"Lint: conflicting triggers, a doubly claimed old name, bad defaults, typos",
		nil,
		[]string{"lint", d("kep-lint-example.yaml")}, exitInvalid,
		"findings go to standard output as FILE:LINE:COL: POINTER: severity rule: message, the count to standard error; any error exits 1."},
}

type demoOptions struct {
	list bool
	step demoStepFlag
}

// demoStepFlag is --step N: 0 while it is not given (the whole tour), and
// set once it is, so that a given 0 is refused like any other number out of
// range instead of running the whole tour.
type demoStepFlag struct {
	n   int
	set bool
}

func (f *demoStepFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.Itoa(f.n)
}

func (f *demoStepFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("expected a step number")
	}
	f.n, f.set = n, true
	return nil
}

func init() {
	register(&command{
		name:  "demo",
		usage: "[--list] [--step N]",
		short: "a short tour of what paramkit does, on files under " + demoDir + " (embedded)",
		long: "Each step shows its input, a command that works as shown when pasted at the\n" +
			"repository root with paramctl on the PATH, its output, and what to notice.",
		setup: func(fs *flag.FlagSet) any {
			o := &demoOptions{}
			fs.BoolVar(&o.list, "list", false, "list the steps and exit")
			fs.Var(&o.step, "step", "run step `N` only, 1 to "+strconv.Itoa(len(demoSteps))+" (without it, the whole tour)")
			return o
		},
		run: runDemo,
	})
}

func runDemo(e *env, opts any, args []string) int {
	o := opts.(*demoOptions)
	if len(args) != 0 {
		return e.fail(exitUsage, "demo takes no arguments (got %q); usage: paramctl demo %s", args[0], commands["demo"].usage)
	}
	if o.step.set && (o.step.n < 1 || o.step.n > len(demoSteps)) {
		return e.fail(exitUsage, "--step %d: expected a step from 1 to %d ('paramctl demo --list' lists them)", o.step.n, len(demoSteps))
	}
	if o.list {
		for i, st := range demoSteps {
			fmt.Fprintf(e.stdout, "%2d. %s\n", i+1, st.title)
		}
		return exitOK
	}
	dir, err := os.MkdirTemp("", "paramctl-demo-")
	if err != nil {
		return e.fail(exitUsage, "demo: cannot make a folder for its files: %v", err)
	}
	defer os.RemoveAll(dir)
	// dir stands for the repository root: the files sit below it where
	// they sit in the repository, so that lint names them as it does
	// there.
	if err := writeDemoFiles(filepath.Join(dir, filepath.FromSlash(demoDir))); err != nil {
		return e.fail(exitUsage, "demo: cannot write its files: %v", err)
	}
	if !o.step.set {
		fmt.Fprintf(e.stdout, "paramkit in %d steps, on the files under %s/.\n"+
			"Each command works as shown when pasted at the repository root with paramctl\n"+
			"on the PATH (go install ./examples/paramctl). 'paramctl demo --step N' runs one.\n",
			len(demoSteps), demoDir)
	}
	failed := 0
	for i, st := range demoSteps {
		if o.step.set && o.step.n != i+1 {
			continue
		}
		if code := e.demoStep(dir, i+1, st); code != st.wantExit {
			failed++
			fmt.Fprintf(e.stderr, "demo step %d exited %d, expected %d\n", i+1, code, st.wantExit)
		}
	}
	if failed > 0 {
		return exitInvalid
	}
	if !o.step.set {
		fmt.Fprintln(e.stdout, "\nMore: 'paramctl help' lists every command (webhooks, gates, patch, list...).")
	}
	return exitOK
}

// demoStep prints one step and returns the exit status of its command.
// dir stands for the repository root.
func (e *env) demoStep(dir string, n int, st demoStep) int {
	fmt.Fprintf(e.stdout, "\n## %d. %s\n", n, st.title)
	for _, x := range st.show {
		e.demoExcerpt(x)
	}
	args := make([]string, len(st.args))
	for j, a := range st.args {
		if rest, ok := strings.CutPrefix(a, demoDir+"/"); ok {
			a = filepath.Join(dir, filepath.FromSlash(demoDir), filepath.FromSlash(rest))
		}
		args[j] = a
	}
	// Errors and the plan go to the same buffer as the output, so the
	// story reads in the order a terminal shows it.
	var buf bytes.Buffer
	sub := &env{stdin: strings.NewReader(""), stdout: &buf, stderr: &buf, lintRootDir: dir}
	code := sub.dispatch(args)
	files := filepath.Join(dir, filepath.FromSlash(demoDir))
	out := strings.ReplaceAll(buf.String(), files+string(filepath.Separator), demoDir+"/")
	out = strings.ReplaceAll(out, files, demoDir)
	fmt.Fprintf(e.stdout, "\n%s\n%s", shellCommand(st.args), out)
	if code != exitOK {
		fmt.Fprintf(e.stdout, "(exit %d)\n", code)
	}
	fmt.Fprintf(e.stdout, "Notice: %s\n", st.notice)
	return code
}

// demoExcerpt prints a demo file, or the lines of it that matter.
func (e *env) demoExcerpt(x demoExcerpt) {
	data, err := demoFiles.ReadFile("demo/" + x.file)
	if err != nil {
		panic("paramctl: demo file missing: " + x.file) // a bug in demoSteps
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	first, last, where := 1, len(lines), ""
	if x.first > 0 {
		first, last, where = x.first, min(x.last, len(lines)), fmt.Sprintf(", lines %d-%d", x.first, x.last)
	}
	fmt.Fprintf(e.stdout, "\n%s%s:\n", d(x.file), where)
	for _, l := range lines[first-1 : last] {
		fmt.Fprintf(e.stdout, "  | %s\n", l)
	}
}

// shellCommand prints args as a `$ paramctl …` line a shell reads back
// as the same arguments: quoted where needed, broken before a flag with
// a trailing \ when the line gets long.
func shellCommand(args []string) string {
	var lines []string
	line := "$ paramctl"
	for i := 0; i < len(args); i++ {
		word := shellQuote(args[i])
		if strings.HasPrefix(args[i], "-") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && !isBoolDemoFlag(args[i]) {
			i++
			word += " " + shellQuote(args[i])
		}
		if len(line)+1+len(word) > 78 && line != "$ paramctl" && strings.TrimSpace(line) != "" {
			lines = append(lines, line+" \\")
			line = "    " + word
			continue
		}
		line += " " + word
	}
	return strings.Join(append(lines, line), "\n")
}

// isBoolDemoFlag tells the boolean flags the demo uses, which take no value.
func isBoolDemoFlag(a string) bool {
	return a == "--dry-run" || a == "--allow-lossy" || a == "--guess" || a == "--round-trip"
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./=,:@%+-]+$`)

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func writeDemoFiles(dir string) error {
	return fs.WalkDir(demoFiles, "demo", func(path string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		out := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(path, "demo")))
		if de.IsDir() {
			// Version sets are folders (demo/bmh-set, demo/versions-set).
			return os.MkdirAll(out, 0o755)
		}
		data, err := fs.ReadFile(demoFiles, path)
		if err != nil {
			return err
		}
		return writeFileAtomic(out, data)
	})
}
