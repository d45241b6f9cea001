package main

// Silencing, as linters do it: a team turns rules off, accepts findings
// at given places, and adopts the linter on a code base with findings by
// recording them once (a baseline) so that only new ones fail the run.
// None of it changes what a rule finds; it only drops findings.

import (
	"fmt"
	"path"
	"strings"

	"github.com/paramkit/paramkit/lint"
	"github.com/paramkit/paramkit/schema"
)

// lintReport is the findings for one argument of paramctl lint. File is
// the argument (a schema file, a chart or package folder) and each
// finding's File the file it is in, both named from the run's root (see
// lintRoot), with forward slashes; "-" is standard input.
type lintReport struct {
	File     string
	Findings []lint.Finding
	// folder is true when File is a chart or package folder.
	folder bool
	// skipped are files of the folder this run left out (a chart's
	// overlays --charts did not pick), named as File is: entries about
	// them speak for no file of this run.
	skipped []string
}

// covers reports whether a file (named from the root, as findings name
// it) is one this report linted: the report's file, or a file below its
// folder that the run did not leave out.
func (r lintReport) covers(file string) bool {
	if file == r.File {
		return true
	}
	if !r.folder || (r.File != "." && !strings.HasPrefix(file, r.File+"/")) {
		return false
	}
	for _, s := range r.skipped {
		if file == s {
			return false
		}
	}
	return true
}

// skippedGlob reports whether a glob relative to the folder names only
// files the run left out.
func (r lintReport) skippedGlob(rel string) bool {
	if strings.ContainsAny(rel, "*?[") || len(r.skipped) == 0 {
		return false
	}
	for _, s := range r.skipped {
		if s == r.File+"/"+rel {
			return true
		}
	}
	return false
}

// mayCover reports whether a file glob of an ignore entry can match a
// file this report linted: a glob without "/" names a file below any
// folder ("values.yaml"); otherwise the glob's leading segments must
// match the report's (a "**" matches the rest).
func (r lintReport) mayCover(glob string) bool {
	if !strings.Contains(glob, "/") || r.File == "." {
		return true
	}
	gs, fs := strings.Split(glob, "/"), strings.Split(r.File, "/")
	if r.folder && (gs[0] == "ci" || gs[0] == "templates" || gs[0] == "crds") {
		// Named from the chart or package folder: ci/x.yaml.
		ok, _ := path.Match(gs[0], fs[0])
		if !ok {
			return !r.skippedGlob(strings.Join(gs, "/"))
		}
	}
	if !strings.ContainsAny(glob, "*?[") {
		return r.covers(glob)
	}
	for i := 0; i < len(gs) && i < len(fs); i++ {
		if gs[i] == "**" {
			return true
		}
		if ok, _ := path.Match(gs[i], fs[i]); !ok {
			return false
		}
	}
	return r.folder || len(gs) == len(fs)
}

// inFolder is a finding's file relative to the report's folder ("" when
// the report is no folder or the file is not below it).
func (r lintReport) inFolder(file string) string {
	if !r.folder {
		return ""
	}
	if r.File == "." {
		return file
	}
	rest, ok := strings.CutPrefix(file, r.File+"/")
	if !ok {
		return ""
	}
	return rest
}

// lintFilter drops the findings a team accepted. The zero lintFilter
// keeps everything.
type lintFilter struct {
	// Disable are rule-id globs (path.Match syntax: R5-*, kudo-package-*):
	// their findings are dropped, also those of the rules that run
	// whatever the sets (chart-values, kudo-params).
	Disable []string
	// Ignore drops findings by rule and place.
	Ignore []lintIgnore
	// Baseline are the findings of an earlier run (readBaseline): a
	// finding with the same rule and pointer is dropped, the message
	// aside (it may name values that changed); where the baseline entry
	// names a file, the file must match too.
	Baseline []lint.Finding
	// Severity overrides the severity of the findings of the rules
	// matching each entry's Rule glob (an exact id before a glob, a
	// longer glob before a shorter one), after the findings above are
	// dropped.
	Severity []severityOverride

	// usedIgnore and usedBaseline count, by index, what each Ignore and
	// Baseline entry dropped over every apply (see unused).
	usedIgnore, usedBaseline map[int]int
	// inRunIgnore and inRunBaseline mark, by index, the entries that
	// speak for a file some apply's report linted: only those can be
	// stale. An entry about another chart of a partial run (--charts, the
	// Action's changed input) is neither applied nor stale.
	inRunIgnore, inRunBaseline map[int]bool
}

