package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/go-openapi/jsonpointer"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/lint"
	"github.com/paramkit/paramkit/params"
)

type lintOptions struct {
	crdVersion string
	rules      string
	disable    multiFlag
	output     string
	listRules  bool
}

func init() {
	register(&command{
		name:  "lint",
		usage: "[--rules kudo|cluster-app|structural[,...]] [--disable RULE]... [--crd-version V] [-o text|json|sarif] SCHEMA|PACKAGE-DIR|CRD...",
		short: "check schemas against rule sets (kudo, cluster-app, structural); exit 1 on any error",
		setup: func(fs *flag.FlagSet) any {
			o := &lintOptions{}
			fs.StringVar(&o.rules, "rules", "kudo", "rule sets to run, comma-separated ("+strings.Join(lintSetNames(), ", ")+")")
			fs.Var(&o.disable, "disable", "turn a rule off by id (repeatable, or comma-separated)")
			fs.StringVar(&o.output, "o", "text", "output format: text, json or sarif")
			fs.BoolVar(&o.listRules, "list-rules", false, "print the rules of the chosen sets and exit")
			fs.StringVar(&o.crdVersion, "crd-version", "", "with a CustomResourceDefinition, lint only the `VERSION` named (default: every version)")
			return o
		},
		run: runLint,
	})
}

func lintSetNames() []string {
	var out []string
	for _, s := range lint.Sets() {
		out = append(out, s.Name)
	}
	return out
}

