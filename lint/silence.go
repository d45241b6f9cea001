package lint

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/suggest"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// Silencing, as linters do it: a team turns rules off, accepts findings
// at given places, and adopts the linter on a code base with findings by
// recording them once (a baseline) so that only new ones fail the run.
// None of it changes what a rule finds; it only drops findings.

// Filter drops the findings a team accepted. The zero Filter keeps
// everything.
type Filter struct {
	// Disable are rule-id globs (path.Match syntax: R5-*, kudo-package-*):
	// their findings are dropped, also those of the rules that run
	// whatever the sets (chart-values, kudo-params).
	Disable []string
	// Ignore drops findings by rule and place.
	Ignore []Ignore
	// Baseline are the findings of an earlier run (ReadBaseline): a
	// finding with the same rule and pointer is dropped, the message
	// aside (it may name values that changed); where the baseline entry
	// names a file, the file must match too.
	Baseline []Finding
	// Severity overrides the severity of the findings of the rules
	// matching each entry's Rule glob (an exact id before a glob, a
	// longer glob before a shorter one), after the findings above are
	// dropped.
	Severity []SeverityOverride

	// used counts, by index, what each Ignore and Baseline entry
	// dropped over every Apply (see Unused).
	usedIgnore, usedBaseline map[int]int
}

// SeverityOverride sets the severity of a rule's findings: a team's
// choice of what fails its run (the config's severity key).
type SeverityOverride struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
}

// Unused returns the indexes of the Ignore and Baseline entries that
// dropped no finding in any Apply so far: stale entries (the finding was
// fixed, the rule renamed), which a team should remove lest they hide a
// new finding at that place later.
func (f *Filter) Unused() (ignore, baseline []int) {
	for i := range f.Ignore {
		if f.usedIgnore[i] == 0 {
			ignore = append(ignore, i)
		}
	}
	for i := range f.Baseline {
		if f.usedBaseline[i] == 0 {
			baseline = append(baseline, i)
		}
	}
	return ignore, baseline
}

