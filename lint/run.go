package lint

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// Kudo returns the kudo rule set: KUDO KEP-33 vocabulary (trigger,
// immutable, oldName) and parameter hygiene, with the package rules that
// Package.Lint runs. Each call returns a set of its own: changing it
// changes nothing else.
func Kudo() *Set { return copySet(kudoSet) }

// ClusterApp returns the cluster-app rule set: the Giant Swarm
// cluster-app values schema RFC, requirements R1 to R18. Each call returns
// a set of its own.
//
// words are names the title rules (R5-title-case, R5-title-characters)
// accept as written: product names and other proper nouns, phrases too
// ("cert-manager", "etcd", "Pod Security Standards"), lower case at the
// start of a title, capitals inside it, punctuation within them.
func ClusterApp(words ...string) *Set {
	s := copySet(clusterAppSet)
	if len(words) == 0 {
		return s
	}
	words = append([]string(nil), words...)
	for _, r := range s.Rules {
		if run := r.Run; wordRules[r.ID] && run != nil {
			r.Run = func(p *Pass) {
				p.words = words
				run(p)
			}
		}
	}
	return s
}

// wordRules are the rules that accept ClusterApp's words.
var wordRules = map[string]bool{"R5-title-case": true, "R5-title-characters": true}

// Structural returns the structural rule set: would a kube-apiserver
// accept the document as a CRD's openAPIV3Schema. Each call returns a set
// of its own.
func Structural() *Set { return copySet(structuralSet) }

// copySet copies a set and its rules, so that nothing a caller holds
// changes the package's own.
func copySet(s *Set) *Set {
	out := &Set{Name: s.Name, Doc: s.Doc, Rules: make([]*Rule, len(s.Rules))}
	for i, r := range s.Rules {
		c := *r
		out.Rules[i] = &c
	}
	return out
}

// Run runs every rule of the sets over a schema document and returns the
// findings sorted by pointer (Run has no source text, so no places), then
// rule, each distinct finding once. s is the
// compiled schema, or nil when the document does not compile (rules then
// see only doc); doc may be nil when s is given. A rule listed in several
// sets runs once. A rule that panics becomes an error finding instead of
// taking the caller down.
func Run(s *schema.Schema, doc any, sets ...*Set) []Finding {
	if doc == nil && s != nil {
		doc = s.Document()
	}
	return run(s, doc, &runState{compiled: s != nil}, sets)
}

// Document reads a schema document (YAML or JSON) and runs the sets over it.
// Any well-formed document can be linted: what the engine refuses to
// compile becomes findings of the rule schema-compile (in the sets that
// list it), and the rules that need no compiled schema still run. Rules
// marked DocOnly run while the schema compiles; when every rule is, the
// schema is not compiled at all.
//
// A KUDO v1beta1 params file (the list format or KUDO's first format) is
// linted as the schema it converts to, each finding placed on the
// parameter it is about, and an OperatorVersion as the schema it carries
// (findings under /spec/parameters); what cannot be converted becomes findings of
// the rule kudo-params. A CustomResourceDefinition manifest is linted
// version by version: each version's openAPIV3Schema (one shared
// spec.validation schema once), findings pointing into the manifest
// (/spec/versions/1/schema/openAPIV3Schema/properties/spec/...) with
// messages that start with the version they are about; a CRD that
// declares no schema is an error of kind schema.KindNotFound. Each finding
// carries the line and column of its pointer in data.
//
// The error is for a document that is not well-formed YAML or JSON, for
// one that is no schema at all (a flat map of values: a *schema.Error of
// kind schema.KindNotSchema), and for a KUDO operator.yaml, which is
// linted with its package folder (ReadPackage, then Package.Lint).
func Document(data []byte, sets ...*Set) ([]Finding, error) {
	if isCRD(data) {
		return lintCRD(data, sets)
	}
	fs, err := lintDocument(data, sets)
	locate(data, fs)
	sortFindings(fs) // by place, now that the places are known
	return fs, err
}

// lintDocument is Document for a document that is no CRD, without lines.
func lintDocument(data []byte, sets []*Set) ([]Finding, error) {
	if isOperatorFile(data) {
		return nil, schema.NewError(schema.KindNotSchema, "", "%w", ErrOperatorFile)
	}
	return lintParams(data, nil, sets)
}

// ErrOperatorFile is wrapped by Document's error for a KUDO operator.yaml (a
// *schema.Error of kind schema.KindNotSchema): it declares plans and
// tasks, not parameters, and is checked with its package.
var ErrOperatorFile = errors.New("this is a KUDO operator.yaml, not a schema: lint the package folder it stands for (lint.ReadPackage, then Package.Lint; paramctl lint DIR)")