// silenced counts the findings a filter dropped, by reason.
type silenced struct {
	Disabled, Ignored, Baseline int
}

func (s silenced) total() int { return s.Disabled + s.Ignored + s.Baseline }

func (s *silenced) add(t silenced) {
	s.Disabled += t.Disabled
	s.Ignored += t.Ignored
	s.Baseline += t.Baseline
}

// filter is the configuration's Disable, Ignore and Severity, with a
// baseline.
func (c *lintConfig) filter(baseline []lint.Finding) *lintFilter {
	return &lintFilter{Disable: c.Disable, Ignore: c.Ignore, Baseline: baseline, Severity: c.Severity}
}

// apply returns the findings of a report the filter keeps, in their
// order, and how many it dropped.
func (f *lintFilter) apply(r lintReport) (lintReport, silenced) {
	var n silenced
	if f.usedIgnore == nil {
		f.usedIgnore, f.usedBaseline = map[int]int{}, map[int]int{}
		f.inRunIgnore, f.inRunBaseline = map[int]bool{}, map[int]bool{}
	}
	for i, ig := range f.Ignore {
		if ig.File == "" || r.mayCover(ig.File) {
			f.inRunIgnore[i] = true
		}
	}
	for i, b := range f.Baseline {
		if b.File == "" || r.covers(b.File) {
			f.inRunBaseline[i] = true
		}
	}
	kept := make([]lint.Finding, 0, len(r.Findings))
	for _, fd := range r.Findings {
		switch {
		case f.disabled(fd.Rule):
			n.Disabled++
		case f.ignored(r, fd):
			n.Ignored++
		case f.inBaseline(r, fd):
			n.Baseline++
		default:
			fd.Severity = f.severityOf(fd.Rule, fd.Severity)
			kept = append(kept, fd)
		}
	}
	r.Findings = kept
	return r, n
}

// unused returns the indexes of the Ignore and Baseline entries that
// dropped no finding in any apply so far, of those that speak for a file
// an apply's report linted: stale entries (the finding was fixed, the
// rule renamed), which a team should remove lest they hide a new finding
// at that place later.
func (f *lintFilter) unused() (ignore, baseline []int) {
	for i := range f.Ignore {
		if f.usedIgnore[i] == 0 && f.inRunIgnore[i] {
			ignore = append(ignore, i)
		}
	}
	for i := range f.Baseline {
		if f.usedBaseline[i] == 0 && f.inRunBaseline[i] {
			baseline = append(baseline, i)
		}
	}
	return ignore, baseline
}

func (f *lintFilter) disabled(rule string) bool {
	for _, g := range f.Disable {
		if globMatch(g, rule) {
			return true
		}
	}
	return false
}

// ignored reports whether an Ignore entry accepts the finding. An
// entry's file glob matches the file as the output names it, or relative
// to the chart or package folder of the report ("values.yaml").
func (f *lintFilter) ignored(r lintReport, fd lint.Finding) bool {
	for i, ig := range f.Ignore {
		if ig.Rule != "" && !globMatch(ig.Rule, fd.Rule) {
			continue
		}
		if ig.File != "" && !globMatch(ig.File, fd.File) && !globMatch(ig.File, r.inFolder(fd.File)) {
			continue
		}
		if ig.Pointer != "" && !pointerMatch(ig.Pointer, fd.Pointer) {
			continue
		}
		if ig.File != "" && !r.mayCover(ig.File) {
			continue // an entry about a file this run left out
		}
		if f.usedIgnore != nil {
			f.usedIgnore[i]++
		}
		return true
	}
	return false
}

// inBaseline reports whether a baseline entry accepts the finding: the
// same rule and pointer, and the same file (named from the root, one
// the report linted) where the entry names one.
func (f *lintFilter) inBaseline(r lintReport, fd lint.Finding) bool {
	for i, b := range f.Baseline {
		if b.Rule != fd.Rule || b.Pointer != fd.Pointer || (b.File != "" && (b.File != fd.File || !r.covers(b.File))) {
			continue
		}
		if f.usedBaseline != nil {
			f.usedBaseline[i]++
		}
		return true
	}
	return false
}

