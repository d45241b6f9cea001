package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/paramkit/paramkit/lint"
	"github.com/paramkit/paramkit/schema"
)

type lintOptions struct {
	crdVersion string
	rules      setFlag
	disable    multiFlag
	output     string
	listRules  bool
	config     string
	baseline   string
	charts     bool
	values     multiFlag
	// changed maps a chart folder to the files named in --charts mode
	// that belong to it.
	changed map[string][]string
}

// setFlag is a string flag that knows whether it was given, so that a
// configuration file's choice counts only where the command line made none.
type setFlag struct {
	value string
	set   bool
}

func (f *setFlag) String() string     { return f.value }
func (f *setFlag) Set(s string) error { f.value, f.set = s, true; return nil }

func init() {
	register(&command{
		name:  "lint",
		usage: "[--rules kudo|cluster-app|structural[,...]] [--disable GLOB]... [--config FILE] [--baseline FILE] [--values FILE]... [--charts] [--crd-version V] [-o text|json|sarif] SCHEMA|PACKAGE-DIR|CHART-DIR|CRD...",
		short: "check schemas, KUDO packages and Helm charts against rule sets (kudo, cluster-app, structural); exit 1 on any error",
		long: `A folder holding Chart.yaml is a Helm chart: its values.schema.json is linted, its
values.yaml validated against it and each ci/*.yaml on top of values.yaml on its own, as
chart-testing runs them (rule chart-values); values are read, merged and judged as
Helm v4 does (see paramctl values). A Chart.yaml given alone stands for its chart. A
schema file named *.json must be JSON.

Findings print as FILE:LINE:COL: POINTER: severity rule: message, with the count of
errors and warnings on standard error (colour on a terminal unless NO_COLOR is set).
Every output (text, -o json, -o sarif, and so a baseline) names files from one root:
the repository the arguments are in (the folder holding .git), else their common folder.

Silencing: --disable takes rule globs (R5-*); --config FILE is YAML with
  rules: [cluster-app]              # sets to run, unless --rules is given
  disable: [R18-empty-default]      # rule globs
  ignore:                           # accepted findings: rule glob, pointer glob
    - rule: "*"                     #   (* one token, ** any number)
      pointer: /properties/internal/**
  words: [cert-manager, etcd]       # names the title rules accept as written
  severity: {R5-*: warning}         # what fails the run
--baseline FILE takes the -o json output of an earlier run: findings with the same
rule, pointer and file neither print nor fail the run; new ones do. Ignore and
baseline entries that silenced nothing are named on standard error.`,
		setup: func(fs *flag.FlagSet) any {
			o := &lintOptions{rules: setFlag{value: "kudo"}}
			fs.Var(&o.rules, "rules", "rule sets to run, comma-separated ("+strings.Join(lintSetNames(), ", ")+")")
			fs.Var(&o.disable, "disable", "turn rules off by id or `GLOB` (R5-*; repeatable, or comma-separated)")
			fs.StringVar(&o.output, "o", "text", "output format: text, json or sarif")
			fs.BoolVar(&o.listRules, "list-rules", false, "print the rules of the chosen sets and exit")
			fs.StringVar(&o.crdVersion, "crd-version", "", "with a CustomResourceDefinition, lint only the `VERSION` named (default: every version)")
			fs.StringVar(&o.config, "config", "", "lint settings `FILE` (YAML: rules, disable, ignore, words, severity)")
			fs.StringVar(&o.baseline, "baseline", "", "`FILE` with the -o json output of an earlier run: its findings (same rule and pointer) are accepted")
			fs.Var(&o.values, "values", "with a Helm chart, a values `FILE` layered over values.yaml before validation, as helm lint -f takes it (repeatable); a glob (quoted: 'ci/*.yaml') names overlays, each checked on its own; either replaces ci/*.yaml")
			fs.BoolVar(&o.charts, "charts", false, "each FILE stands for the Helm chart it belongs to (the nearest folder above it with Chart.yaml), each chart linted once; files in no chart are skipped (for pre-commit)")
			return o
		},
		run: runLint,
	})
}

func lintSetNames() []string {
	var out []string
	for _, s := range lintBuiltinSets() {
		out = append(out, s.Name)
	}
	return out
}