// severityOf is the overridden severity of a rule's findings.
func (f *Filter) severityOf(rule string, sev Severity) Severity {
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

// Ignore accepts the findings of the rules matching Rule at the places
// matching Pointer (and File, when set).
type Ignore struct {
	// Rule is a glob on the rule id (path.Match syntax); "" or "*" is any
	// rule.
	Rule string `json:"rule,omitempty"`
	// Pointer is a glob on the finding's JSON pointer, token by token: a
	// token "*" matches one token, "**" any number of them (none too),
	// any other token is a path.Match pattern of one token. "" or "/**"
	// is any place. "/properties/internal/**" matches the property
	// internal and everything below it.
	Pointer string `json:"pointer,omitempty"`
	// File is a glob on the file the finding is in, as a finding of a
	// package or chart names it ("values.yaml"); "" is any file.
	File string `json:"file,omitempty"`
	// Reason says why the team accepts these findings (for the reader of
	// the configuration; it changes nothing).
	Reason string `json:"reason,omitempty"`
}

// Silenced counts the findings a Filter dropped, by reason.
type Silenced struct {
	Disabled, Ignored, Baseline int
}

// Total is the number of findings dropped for any reason.
func (s Silenced) Total() int { return s.Disabled + s.Ignored + s.Baseline }

// Add adds the counts of t to s.
func (s *Silenced) Add(t Silenced) {
	if s == nil {
		return
	}
	s.Disabled += t.Disabled
	s.Ignored += t.Ignored
	s.Baseline += t.Baseline
}

// Apply returns the findings of a report the filter keeps, in their
// order, and how many it dropped. A finding's file, for Ignore.File and
// the baseline, is the file it names (relative to the report's folder),
// else the report's file; a baseline entry also matches with the file
// joined to the report's folder, as several-file -o json output names it.
func (f *Filter) Apply(r Report) (Report, Silenced) {
	if f == nil {
		f = &Filter{}
	}
	var n Silenced
	if f.usedIgnore == nil {
		f.usedIgnore, f.usedBaseline = map[int]int{}, map[int]int{}
	}
	kept := make([]Finding, 0, len(r.Findings))
	for _, fd := range r.Findings {
		switch {
		case f.disabled(fd.Rule):
			n.Disabled++
		case f.ignored(r.File, fd):
			n.Ignored++
		case f.inBaseline(r.File, fd):
			n.Baseline++
		default:
			fd.Severity = f.severityOf(fd.Rule, fd.Severity)
			kept = append(kept, fd)
		}
	}
	r.Findings = kept
	return r, n
}

func (f *Filter) disabled(rule string) bool {
	for _, g := range f.Disable {
		if globMatch(g, rule) {
			return true
		}
	}
	return false
}

func (f *Filter) ignored(reportFile string, fd Finding) bool {
	for i, ig := range f.Ignore {
		if ig.Rule != "" && !globMatch(ig.Rule, fd.Rule) {
			continue
		}
		if ig.File != "" && !globMatch(ig.File, fileOf(reportFile, fd)) {
			continue
		}
		if ig.Pointer != "" && !pointerMatch(ig.Pointer, fd.Pointer) {
			continue
		}
		if f.usedIgnore != nil {
			f.usedIgnore[i]++
		}
		return true
	}
	return false
}

func (f *Filter) inBaseline(reportFile string, fd Finding) bool {
	for i, b := range f.Baseline {
		if b.Rule != fd.Rule || b.Pointer != fd.Pointer {
			continue
		}
		if b.File == "" || b.File == fileOf(reportFile, fd) || b.File == findingURI(reportFile, fd.File) {
			if f.usedBaseline != nil {
				f.usedBaseline[i]++
			}
			return true
		}
	}
	return false
}

// fileOf is the file a finding is in: its own, else the report's.
func fileOf(reportFile string, fd Finding) string {
	if fd.File != "" {
		return fd.File
	}
	return reportFile
}

// globMatch is path.Match that treats a malformed pattern as matching
// nothing (ReadConfig and CheckRuleGlob refuse such patterns up front).
func globMatch(pattern, s string) bool {
	ok, err := path.Match(pattern, s)
	return err == nil && ok
}

// pointerMatch reports whether a JSON pointer matches a pointer glob (see
// Ignore.Pointer). Tokens are compared as the pointer writes them (a key
// a/b as a~1b), so that "*" matches any one key, slashes and all.
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

// knownRules lists the rules of the sets and those that run whatever the
// sets (kudo-params, chart-values), each once, sorted by id.
func knownRules(sets []*Set) []*Rule {
	seen := map[string]bool{}
	var out []*Rule
	add := func(r *Rule) {
		if r != nil && !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, r)
		}
	}
	for _, s := range sets {
		if s == nil {
			continue
		}
		for _, r := range s.Rules {
			add(r)
		}
	}
	add(kudoParams)
	add(chartValuesRule)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// CheckRuleGlob returns an error for a rule glob that is malformed or