// lintSets resolves --rules and --disable into the sets to run.
func lintSets(o *lintOptions) ([]*lint.Set, error) {
	var sets []*lint.Set
	for _, name := range strings.Split(o.rules, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		s, ok := lint.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("unknown rule set %q (known: %s)", name, strings.Join(lintSetNames(), ", "))
		}
		sets = append(sets, s)
	}
	if len(sets) == 0 {
		return nil, fmt.Errorf("--rules names no rule set (known: %s)", strings.Join(lintSetNames(), ", "))
	}
	off := map[string]bool{}
	for _, d := range o.disable {
		for _, id := range strings.Split(d, ",") {
			if id = strings.TrimSpace(id); id != "" {
				off[id] = true
			}
		}
	}
	if len(off) == 0 {
		return sets, nil
	}
	known := map[string]bool{}
	for _, s := range lint.Sets() {
		for _, r := range s.Rules {
			known[r.ID] = true
		}
	}
	for id := range off {
		if !known[id] {
			return nil, fmt.Errorf("--disable: unknown rule %q (see paramctl lint --list-rules --rules %s)", id, o.rules)
		}
	}
	out := make([]*lint.Set, 0, len(sets))
	for _, s := range sets {
		f := &lint.Set{Name: s.Name, Doc: s.Doc}
		for _, r := range s.Rules {
			if !off[r.ID] {
				f.Rules = append(f.Rules, r)
			}
		}
		out = append(out, f)
	}
	return out, nil
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
	sets, err := lintSets(o)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if o.listRules {
		printRules(e.stdout, sets)
		return exitOK
	}
	if len(args) == 0 {
		return e.fail(exitUsage, "lint needs a SCHEMA file (or - for standard input)\nusage: paramctl lint %s", commands["lint"].usage)
	}
	var reports []lint.Report
	for _, path := range args {
		if packageDir(path) != "" {
			// A KUDO package folder, or its operator.yaml.
			_, pkg, err := readSchemaInput(e, path)
			if err != nil {
				return e.fail(exitUsage, "%v", err)
			}
			fs, err := lint.LintPackage(pkg, sets...)
			if err != nil {
				return e.fail(exitUsage, "%s: %s: %v", path, pkg.ParamsFile, err)
			}
			reports = append(reports, lint.Report{File: packageDir(path), Findings: fs})
			continue
		}
		data, err := e.readInput(path)
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		var fs []lint.Finding
		if convert.IsCRD(data) {
			fs, err = lint.LintCRD(data, o.crdVersion, sets...)
		} else {
			fs, err = lintFile(data, sets)
		}
		if err != nil {
			return e.fail(exitUsage, "%s: %v", path, err)
		}
		lint.Locate(data, fs)
		reports = append(reports, lint.Report{File: path, Findings: fs})
	}
	switch o.output {
	case "json":
		if code := e.writeJSON(findingsJSON(reports)); code != exitOK {
			return code
		}
	case "sarif":
		if err := lint.WriteSARIF(e.stdout, lintRulesOf(sets), reports...); err != nil {
			return e.fail(exitUsage, "%v", err)
		}
	default:
		if e.stdoutIsTerminal {
			writeFindingsTerminal(e.stdout, reports)
		} else {
			writeFindingsText(e.stdout, reports)
		}
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

// lintFile lints a schema document. An OperatorVersion manifest carrying
// its schema in spec.parameters (kudo.dev/v1beta2) is linted there, with
// pointers into the manifest. A v1beta1 params.yaml or OperatorVersion is
// linted as the schema it converts to, each finding placed on the
// parameter it is about.
func lintFile(data []byte, sets []*lint.Set) ([]lint.Finding, error) {
	doc, err := params.Decode(nil, data)
	if err != nil {
		return lint.Lint(data, sets...)
	}
	c, err := convert.FromV1beta1(data)
	if ne, ok := notSchema(err); ok {
		// A map of values is no schema: refused, not linted as one.
		return nil, errors.New(ne.Message)
	}
	if err == nil && c.Changed {
		if fs, ok := lintConverted(c, doc, sets); ok {
			return fs, nil
		}
	}
	if m, ok := doc.(map[string]any); ok && m["kind"] == "OperatorVersion" {
		if ps, ok := m["spec"].(map[string]any)["parameters"].(map[string]any); ok {
			fs, err := lint.Lint(params.MarshalJSON(nil, ps, ""), sets...)
			for i := range fs {
				fs[i].Pointer = ovPrefix + fs[i].Pointer
				fs[i].Message = prefixPointers(fs[i].Message, ps)
			}
			return fs, err
		}
	}
	return lint.Lint(data, sets...)
}

// lintConverted lints the schema a v1beta1 document converts to. A
// finding about a parameter points at its entry in the flat list, and
// says where in the converted schema it stands.
func lintConverted(c *convert.Converted, orig any, sets []*lint.Set) ([]lint.Finding, bool) {
	listAt := "/parameters"
	converted := c.Schema
	if m, ok := orig.(map[string]any); ok && m["kind"] == "OperatorVersion" {
		listAt = ovPrefix
		if converted == nil {
			converted, _ = valueAt(c.Document, ovPrefix)
		}
	}
	if converted == nil {
		return nil, false
	}
	index := map[string]int{}
	listV, _ := valueAt(orig, listAt)
	if list, ok := listV.([]any); ok {
		for i, p := range list {
			if name, ok := p.(map[string]any)["name"].(string); ok {
				index[name] = i
			}
		}
	} else {
		listAt = ""
	}
	fs, err := lint.Lint(params.MarshalJSON(nil, converted, ""), sets...)
	if err != nil {
		return nil, false
	}
	for i, f := range fs {
		at := listAt
		if toks := tokens(f.Pointer); len(toks) >= 2 && toks[0] == "properties" {
			if j, ok := index[toks[1]]; ok {
				at = listAt + "/" + strconv.Itoa(j)
			}
		}
		fs[i].Message = fmt.Sprintf("%s (converted schema: %s)", f.Message, displayPointer(f.Pointer))
		fs[i].Pointer = at
	}
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Pointer < fs[j].Pointer })
	return fs, true
}

// valueAt returns the value at ptr in doc, and whether there is one.
func valueAt(doc any, ptr string) (any, bool) {
	p, err := jsonpointer.New(ptr)
	if err != nil {
		return nil, false
	}
	v, _, err := p.Get(doc)
	return v, err == nil
}

const ovPrefix = "/spec/parameters"

// prefixPointers moves the schema pointers a message names into the
// manifest: each word starting with / that resolves in the schema.
func prefixPointers(msg string, schemaDoc any) string {
	words := strings.Split(msg, " ")
	for i, w := range words {
		core := strings.TrimLeft(w, "(")
		trimmed := strings.TrimRight(core, ":),;.")
		if !strings.HasPrefix(trimmed, "/") {
			continue
		}
		if _, ok := valueAt(schemaDoc, trimmed); !ok {
			continue
		}
		words[i] = strings.Replace(w, trimmed, ovPrefix+trimmed, 1)
	}
	return strings.Join(words, " ")
}