// lintSet returns the built-in rule set of that name, or nil; words go
// to the cluster-app set's title rules.
func lintSet(name string, words []string) *lint.Set {
	for _, s := range lintBuiltinSets(words...) {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// lintSetup is what a lint run works with: the sets, as the configuration
// runs them, and the filter of accepted findings.
type lintSetup struct {
	sets   []*lint.Set
	filter *lintFilter
}

// lintSets resolves --rules, --disable, --config and --baseline into the
// sets to run and the filter of accepted findings.
func (e *env) lintSets(o *lintOptions) (*lintSetup, error) {
	cfg := &lintConfig{}
	known := lintKnownRules(lintBuiltinSets())
	if o.config != "" {
		data, err := e.readInput(o.config)
		if err != nil {
			return nil, err
		}
		c, err := readLintConfig(data, known)
		if err != nil {
			return nil, fileErrors(o.config, err)
		}
		cfg = c
	}
	rules := strings.Split(o.rules.value, ",")
	if !o.rules.set && len(cfg.Rules) > 0 {
		rules = cfg.Rules
	}
	var sets []*lint.Set
	for _, name := range rules {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		s := lintSet(name, cfg.Words)
		if s == nil {
			return nil, fmt.Errorf("unknown rule set %q (known: %s)", name, strings.Join(lintSetNames(), ", "))
		}
		sets = append(sets, s)
	}
	if len(sets) == 0 {
		return nil, fmt.Errorf("--rules names no rule set (known: %s)", strings.Join(lintSetNames(), ", "))
	}
	for _, d := range o.disable {
		for _, g := range strings.Split(d, ",") {
			if g = strings.TrimSpace(g); g == "" {
				continue
			}
			if err := checkRuleGlob(g, known); err != nil {
				return nil, fmt.Errorf("--disable: %v (see paramctl lint --list-rules --rules %s)", err, strings.Join(rules, ","))
			}
			cfg.Disable = append(cfg.Disable, g)
		}
	}
	var baseline []lint.Finding
	if o.baseline != "" {
		data, err := e.readInput(o.baseline)
		if err != nil {
			return nil, err
		}
		if baseline, err = readBaseline(data); err != nil {
			return nil, fileErrors(o.baseline, err)
		}
	}
	return &lintSetup{sets: cfg.lintSets(sets), filter: cfg.filter(baseline)}, nil
}

// staleEntries says on standard error which ignore entries of the
// configuration and which baseline entries silenced nothing in this run:
// the finding is gone (or the rule renamed), and the entry would hide a
// new finding at that place later.
func (e *env) staleEntries(o *lintOptions, f *lintFilter) {
	ignore, baseline := f.unused()
	for _, i := range ignore {
		ig := f.Ignore[i]
		var what []string
		for _, kv := range [][2]string{{"rule", ig.Rule}, {"pointer", ig.Pointer}, {"file", ig.File}} {
			if kv[1] != "" {
				what = append(what, fmt.Sprintf("%s %q", kv[0], kv[1]))
			}
		}
		fmt.Fprintf(e.stderr, "%s: /ignore/%d (%s) silenced nothing: the finding is gone; remove the entry\n", o.config, i, strings.Join(what, ", "))
	}
	for _, i := range baseline {
		b := f.Baseline[i]
		in := ""
		if b.File != "" {
			in = " in " + b.File
		}
		fmt.Fprintf(e.stderr, "%s: /%d (rule %s at %s%s) matches no finding: it was fixed; remove the entry\n", o.baseline, i, b.Rule, displayPointer(b.Pointer), in)
	}
}

// fileErrors names the file before each error of a list (one a line), or
// before the one error.
func fileErrors(file string, err error) error {
	list := schema.ErrorsOf(err)
	lines := make([]string, 0, len(list))
	for _, le := range list {
		msg := le.Error()
		if le.Pointer == "" && le.Line == 0 {
			msg = le.Message // about the whole file
		}
		lines = append(lines, file+": "+msg)
	}
	return errors.New(strings.Join(lines, "\n"))
}

// lintRulesOf lists the rules of the sets, each once.
func lintRulesOf(sets []*lint.Set) []*lint.Rule {
	seen := map[*lint.Rule]bool{}
	var out []*lint.Rule
	for _, s := range sets {
		for _, r := range s.Rules {
			if !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
		}
	}
	return out
}

func runLint(e *env, opts any, args []string) int {
	o := opts.(*lintOptions)
	switch o.output {
	case "text", "json", "sarif":
	default:
		return e.fail(exitUsage, "unknown output format %q: use text, json or sarif", o.output)
	}
	setup, err := e.lintSets(o)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	sets := setup.sets
	if o.listRules {
		printRules(e.stdout, sets)
		return exitOK
	}
	if o.charts {
		args, o.changed = e.chartsOf(args)
		if len(args) == 0 {
			return exitOK
		}
	}
	if len(args) == 0 {
		return e.fail(exitUsage, "lint needs a SCHEMA file (or - for standard input), a package or chart folder\nusage: paramctl lint %s", commands["lint"].usage)
	}
	root := newLintRoot(args)
	if e.lintRootDir != "" {
		root = lintRoot{dir: e.lintRootDir}
	}
	var reports []lintReport
	var quiet silenced
	for _, path := range args {
		r, code := e.lintOne(o, sets, root, path)
		if code != exitOK {
			return code
		}
		r, n := setup.filter.apply(r)
		quiet.add(n)
		reports = append(reports, r)
	}
	e.staleEntries(o, setup.filter)
	switch o.output {
	case "json":
		if code := e.writeJSON(findingsJSON(reports)); code != exitOK {
			return code
		}
	case "sarif":
		rules := lintRulesOf(sets)
		if hasChart(args) {
			rules = append(rules, (*lint.Chart)(nil).Rules()...)
		}
		if err := writeSARIF(e.stdout, rules, reports...); err != nil {
			return e.fail(exitUsage, "%v", err)
		}
	default:
		writeFindingsText(e.stdout, reports, e.colour())
		writeFindingsCount(e.stderr, reports, quiet)
	}
	for _, r := range reports {
		for _, f := range r.Findings {
			if f.Severity == lint.Error {
				return exitInvalid
			}
		}
	}
	return exitOK
}

// lintOne lints one argument: a chart folder (or its Chart.yaml), a
// package folder (or its operator.yaml), a CRD or a schema file; the
// report names its files from the root.
func (e *env) lintOne(o *lintOptions, sets []*lint.Set, root lintRoot, path string) (lintReport, int) {
	if dir := chartDir(path); dir != "" {
		chart, err := readChart(dir)
		if err != nil {
			return lintReport{}, e.fail(exitUsage, "%s: %v", dir, err)
		}
		ciOverlays := chart.Overlays
		if len(o.values) > 0 {
			// The files given replace ci/*.yaml: layered when named,
			// each on its own when a glob names them.
			chart.Overlays = nil
		}
		for _, v := range o.values {
			files := []string{v}
			glob := v != "-" && strings.ContainsAny(v, "*?[")
			if glob {
				m, err := filepath.Glob(v)
				if err != nil || len(m) == 0 {
					return lintReport{}, e.fail(exitUsage, "--values %s: matches no file", v)
				}
				files = m
			}
			for _, f := range files {
				data, err := e.readInput(f)
				if err != nil {
					return lintReport{}, e.fail(exitUsage, "%v", err)
				}
				narrowGCHeadroom(len(data))
				vf := lint.ValuesFile{Name: relativeTo(dir, f), Data: data}
				if glob {
					chart.Overlays = append(chart.Overlays, vf)
				} else {
					chart.ExtraValues = append(chart.ExtraValues, vf)
				}
			}
		}
		if files, ok := o.changed[dir]; ok {
			chart.Overlays = changedOverlays(dir, chart.Overlays, files)
		}
		fs, err := chart.Lint(sets...)
		if err != nil {
			return lintReport{}, e.fail(exitUsage, "%s", chartError(dir, chart, err))
		}
		rep := root.report(dir, true, fs)
		// The chart's overlays this run left out: what a baseline or
		// ignore entry says of them is not this run's business.
		linted := map[string]bool{}
		for _, v := range append(slices.Clone(chart.Overlays), chart.ExtraValues...) {
			linted[filepath.ToSlash(filepath.Clean(v.Name))] = true
		}
		for _, v := range ciOverlays {
			if !linted[filepath.ToSlash(filepath.Clean(v.Name))] {
				rep.skipped = append(rep.skipped, root.name(filepath.Join(dir, filepath.FromSlash(v.Name))))
			}
		}
		return rep, exitOK
	}
	if len(o.values) > 0 {
		return lintReport{}, e.fail(exitUsage, "--values is for a Helm chart folder, and %s is none", path)
	}
	if packageDir(path) != "" {
		// A KUDO package folder, or its operator.yaml.
		_, pkg, err := readSchemaInput(e, path)
		if err != nil {
			return lintReport{}, e.fail(exitUsage, "%v", err)
		}
		fs, err := pkg.Lint(sets...)
		if err != nil {
			return lintReport{}, e.fail(exitUsage, "%s: %s: %v", path, pkg.ParamsFile, err)
		}
		return root.report(packageDir(path), true, fs), exitOK
	}
	data, err := e.readInput(path)
	if err != nil {
		return lintReport{}, e.fail(exitUsage, "%v", err)
	}
	if err := checkJSONFile(path, data); err != nil {
		return lintReport{}, e.fail(exitUsage, "%v", err)
	}
	fs, err := lint.Document(data, sets...)
	if err == nil && o.crdVersion != "" && isCRD(data) {
		fs, err = crdVersionFindings(data, o.crdVersion, fs)
	}
	if err != nil {
		return lintReport{}, e.fail(exitUsage, "%s: %v", path, err)
	}
	return root.report(path, false, fs), exitOK
}

// crdVersionFindings keeps, of the findings of every version of a CRD,
// those of the version named (--crd-version): the findings below the
// place of its schema in the manifest.
func crdVersionFindings(data []byte, version string, fs []lint.Finding) ([]lint.Finding, error) {
	at, err := crdVersionPointer(data, version)
	if err != nil {
		return nil, err
	}
	out := []lint.Finding{}
	for _, f := range fs {
		if f.Pointer == at || strings.HasPrefix(f.Pointer, at+"/") {
			out = append(out, f)
		}
	}
	return out, nil
}

// chartError names the file of a chart's error below the chart folder:
// Chart.Lint's errors start with the file's name relative to it.
func chartError(dir string, c *lint.Chart, err error) string {
	msg := err.Error()
	names := []string{c.SchemaFile, c.ValuesFile}
	for _, v := range c.ExtraValues {
		names = append(names, v.Name)
	}
	for _, n := range names {
		if n != "" && strings.HasPrefix(msg, n+": ") {
			return filepath.Join(dir, n) + msg[len(n):]
		}
	}
	return dir + ": " + msg
}

// relativeTo names a file given on the command line relative to a chart
// folder, as findings in the chart's files are named ("-" stays "-").
func relativeTo(dir, file string) string {
	if file == "-" {
		return file
	}
	ad, err1 := filepath.Abs(dir)
	af, err2 := filepath.Abs(file)
	if err1 != nil || err2 != nil {
		return file
	}
	if rel, err := filepath.Rel(ad, af); err == nil {
		return rel
	}
	return af
}

// hasChart reports whether any argument is a chart.
func hasChart(args []string) bool {
	for _, a := range args {
		if chartDir(a) != "" {
			return true
		}
	}
	return false
}

// changedOverlays keeps, of a chart's overlays, those among the changed
// files; all of them when a changed file is no overlay (values.yaml, the
// schema, Chart.yaml: every overlay stands on it).
func changedOverlays(dir string, overlays []lint.ValuesFile, changed []string) []lint.ValuesFile {
	names := map[string]bool{}
	for _, f := range changed {
		rel := filepath.ToSlash(relativeTo(dir, f))
		if ok, _ := filepath.Match(chartOverlays, rel); !ok {
			return overlays
		}
		names[rel] = true
	}
	var out []lint.ValuesFile
	for _, o := range overlays {
		if names[filepath.ToSlash(o.Name)] {
			out = append(out, o)
		}
	}
	return out
}

// chartsOf maps files to the charts they belong to (the nearest folder
// above each holding Chart.yaml), each chart once, in the order first
// named, with the files named in each; files in no chart are skipped,
// and said so on standard error.
func (e *env) chartsOf(files []string) ([]string, map[string][]string) {
	var out []string
	changed := map[string][]string{}
	seen := map[string]bool{}
	for _, f := range files {
		dir := f
		if fi, err := os.Stat(f); err != nil || !fi.IsDir() {
			dir = filepath.Dir(f)
		}
		found := ""
		for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
			if fi, err := os.Stat(filepath.Join(d, chartFile)); err == nil && fi.Mode().IsRegular() {
				found = d
				break
			}
			if up := filepath.Dir(d); up == d || d == "." {
				break
			}
		}
		if found == "" {
			fmt.Fprintf(e.stderr, "%s: in no Helm chart (no %s above it): skipped\n", f, chartFile)
			continue
		}
		if !seen[found] {
			seen[found] = true
			out = append(out, found)
		}
		if f != found {
			changed[found] = append(changed[found], f)
		}
	}
	return out, changed
}

func printRules(w io.Writer, sets []*lint.Set) {
	for _, s := range sets {
		fmt.Fprintf(w, "%s: %s\n", s.Name, s.Doc)
		for _, r := range s.Rules {
			fmt.Fprintf(w, "  %-28s %-8s %s\n", r.ID, r.Severity, r.Doc)
		}
	}
}

// writeFindingsText writes one line per finding, as compilers do, so
// that editors, CI logs and problem matchers find the place:
//
//	FILE:LINE:COL: POINTER: severity rule: message
//
// FILE is named from the run's root (see lintRoot), as in every output;
// COL is left out where not known, LINE too (a finding about a whole
// file); POINTER is the place in that file ("" for the root). With
// colour, the severity is coloured. The pointer is left out only for a
// finding without one about a file of a package or chart that is no
// document of values or schema (a template, Chart.yaml).
func writeFindingsText(w io.Writer, reports []lintReport, colour bool) {
	for _, r := range reports {
		for _, f := range r.Findings {
			where := f.File
			if f.Line > 0 {
				where += fmt.Sprintf(":%d", f.Line)
				if f.Column > 0 {
					where += fmt.Sprintf(":%d", f.Column)
				}
			}
			ptr := ""
			in := r.inFolder(f.File)
			if !r.folder || f.File == r.File || f.Pointer != "" || in == chartSchemaFile || in == chartValuesFile {
				ptr = displayPointer(f.Pointer) + ": "
			}
			sev := string(f.Severity)
			if colour {
				sev = lintColour(f.Severity) + sev + lintReset
			}
			fmt.Fprintf(w, "%s: %s%s %s: %s\n", where, ptr, sev, f.Rule, f.Message)
		}
	}
}

// writeFindingsCount says on standard error how many errors, warnings and
// infos the run printed, and how many findings it silenced.
func writeFindingsCount(w io.Writer, reports []lintReport, quiet silenced) {
	counts := map[lint.Severity]int{}
	for _, r := range reports {
		for _, f := range r.Findings {
			counts[f.Severity]++
		}
	}
	msg := fmt.Sprintf("%d %s, %d %s, %d info", counts[lint.Error], lintPlural(counts[lint.Error], "error"),
		counts[lint.Warning], lintPlural(counts[lint.Warning], "warning"), counts[lint.Info])
	var parts []string
	if quiet.Disabled > 0 {
		parts = append(parts, fmt.Sprintf("%d by disabled rules", quiet.Disabled))
	}
	if quiet.Ignored > 0 {
		parts = append(parts, fmt.Sprintf("%d by ignore entries", quiet.Ignored))
	}
	if quiet.Baseline > 0 {
		parts = append(parts, fmt.Sprintf("%d by the baseline", quiet.Baseline))
	}
	if len(parts) > 0 {
		msg += fmt.Sprintf("; %d silenced (%s)", quiet.total(), strings.Join(parts, ", "))
	}
	fmt.Fprintln(w, msg)
}

// findingsJSON is the -o json form: one list of the findings of every
// argument, each with its "file" (named from the run's root, as in every
// output) and, where known, its "line".
func findingsJSON(reports []lintReport) any {
	all := []lint.Finding{}
	for _, r := range reports {
		all = append(all, r.Findings...)
	}
	return all
}

// ANSI colours for a terminal.
const (
	lintReset  = "\x1b[0m"
	lintRed    = "\x1b[31m"
	lintYellow = "\x1b[33m"
	lintCyan   = "\x1b[36m"
)

func lintColour(s lint.Severity) string {
	switch s {
	case lint.Error:
		return lintRed
	case lint.Warning:
		return lintYellow
	}
	return lintCyan
}

func lintPlural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