// lintParams lints a schema or a v1beta1 params file (converted first,
// findings placed back on the file), with what a package adds (info, nil
// for a file alone). A params file that cannot be converted gives the
// findings of kudo-params, whatever the sets.
func lintParams(data []byte, info *pkgInfo, sets []*Set) ([]Finding, error) {
	c, err := convert.FromV1beta1(data)
	if err != nil {
		var el schema.ErrorList
		var pe *schema.Error
		switch {
		case problem.As(err, &el):
			doc, order, derr := decode(data)
			if derr != nil {
				return nil, derr
			}
			if _, isMap := doc.(map[string]any); !isMap {
				break // no params file: schema-compile says what it is
			}
			// A params file that does not convert: its faults are the
			// findings, whatever the sets, as it can be linted no other way.
			st := &runState{order: order, doc: doc, pkg: info, compiled: true, convertErrs: el}
			st.run(nil, kudoParams)
			return st.finish(nil), nil
		case errors.As(err, &pe) && pe.Kind == schema.KindNotSchema:
			return nil, err
		}
		return lintWith(data, info, sets) // it says what is unreadable
	}
	if isOperatorVersion(c) && info == nil {
		return lintOperatorVersion(data, c, sets)
	}
	if !c.Changed || isOperatorVersion(c) {
		fs, err := lintWith(data, info, sets)
		if err == nil && info != nil {
			nameParameters(fs)
		}
		return fs, err
	}
	// YAML keeps the parameters' order for the package rules.
	js, yerr := c.YAML()
	if yerr != nil {
		if js, yerr = c.JSON(""); yerr != nil {
			return nil, yerr
		}
	}
	fs, err := lintWith(js, info, sets)
	if err != nil {
		return nil, err
	}
	if info != nil {
		nameParameters(fs)
	}
	place := paramsPlacer(data)
	for i, f := range fs {
		if f.File != "" {
			continue
		}
		at, moved := place(f.Pointer)
		if moved {
			fs[i].Message = fmt.Sprintf("%s (converted schema: %s)", f.Message, displayPtr(f.Pointer))
		}
		fs[i].Pointer = at
	}
	return fs, nil
}

// ovParams is where an OperatorVersion keeps its parameters.
const ovParams = "/spec/parameters"

// lintOperatorVersion lints the schema an OperatorVersion carries, with
// findings pointing into the manifest: at the node of a schema written in
// spec.parameters (kudo.dev/v1beta2), at the list entry of the parameter
// a finding is about in a v1beta1 list.
func lintOperatorVersion(data []byte, c *convert.Converted, sets []*Set) ([]Finding, error) {
	if c.Schema == nil {
		return []Finding{}, nil // it declares no parameters
	}
	js, err := json.Marshal(c.Schema)
	if err != nil {
		return nil, err
	}
	fs, err := lintWith(js, nil, sets)
	if err != nil {
		return nil, err
	}
	doc, _, err := decode(data)
	if err != nil {
		return nil, err
	}
	raw, _ := pointer.Get(doc, ovParams)
	list, isList := raw.([]any)
	index := map[string]int{}
	for i, p := range list {
		if pm, ok := p.(map[string]any); ok {
			if name, ok := pm["name"].(string); ok {
				index[name] = i
			}
		}
	}
	for i, f := range fs {
		if !isList {
			fs[i].Message = movePointers(f.Message, c.Schema, ovParams)
			fs[i].Pointer = ovParams + f.Pointer
			continue
		}
		at := ovParams
		if toks, err := pointer.Split(f.Pointer); err == nil && len(toks) >= 2 && toks[0] == "properties" {
			if j, ok := index[toks[1]]; ok {
				at = pointer.AppendIndex(ovParams, j)
			}
		}
		fs[i].Message = fmt.Sprintf("%s (converted schema: %s)", f.Message, displayPtr(f.Pointer))
		fs[i].Pointer = at
	}
	sortFindings(fs)
	return fs, nil
}

// isOperatorVersion reports whether a conversion's result is an
// OperatorVersion (linted as written, not as a params file).
func isOperatorVersion(c *convert.Converted) bool {
	m, _ := c.Document.(map[string]any)
	return m != nil && m["kind"] == "OperatorVersion"
}

// kudoParams reports why a KUDO v1beta1 params file cannot be converted
// to a schema: each problem at its pointer into the file. It is listed in
// the kudo set, and Document and Package.Lint report its findings whatever the
// sets, as such a file can be linted no other way.
var kudoParams = &Rule{
	ID: "kudo-params", Set: "kudo", Severity: Error, DocOnly: true,
	Doc: "a KUDO v1beta1 params file converts to a schema: every parameter has a name used once, a known type and a default of that type",
	Run: func(p *Pass) {
		for _, e := range p.st.convertErrs {
			p.reportError(e)
		}
	},
}

