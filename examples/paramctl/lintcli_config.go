package main

// paramctl lint's configuration file (--config) and rule globs: what a
// team sets around the findings. Package lint finds; what a command line
// reads, drops and prints around the findings is paramctl's own.

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/lint"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// The files of a Helm chart, as Helm names them.
const (
	chartFile       = "Chart.yaml"
	chartSchemaFile = "values.schema.json"
	chartValuesFile = "values.yaml"
	// chartOverlays are the values files chart-testing installs a chart
	// with, one at a time.
	chartOverlays = "ci/*.yaml"
)

// lintBuiltinSets are the rule sets --rules names, sorted by name, each
// a set of its own; words go to the cluster-app set's title rules.
func lintBuiltinSets(words ...string) []*lint.Set {
	return []*lint.Set{lint.ClusterApp(words...), lint.Kudo(), lint.Structural()}
}

// lintKnownRules lists the rules of the sets and those that run whatever
// the sets (kudo-params, and the chart rules chart-values,
// chart-values-drift and chart-file), each once, sorted by id: every id a
// run can report.
func lintKnownRules(sets []*lint.Set) []*lint.Rule {
	seen := map[string]bool{}
	var out []*lint.Rule
	add := func(r *lint.Rule) {
		if r != nil && !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, r)
		}
	}
	for _, s := range sets {
		if s != nil {
			for _, r := range s.Rules {
				add(r)
			}
		}
	}
	for _, r := range lint.Kudo().Rules {
		if r.ID == "kudo-params" { // a params file that does not convert
			add(r)
		}
	}
	for _, r := range (*lint.Chart)(nil).Rules() {
		add(r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// checkRuleGlob returns an error for a rule glob that is malformed or
// matches none of the rules, naming the closest ids.
func checkRuleGlob(glob string, rules []*lint.Rule) error {
	if _, err := path.Match(glob, ""); err != nil {
		return fmt.Errorf("rule pattern %q: %v", glob, err)
	}
	var ids []string
	for _, r := range rules {
		if globMatch(glob, r.ID) {
			return nil
		}
		ids = append(ids, r.ID)
	}
	msg := fmt.Sprintf("unknown rule %q", glob)
	if strings.ContainsAny(glob, `*?[\`) {
		msg = fmt.Sprintf("rule pattern %q matches no rule", glob)
	}
	if c := closest(glob, ids); len(c) > 0 {
		msg += ": did you mean " + strings.Join(c, " or ") + "?"
	}
	return errors.New(msg)
}

// globMatch is path.Match that treats a malformed pattern as matching
// nothing (the configuration reader refuses such patterns up front).
func globMatch(pattern, s string) bool {
	ok, err := path.Match(pattern, s)
	return err == nil && ok
}

// lintConfig is a team's lint settings, read from a YAML file by
// readLintConfig:
//
//	rules: [cluster-app]          # the sets to run (--rules)
//	disable: [R18-empty-default, "R5-title-*"]
//	ignore:
//	  - rule: "*"
//	    pointer: /properties/internal/**
//	    reason: not shown to users
//	words: [cert-manager, etcd, Pod Security Standards]
//	severity: {R5-*: warning}
type lintConfig struct {
	// Rules names the sets to run; empty leaves the choice to --rules.
	Rules []string
	// Disable are rule-id globs to turn off (see lintFilter.Disable).
	Disable []string
	// Ignore entries accept findings by rule and place.
	Ignore []lintIgnore
	// Words are accepted by the title rules as written (lint.ClusterApp).
	Words []string
	// Severity overrides the severity of rules' findings.
	Severity []severityOverride
}

// lintIgnore accepts the findings of the rules matching Rule at the
// places matching Pointer (and File, when set).
type lintIgnore struct {
	// Rule is a glob on the rule id (path.Match syntax); "" or "*" is any
	// rule.
	Rule string
	// Pointer is a glob on the finding's JSON pointer, token by token: a
	// token "*" matches one token, "**" any number of them (none too),
	// any other token is a path.Match pattern of one token. "" or "/**"
	// is any place.
	Pointer string
	// File is a glob on the file the finding is in: as the output names
	// it (from the root, see lintRoot) or relative to the chart or
	// package folder ("values.yaml"); "" is any file.
	File string
	// Reason says why the team accepts these findings.
	Reason string
}

// severityOverride sets the severity of the findings of the rules
// matching Rule (the configuration's severity key).
type severityOverride struct {
	Rule     string
	Severity lint.Severity
}

// lintConfigKeys are the keys a configuration file may hold.
var lintConfigKeys = []string{"rules", "disable", "ignore", "words", "severity"}

// anySchema accepts any document: params.Decode with it checks a YAML
// file as paramkit reads every input (syntax errors with their line, a
// duplicate key at its pointer).
var anySchema = func() *schema.Schema {
	s, err := schema.Parse([]byte("{}"))
	if err != nil {
		panic(err) // cannot happen: the empty schema compiles
	}
	return s
}()

// readYAMLNode reads a YAML (or JSON) file as a node tree with lines;
// nil for a file without a document (empty, or comments only). The
// error is params.Decode's: a *schema.Error with the line.
func readYAMLNode(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	yerr := yaml.Unmarshal(data, &doc)
	if yerr == nil && len(doc.Content) == 0 {
		return nil, nil
	}
	if _, err := params.Decode(anySchema, data); err != nil {
		return nil, err
	}
	if yerr != nil {
		return nil, schema.NewError(schema.KindSyntax, "", "%s", strings.TrimPrefix(yerr.Error(), "yaml: "))
	}
	return doc.Content[0], nil
}

// readLintConfig reads a configuration file (YAML or JSON). Every fault
// is a *schema.Error with the line and the pointer of the entry, all of
// them at once (schema.ErrorsOf reads them): an unknown key (with the
// closest known one), a value of the wrong type, a rule glob that is
// malformed or matches none of the rules, a malformed pointer glob.
func readLintConfig(data []byte, rules []*lint.Rule) (*lintConfig, error) {
	root, err := readYAMLNode(data)
	if err != nil {
		return nil, err
	}
	c := &lintConfig{}
	if isNull(root) {
		return c, nil // empty, comments only, or null
	}
	if root.Kind != yaml.MappingNode {
		return nil, &schema.Error{Kind: schema.KindInvalid, Message: "a lint configuration is a mapping with the keys " + strings.Join(lintConfigKeys, ", ")}
	}
	var errs schema.ErrorList
	fail := func(n *yaml.Node, ptr, format string, a ...any) {
		errs = append(errs, &schema.Error{Pointer: ptr, Line: n.Line, Column: n.Column, Kind: schema.KindInvalid, Message: fmt.Sprintf(format, a...)})
	}
	strs := func(key string, n *yaml.Node) []string {
		at := appendToken("", key)
		switch {
		case isNull(n):
			return nil
		case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
			return []string{n.Value}
		case n.Kind != yaml.SequenceNode:
			fail(n, at, "%s: expected a list of strings", key)
			return nil
		}
		var out []string
		for i, x := range n.Content {
			if x.Kind != yaml.ScalarNode || x.Tag != "!!str" {
				fail(x, at+"/"+strconv.Itoa(i), "%s: expected a string, not %s", key, describeNode(x))
				continue
			}
			out = append(out, x.Value)
		}
		return out
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		at := appendToken("", k.Value)
		switch k.Value {
		case "rules":
			c.Rules = strs(k.Value, v)
		case "words":
			c.Words = strs(k.Value, v)
		case "disable":
			c.Disable = strs(k.Value, v)
			// One string or a list of them: check each string node where
			// it stands (strs has reported the others).
			nodes := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				nodes = v.Content
			}
			for j, n := range nodes {
				if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
					continue
				}
				if err := checkRuleGlob(n.Value, rules); err != nil {
					p := at
					if n != v {
						p = at + "/" + strconv.Itoa(j)
					}
					fail(n, p, "disable: %v", err)
				}
			}
		case "ignore":
			c.Ignore = readIgnore(v, fail, rules)
		case "severity":
			c.Severity = readSeverity(v, fail, rules)
		default:
			msg := fmt.Sprintf("unknown key %q (known: %s)", k.Value, strings.Join(lintConfigKeys, ", "))
			if cl := closest(k.Value, lintConfigKeys); len(cl) > 0 {
				msg = fmt.Sprintf("unknown key %q: did you mean %s?", k.Value, strings.Join(cl, " or "))
			}
			fail(k, at, "%s", msg)
		}
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
		return nil, errs.Err()
	}
	return c, nil
}

// readIgnore reads the configuration's ignore entries.
func readIgnore(v *yaml.Node, fail func(*yaml.Node, string, string, ...any), rules []*lint.Rule) []lintIgnore {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		fail(v, "/ignore", "ignore: expected a list of entries with rule and pointer")
		return nil
	}
	var out []lintIgnore
	for i, x := range v.Content {
		at := "/ignore/" + strconv.Itoa(i)
		if x.Kind != yaml.MappingNode {
			fail(x, at, "ignore: expected an entry with rule and pointer, not %s", describeNode(x))
			continue
		}
		var ig lintIgnore
		for j := 0; j+1 < len(x.Content); j += 2 {
			k, e := x.Content[j], x.Content[j+1]
			kat := appendToken(at, k.Value)
			if e.Kind != yaml.ScalarNode || e.Tag != "!!str" {
				fail(e, kat, "ignore: %s: expected a string, not %s", k.Value, describeNode(e))
				continue
			}
			s := e.Value
			switch k.Value {
			case "rule":
				ig.Rule = s
				if err := checkRuleGlob(s, rules); err != nil {
					fail(e, kat, "ignore: %v", err)
				}
			case "pointer":
				ig.Pointer = s
				if _, err := globTokens(s); err != nil {
					fail(e, kat, "ignore: %v", err)
				}
			case "file":
				ig.File = s
				if _, err := path.Match(s, ""); err != nil {
					fail(e, kat, "ignore: file pattern %q: %v", s, err)
				}
			case "reason":
				ig.Reason = s
			default:
				fail(k, kat, "ignore: unknown key %q (known: rule, pointer, file, reason)", k.Value)
			}
		}
		if ig.Rule == "" && ig.Pointer == "" && ig.File == "" {
			fail(x, at, "ignore: an entry needs a rule, a pointer or a file: an empty one would silence everything")
		}
		out = append(out, ig)
	}
	return out
}

// readSeverity reads the configuration's severity key: rule globs to
// error, warning or info.
func readSeverity(v *yaml.Node, fail func(*yaml.Node, string, string, ...any), rules []*lint.Rule) []severityOverride {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		fail(v, "/severity", "severity: expected a mapping of rule globs to error, warning or info")
		return nil
	}
	var out []severityOverride
	for j := 0; j+1 < len(v.Content); j += 2 {
		k, e := v.Content[j], v.Content[j+1]
		g := k.Value
		at := appendToken("/severity", g)
		if err := checkRuleGlob(g, rules); err != nil {
			fail(k, at, "severity: %v", err)
			continue
		}
		switch sev := lint.Severity(e.Value); {
		case e.Kind == yaml.ScalarNode && e.Tag == "!!str" && (sev == lint.Error || sev == lint.Warning || sev == lint.Info):
			out = append(out, severityOverride{Rule: g, Severity: sev})
		case e.Kind == yaml.ScalarNode && e.Tag == "!!str":
			fail(e, at, "severity: %s: expected error, warning or info, not %q", g, e.Value)
		default:
			fail(e, at, "severity: %s: expected error, warning or info, not %s", g, describeNode(e))
		}
	}
	return out
}

// isNull reports an absent value or YAML's null.
func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// describeNode names the kind of a YAML value for a message.
func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return describeNode(n.Alias)
	}
	switch n.Tag {
	case "!!null":
		return "null"
	case "!!bool":
		return "a boolean"
	case "!!int", "!!float":
		return "a number"
	}
	return "a string"
}

// lintSets returns the sets as the configuration runs them: without the
// rules Disable turns off (their findings are dropped by the filter too).
// A rule listed in several sets stays one rule.
func (c *lintConfig) lintSets(sets []*lint.Set) []*lint.Set {
	f := lintFilter{Disable: c.Disable}
	out := make([]*lint.Set, 0, len(sets))
	for _, s := range sets {
		ns := &lint.Set{Name: s.Name, Doc: s.Doc}
		for _, r := range s.Rules {
			if r != nil && !f.disabled(r.ID) {
				ns.Rules = append(ns.Rules, r)
			}
		}
		out = append(out, ns)
	}
	return out
}