func printRules(w io.Writer, sets []*lint.Set) {
	for _, s := range sets {
		fmt.Fprintf(w, "%s: %s\n", s.Name, s.Doc)
		for _, r := range s.Rules {
			fmt.Fprintf(w, "  %-28s %-8s %s\n", r.ID, r.Severity, r.Doc)
		}
	}
}

// writeFindingsText writes one line per finding: FILE:POINTER: severity
// rule: message.
func writeFindingsText(w io.Writer, reports []lint.Report) {
	for _, r := range reports {
		for _, f := range r.Findings {
			if f.File != "" {
				// A file of a package: FILE:LINE, with the pointer in the
				// params file.
				where := fmt.Sprintf("%s:%d", filepath.Join(r.File, f.File), f.Line)
				if f.Pointer != "" {
					where += ":" + f.Pointer
				}
				fmt.Fprintf(w, "%s: %s %s: %s\n", where, f.Severity, f.Rule, f.Message)
				continue
			}
			fmt.Fprintf(w, "%s:%s: %s %s: %s\n", r.File, displayPointer(f.Pointer), f.Severity, f.Rule, f.Message)
		}
	}
}

// findingsJSON is the -o json form: a list of findings; with several
// files each carries its "file".
func findingsJSON(reports []lint.Report) any {
	type fileFinding struct {
		File     string        `json:"file"`
		Rule     string        `json:"rule"`
		Severity lint.Severity `json:"severity"`
		Pointer  string        `json:"pointer"`
		Message  string        `json:"message"`
		Line     int           `json:"line,omitempty"`
	}
	var v any
	if len(reports) == 1 {
		v = reports[0].Findings
	} else {
		all := []fileFinding{}
		for _, r := range reports {
			for _, f := range r.Findings {
				ff := fileFinding{File: r.File, Rule: f.Rule, Severity: f.Severity, Pointer: f.Pointer, Message: f.Message}
				if f.File != "" {
					// A file of a package folder: named below the folder.
					ff.File, ff.Line = filepath.Join(r.File, f.File), f.Line
				}
				all = append(all, ff)
			}
		}
		v = all
	}
	return v
}

// ANSI colours for a terminal.
const (
	lintReset  = "\x1b[0m"
	lintBold   = "\x1b[1m"
	lintDim    = "\x1b[2m"
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

// writeFindingsTerminal groups the findings by file and by place in the
// file, in colour, with a count at the end.
func writeFindingsTerminal(w io.Writer, reports []lint.Report) {
	counts := map[lint.Severity]int{}
	for _, r := range reports {
		if len(r.Findings) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s%s%s\n", lintBold, r.File, lintReset)
		fs := append([]lint.Finding(nil), r.Findings...)
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].Line < fs[j].Line })
		last := "\x00"
		for _, f := range fs {
			counts[f.Severity]++
			if f.File+"\x00"+f.Pointer != last {
				where := displayPointer(f.Pointer)
				if f.File != "" {
					where = f.File
					if f.Pointer != "" {
						where += " " + f.Pointer
					}
				}
				if f.Line > 0 {
					where += fmt.Sprintf(" %s(line %d)%s", lintDim, f.Line, lintReset)
				}
				fmt.Fprintf(w, "  %s\n", where)
				last = f.File + "\x00" + f.Pointer
			}
			fmt.Fprintf(w, "    %s%-7s%s %s%s%s %s\n", lintColour(f.Severity), f.Severity, lintReset, lintDim, f.Rule, lintReset, f.Message)
		}
		fmt.Fprintln(w)
	}
	total := counts[lint.Error] + counts[lint.Warning] + counts[lint.Info]
	if total == 0 {
		fmt.Fprintln(w, "no findings")
		return
	}
	fmt.Fprintf(w, "%s%d %s%s, %s%d %s%s, %d info\n",
		lintRed, counts[lint.Error], lintPlural(counts[lint.Error], "error"), lintReset,
		lintYellow, counts[lint.Warning], lintPlural(counts[lint.Warning], "warning"), lintReset,
		counts[lint.Info])
}

func lintPlural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