// lintWith is Document with what a package adds (nil for a schema alone).
func lintWith(data []byte, pkg *pkgInfo, sets []*Set) ([]Finding, error) {
	doc, order, err := decode(data)
	if err != nil {
		return nil, err
	}
	st := &runState{order: order, doc: doc, pkg: pkg}
	rules := uniqueRules(sets)
	needsSchema := false
	for _, r := range rules {
		needsSchema = needsSchema || !r.DocOnly
	}
	if !needsSchema {
		for _, r := range rules {
			st.run(nil, r)
		}
		return st.finish(nil), nil
	}
	type compiled struct {
		s   *schema.Schema
		err error
	}
	done := make(chan compiled, 1)
	go func() {
		defer func() {
			// No input may take the caller down, not even through the engine.
			if v := recover(); v != nil {
				done <- compiled{nil, schema.NewError(schema.KindSchema, "", "the schema engine failed: %v (please report this)", v)}
			}
		}()
		s, err := schema.FromValue(doc)
		done <- compiled{s, err}
	}()
	for _, r := range rules {
		if r.DocOnly {
			st.run(nil, r)
		}
	}
	c := <-done
	st.compiled = true
	if c.err != nil {
		c.s = nil
		if !problem.As(c.err, &st.compileErrs) {
			st.compileErrs = schema.ErrorList{{Kind: schema.KindSchema, Message: c.err.Error()}}
		}
	}
	for _, r := range rules {
		if !r.DocOnly {
			st.run(c.s, r)
		}
	}
	return st.finish(c.s), nil
}

// runState is what the rules of one run share.
type runState struct {
	findings []Finding
	order    map[string][]string // source order of object keys, when known
	v        *view
	doc      any
	// compiled is true once compileErrs holds the outcome of compiling doc.
	compiled    bool
	compileErrs schema.ErrorList
	// convertErrs are why a v1beta1 params file does not convert.
	convertErrs schema.ErrorList
	pkg         *pkgInfo // the package around the schema, if any
}

func run(s *schema.Schema, doc any, st *runState, sets []*Set) []Finding {
	st.doc = doc
	for _, r := range uniqueRules(sets) {
		st.run(s, r)
	}
	return st.finish(s)
}

// uniqueRules lists the rules of the sets, each once (by ID: the
// schema-compile rule of two sets that list it is one rule), in order.
func uniqueRules(sets []*Set) []*Rule {
	seen := map[*Rule]bool{}
	seenID := map[string]bool{}
	var out []*Rule
	for _, set := range sets {
		if set == nil {
			continue
		}
		for _, r := range set.Rules {
			if r == nil || r.Run == nil || seen[r] || (r.ID != "" && seenID[r.ID]) {
				continue
			}
			seen[r], seenID[r.ID] = true, true
			out = append(out, r)
		}
	}
	return out
}

// run runs one rule; a panic becomes an error finding.
func (st *runState) run(s *schema.Schema, r *Rule) {
	p := &Pass{Schema: s, Doc: st.doc, Rule: r, st: st}
	defer func() {
		if v := recover(); v != nil {
			p.ReportSeverity(Error, "", fmt.Sprintf("rule crashed: %v (please report this)", v))
		}
	}()
	r.Run(p)
}

// view returns the document as a tree of schema objects, built once per run.
func (p *Pass) view() *view {
	if p.st.v == nil {
		p.st.v = buildView(p.Doc, p.st.order, p.Schema)
	}
	return p.st.v
}

// compileErrors returns what the engine says about the document.
func (p *Pass) compileErrors() schema.ErrorList {
	if !p.st.compiled {
		p.st.compiled = true
		if _, err := schema.FromValue(p.Doc); err != nil && !problem.As(err, &p.st.compileErrs) {
			p.st.compileErrs = schema.ErrorList{{Kind: schema.KindSchema, Message: err.Error()}}
		}
	}
	return p.st.compileErrs
}

func uniqueFindings(fs []Finding) []Finding {
	if fs == nil {
		return []Finding{}
	}
	sortFindings(fs)
	out := fs[:0]
	for i, f := range fs {
		if i > 0 && f == fs[i-1] {
			continue
		}
		out = append(out, f)
	}
	return out
}

// resolvable returns ptr, or its nearest ancestor that resolves in doc.
func resolvable(doc any, ptr string) string {
	for ptr != "" {
		if _, ok := pointer.Get(doc, ptr); ok {
			return ptr
		}
		ptr = ptr[:strings.LastIndexByte(ptr, '/')]
	}
	return ""
}

// decode reads a YAML or JSON document into plain values and the source
// order of its object keys. A JSON document means exactly what it says.
func decode(data []byte) (any, map[string][]string, error) {
	d, err := document.Read(data, document.Options{Order: true})
	if err != nil {
		return nil, nil, publicError(err)
	}
	return d.Value, d.Order, nil
}

// locate fills in the Line and Column of each finding from the schema
// document's source text. Findings keep their order.
func locate(src []byte, fs []Finding) {
	if len(fs) == 0 {
		return
	}
	node, err := document.ParseNode(src)
	if err != nil {
		return
	}
	for i := range fs {
		fs[i].Line, fs[i].Column, _ = document.Locate(node, fs[i].Pointer)
	}
}

// dialect is the document's JSON Schema dialect: the compiled schema's,
// else what the root's $schema names (draft-04 and draft-06 spell some
// keywords differently), else "".
func (p *Pass) dialect() string {
	if p.Schema != nil {
		return p.Schema.Dialect()
	}
	m, _ := p.Doc.(map[string]any)
	if u, ok := m["$schema"].(string); ok {
		if s, err := schema.FromValue(map[string]any{"$schema": u}); err == nil {
			return s.Dialect()
		}
	}
	return ""
}