// severityOf is the overridden severity of a rule's findings.
func (f *lintFilter) severityOf(rule string, sev lint.Severity) lint.Severity {
	best, bestLen := -1, -1
	for i, o := range f.Severity {
		if !globMatch(o.Rule, rule) {
			continue
		}
		l := len(o.Rule)
		if o.Rule == rule {
			l = 1 << 30
		}
		if l > bestLen {
			best, bestLen = i, l
		}
	}
	if best < 0 {
		return sev
	}
	return f.Severity[best].Severity
}

// pointerMatch reports whether a JSON pointer matches a pointer glob (see
// lintIgnore.Pointer). Tokens are compared as the pointer writes them (a
// key a/b as a~1b), so that "*" matches any one key, slashes and all.
func pointerMatch(pattern, ptr string) bool {
	pt, err := globTokens(pattern)
	if err != nil || (ptr != "" && ptr[0] != '/') {
		return false
	}
	var toks []string
	if ptr != "" {
		toks = strings.Split(ptr[1:], "/")
	}
	return matchTokens(pt, toks)
}

// globTokens splits a pointer glob into tokens; "" is the root.
func globTokens(pattern string) ([]string, error) {
	if pattern == "" {
		return nil, nil
	}
	if !strings.HasPrefix(pattern, "/") {
		return nil, fmt.Errorf("pointer pattern %q does not start with /", pattern)
	}
	toks := strings.Split(pattern[1:], "/")
	for _, t := range toks {
		if t != "**" {
			if _, err := path.Match(t, ""); err != nil {
				return nil, fmt.Errorf("pointer pattern %q: token %q: %w", pattern, t, err)
			}
		}
	}
	return toks, nil
}

// matchTokens matches pointer tokens against pattern tokens, "**"
// standing for any number of tokens. It works through the pattern once,
// keeping the set of token positions reached, so a pattern of many "**"
// costs no more than len(pat)*len(toks) steps.
func matchTokens(pat, toks []string) bool {
	reached := make([]bool, len(toks)+1)
	reached[0] = true
	for _, p := range pat {
		next := make([]bool, len(toks)+1)
		any := false
		for i, ok := range reached {
			if !ok {
				continue
			}
			if p == "**" {
				for j := i; j <= len(toks); j++ {
					next[j] = true
				}
				any = true
				break // every later position is reached already
			}
			if i < len(toks) && globMatch(p, toks[i]) {
				next[i+1] = true
				any = true
			}
		}
		if !any {
			return false
		}
		reached = next
	}
	return reached[len(toks)]
}

// readBaseline reads the -o json output of an earlier lint run: a list
// of findings, each with rule and pointer (file when it names one). The
// error is for text that is no such list.
func readBaseline(data []byte) ([]lint.Finding, error) {
	root, err := readYAMLNode(data)
	if err != nil {
		return nil, err
	}
	var doc any
	if root != nil {
		if err := root.Decode(&doc); err != nil {
			return nil, schema.NewError(schema.KindSyntax, "", "%s", strings.TrimPrefix(err.Error(), "yaml: "))
		}
	}
	if doc == nil {
		return []lint.Finding{}, nil
	}
	list, ok := doc.([]any)
	if !ok {
		return nil, &schema.Error{Kind: schema.KindInvalid, Message: "a baseline is the -o json output of an earlier lint run: a list of findings"}
	}
	out := make([]lint.Finding, 0, len(list))
	for i, x := range list {
		m, ok := x.(map[string]any)
		rule, _ := m["rule"].(string)
		ptr, hasPtr := m["pointer"].(string)
		if !ok || rule == "" || !hasPtr {
			return nil, &schema.Error{Pointer: fmt.Sprintf("/%d", i), Kind: schema.KindInvalid,
				Message: "a baseline entry is a finding with \"rule\" and \"pointer\" (the -o json output of an earlier lint run)"}
		}
		f := lint.Finding{Rule: rule, Pointer: ptr}
		f.File, _ = m["file"].(string)
		if s, ok := m["severity"].(string); ok {
			f.Severity = lint.Severity(s)
		}
		f.Message, _ = m["message"].(string)
		out = append(out, f)
	}
	return out, nil
}