// matches no rule of the sets (nor kudo-params or chart-values, which
// run whatever the sets), naming the closest rule ids:
// a *schema.Error of kind schema.KindUsage. Pass Sets() and any sets of
// your own.
func CheckRuleGlob(glob string, sets ...*Set) error {
	if _, err := path.Match(glob, ""); err != nil {
		return schema.NewError(schema.KindUsage, "", "rule pattern %q: %v", glob, err)
	}
	var ids []string
	for _, r := range knownRules(sets) {
		if globMatch(glob, r.ID) {
			return nil
		}
		ids = append(ids, r.ID)
	}
	msg := fmt.Sprintf("unknown rule %q", glob)
	if strings.ContainsAny(glob, `*?[\`) {
		msg = fmt.Sprintf("rule pattern %q matches no rule", glob)
	}
	if c := suggest.Closest(glob, ids); len(c) > 0 {
		msg += ": did you mean " + strings.Join(c, " or ") + "?"
	}
	return schema.NewError(schema.KindUsage, "", "%s", msg)
}

// Config is a team's lint settings, read from a YAML file by ReadConfig:
//
//	rules: [cluster-app]          # the sets to run (paramctl's --rules)
//	disable: [R18-empty-default, "R5-title-*"]
//	ignore:
//	  - rule: "*"
//	    pointer: /properties/internal/**
//	    reason: not shown to users
//	words: [cert-manager, etcd, Pod Security Standards]
//
// Disable and Ignore become a Filter; Words are names the title rules
// accept as written (product names and other proper nouns: lower case at
// the start of a title, capitals inside it, punctuation inside them).
type Config struct {
	// Rules names the sets to run; empty leaves the choice to the caller.
	Rules []string
	// Disable are rule-id globs to turn off (see Filter.Disable).
	Disable []string
	// Ignore entries accept findings by rule and place.
	Ignore []Ignore
	// Words are accepted by the title rules as written (see Sets).
	Words []string
	// Severity overrides the severity of rules' findings (see
	// Filter.Severity); the file's key severity maps a rule glob to
	// error, warning or info.
	Severity []SeverityOverride
}

// configKeys are the keys a configuration file may hold.
var configKeys = []string{"rules", "disable", "ignore", "words", "severity"}

// ReadConfig reads a configuration file (YAML or JSON). Every fault is a
// *schema.Error with the line and the pointer of the entry, and all of
// them come at once as a schema.ErrorList: an unknown key (with the
// closest known one), a value of the wrong type, a rule glob that is
// malformed or matches no rule of the sets it resolves against (see
// CheckRuleGlob: pass Sets() and any sets of your own), a malformed
// pointer glob.
func ReadConfig(data []byte, sets ...*Set) (*Config, error) {
	d, err := document.Read(data, document.Options{})
	if err != nil {
		return nil, publicError(err)
	}
	c := &Config{}
	if d.Empty {
		return c, nil
	}
	var errs schema.ErrorList
	fail := func(ptr, format string, a ...any) {
		errs = append(errs, &schema.Error{Pointer: ptr, Kind: schema.KindInvalid, Message: fmt.Sprintf(format, a...)})
	}
	m, ok := d.Value.(map[string]any)
	if !ok {
		return nil, &schema.Error{Kind: schema.KindInvalid, Message: "a lint configuration is a mapping with the keys " + strings.Join(configKeys, ", ")}
	}
	strs := func(key string) []string {
		v, ok := m[key]
		if !ok || v == nil {
			return nil
		}
		if s, ok := v.(string); ok {
			return []string{s}
		}
		list, ok := v.([]any)
		if !ok {
			fail("/"+key, "%s: expected a list of strings", key)
			return nil
		}
		var out []string
		for i, x := range list {
			s, ok := x.(string)
			if !ok {
				fail(pointer.AppendIndex("/"+key, i), "%s: expected a string, not %s", key, describe(x))
				continue
			}
			out = append(out, s)
		}
		return out
	}
	for _, k := range sortedKeys(m) {
		known := false
		for _, c := range configKeys {
			known = known || c == k
		}
		if !known {
			msg := fmt.Sprintf("unknown key %q (known: %s)", k, strings.Join(configKeys, ", "))
			if c := suggest.Closest(k, configKeys); len(c) > 0 {
				msg = fmt.Sprintf("unknown key %q: did you mean %s?", k, strings.Join(c, " or "))
			}
			fail(pointer.Append("", k), "%s", msg)
		}
	}
	c.Rules = strs("rules")
	c.Words = strs("words")
	c.Disable = strs("disable")
	for i, g := range c.Disable {
		if err := CheckRuleGlob(g, sets...); err != nil {
			fail(pointer.AppendIndex("/disable", i), "disable: %v", err)
		}
	}
	if v, ok := m["ignore"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			fail("/ignore", "ignore: expected a list of entries with rule and pointer")
		}
		for i, x := range list {
			at := pointer.AppendIndex("/ignore", i)
			e, ok := x.(map[string]any)
			if !ok {
				fail(at, "ignore: expected an entry with rule and pointer, not %s", describe(x))
				continue
			}
			var ig Ignore
			for _, k := range sortedKeys(e) {
				s, isStr := e[k].(string)
				if !isStr {
					fail(pointer.Append(at, k), "ignore: %s: expected a string, not %s", k, describe(e[k]))
					continue
				}
				switch k {
				case "rule":
					ig.Rule = s
					if err := CheckRuleGlob(s, sets...); err != nil {
						fail(pointer.Append(at, k), "ignore: %v", err)
					}
				case "pointer":
					ig.Pointer = s
					if _, err := globTokens(s); err != nil {
						fail(pointer.Append(at, k), "ignore: %v", err)
					}
				case "file":
					ig.File = s
					if _, err := path.Match(s, ""); err != nil {
						fail(pointer.Append(at, k), "ignore: file pattern %q: %v", s, err)
					}
				case "reason":
					ig.Reason = s
				default:
					fail(pointer.Append(at, k), "ignore: unknown key %q (known: rule, pointer, file, reason)", k)
				}
			}
			if ig.Rule == "" && ig.Pointer == "" && ig.File == "" {
				fail(at, "ignore: an entry needs a rule, a pointer or a file: an empty one would silence everything")
			}
			c.Ignore = append(c.Ignore, ig)
		}
	}
	if v, ok := m["severity"]; ok && v != nil {
		sm, ok := v.(map[string]any)
		if !ok {
			fail("/severity", "severity: expected a mapping of rule globs to error, warning or info")
		}
		for _, g := range sortedKeys(sm) {
			at := pointer.Append("/severity", g)
			if err := CheckRuleGlob(g, sets...); err != nil {
				fail(at, "severity: %v", err)
				continue
			}
			sev, _ := sm[g].(string)
			switch Severity(sev) {
			case Error, Warning, Info:
				c.Severity = append(c.Severity, SeverityOverride{Rule: g, Severity: Severity(sev)})
			default:
				what := describe(sm[g])
				if _, isStr := sm[g].(string); isStr {
					what = fmt.Sprintf("%q", sev)
				}
				fail(at, "severity: %s: expected error, warning or info, not %s", g, what)
			}
		}
	}
	if len(errs) > 0 {
		if node, err := document.ParseNode(data); err == nil {
			for _, e := range errs {
				e.Line, e.Column, _ = document.Locate(node, e.Pointer)
			}
		}
		return nil, errs.Err()
	}
	return c, nil
}

// describe names the kind of a plain value for a message.
func describe(v any) string { return value.Describe(v, "a list", "a mapping") }

// Filter is the configuration's Disable and Ignore, with a baseline.
func (c *Config) Filter(baseline []Finding) *Filter {
	if c == nil {
		return &Filter{Baseline: baseline}
	}
	return &Filter{Disable: c.Disable, Ignore: c.Ignore, Baseline: baseline, Severity: c.Severity}
}

// Sets returns the sets as the configuration runs them: without the
// rules Disable turns off, and with the title rules (R5-title-case,
// R5-title-characters) accepting Words. The sets given are not changed;
// a rule listed in several of them stays one rule.
func (c *Config) Sets(sets ...*Set) []*Set {
	if c == nil {
		c = &Config{}
	}
	copies := map[*Rule]*Rule{}
	out := make([]*Set, 0, len(sets))
	f := Filter{Disable: c.Disable}
	for _, s := range sets {
		if s == nil {
			continue
		}
		ns := &Set{Name: s.Name, Doc: s.Doc}
		for _, r := range s.Rules {
			if r == nil || f.disabled(r.ID) {
				continue
			}
			if cp, ok := copies[r]; ok {
				ns.Rules = append(ns.Rules, cp)
				continue
			}
			cp := r
			if len(c.Words) > 0 && wordRules[r.ID] && r.Run != nil {
				words, run := c.Words, r.Run
				cr := *r
				cr.Run = func(p *Pass) {
					p.words = words
					run(p)
				}
				cp = &cr
			}
			copies[r] = cp
			ns.Rules = append(ns.Rules, cp)
		}
		out = append(out, ns)
	}
	return out
}

// wordRules are the rules that accept the configuration's words.
var wordRules = map[string]bool{"R5-title-case": true, "R5-title-characters": true}

// ReadBaseline reads the -o json output of an earlier lint run: a list of
// findings, each with rule and pointer (file when it names one). The
// error is for text that is no such list.
func ReadBaseline(data []byte) ([]Finding, error) {
	d, err := document.Read(data, document.Options{})
	if err != nil {
		return nil, publicError(err)
	}
	if d.Empty {
		return []Finding{}, nil
	}
	list, ok := d.Value.([]any)
	if !ok {
		return nil, &schema.Error{Kind: schema.KindInvalid, Message: "a baseline is the -o json output of an earlier lint run: a list of findings"}
	}
	out := make([]Finding, 0, len(list))
	for i, x := range list {
		m, ok := x.(map[string]any)
		rule, _ := m["rule"].(string)
		ptr, hasPtr := m["pointer"].(string)
		if !ok || rule == "" || !hasPtr {
			return nil, &schema.Error{Pointer: pointer.AppendIndex("", i), Kind: schema.KindInvalid,
				Message: "a baseline entry is a finding with \"rule\" and \"pointer\" (the -o json output of an earlier lint run)"}
		}
		f := Finding{Rule: rule, Pointer: ptr}
		f.File, _ = m["file"].(string)
		if s, ok := m["severity"].(string); ok {
			f.Severity = Severity(s)
		}
		f.Message, _ = m["message"].(string)
		out = append(out, f)
	}
	return out, nil
}
