package lint

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// Severity of a finding: error for MUST/MUST NOT, warning for SHOULD, info
// for advice.
type Severity string

// The severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Finding is one problem a rule found.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	// Pointer is an RFC 6901 pointer into the schema document that
	// resolves there ("" is the root); for a finding of chart-values, into
	// the values file the finding names.
	Pointer string `json:"pointer"`
	// Message says what to change.
	Message string `json:"message"`
	// Line and Column locate the pointer in the source file (1-based)
	// where known (Document, Package.Lint and Chart.Lint fill them in;
	// Run has no source text). They are part of the JSON form only for
	// a finding with a File.
	Line   int `json:"-"`
	Column int `json:"-"`
	// File names the file of a package or chart the finding is in,
	// relative to its folder ("params.yaml", "templates/deployment.yaml",
	// "values.schema.json", "values.yaml"); "" for a schema linted alone.
	// See Package.Lint and Chart.Lint.
	File string `json:"-"`
	// Kind is the kind of the engine's error a schema-compile finding
	// reports (schema.KindSchema, KindRefused, KindSyntax, …); "" for
	// the findings of other rules.
	Kind schema.Kind `json:"kind,omitempty"`
}

// String formats the finding for a person as `POINTER: message [severity
// rule]` (the root pointer as ""), preceded by `FILE:LINE: ` for a finding
// in a file of a package (`FILE: ` when the line is not known; a finding
// in a template may have no pointer, which is then left out).
func (f Finding) String() string {
	var b strings.Builder
	if f.File != "" {
		b.WriteString(f.File)
		if f.Line > 0 {
			fmt.Fprintf(&b, ":%d", f.Line)
		}
		b.WriteString(": ")
	}
	if f.File == "" || f.Pointer != "" {
		b.WriteString(pointer.Quote(f.Pointer))
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s [%s %s]", f.Message, f.Severity, f.Rule)
	return b.String()
}

// MarshalJSON writes {"rule","severity","pointer","message"}, plus "file"
// and "line" for a finding in a file of a package.
func (f Finding) MarshalJSON() ([]byte, error) {
	type base struct {
		Rule     string      `json:"rule"`
		Severity Severity    `json:"severity"`
		Pointer  string      `json:"pointer"`
		Message  string      `json:"message"`
		Kind     schema.Kind `json:"kind,omitempty"`
	}
	b := base{f.Rule, f.Severity, f.Pointer, f.Message, f.Kind}
	if f.File == "" {
		return json.Marshal(b)
	}
	return json.Marshal(struct {
		base
		File string `json:"file"`
		Line int    `json:"line,omitempty"`
	}{b, f.File, f.Line})
}

// Rule is one check.
type Rule struct {
	// ID is unique across sets; cluster-app ids start with the RFC's
	// requirement id (R5, R5-title-case).
	ID string
	// Set is the name of the rule set that defines the rule. A rule may
	// be listed in other sets too; a run runs it once.
	Set string
	// Doc is one line saying what the rule checks (and, where a
	// requirement cannot be checked by a program, says so).
	Doc string
	// Severity of the rule's findings unless the finding says otherwise.
	Severity Severity
	// Run reports findings through the pass.
	Run func(p *Pass)
	// DocOnly marks a rule that reads only the document (Pass.Doc), never
	// the compiled Pass.Schema: Document runs it while the schema compiles.
	DocOnly bool
}

// Set is a named list of rules.
type Set struct {
	Name  string
	Doc   string
	Rules []*Rule
}

// Finding order: by pointer, then rule id, then message, so output is stable.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return findingLess(fs[i], fs[j]) })
}

// findingLess is the one order of findings (DESIGN "Order"): by file, by
// place in it (line, then column; a finding without a line first), then
// pointer, then rule, then message.
func findingLess(a, b Finding) bool {
	switch {
	case a.File != b.File:
		return a.File < b.File
	case a.Line != b.Line:
		return a.Line < b.Line
	case a.Column != b.Column:
		return a.Column < b.Column
	case a.Pointer != b.Pointer:
		return a.Pointer < b.Pointer
	case a.Rule != b.Rule:
		return a.Rule < b.Rule
	}
	return a.Message < b.Message
}

// Pass is what a rule's Run sees: the schema and a way to report.
type Pass struct {
	// Schema is the compiled schema; nil when the document does not
	// compile (rules then work on Doc alone).
	Schema *schema.Schema
	// Doc is the schema document as plain values.
	Doc any
	// Rule is the rule being run.
	Rule *Rule

	st *runState
	// words are the names ClusterApp's title rules accept as written.
	words []string
}

// Report records a finding at a pointer into the schema document with the
// rule's severity.
func (p *Pass) Report(pointer, message string) {
	if p == nil {
		return
	}
	var sev Severity
	if p.Rule != nil {
		sev = p.Rule.Severity
	}
	p.ReportSeverity(sev, pointer, message)
}

// record adds a finding of the pass's rule. A nil Pass records nothing;
// a Pass not made by the runner (a rule's own test) keeps its findings
// to itself.
func (p *Pass) record(f Finding) {
	if p == nil {
		return
	}
	if p.st == nil {
		p.st = &runState{}
	}
	if p.Rule != nil {
		f.Rule = p.Rule.ID
	}
	p.st.findings = append(p.st.findings, f)
}

// ReportSeverity records a finding with an explicit severity. A pointer
// that does not resolve in the document is moved up to the nearest
// ancestor that does, so that every finding can be shown in the file.
func (p *Pass) ReportSeverity(sev Severity, ptr, message string) {
	if p == nil {
		return
	}
	p.record(Finding{Severity: sev, Pointer: resolvable(p.Doc, ptr), Message: message})
}

// reportError records an error of the engine as a finding of its kind.
func (p *Pass) reportError(e *schema.Error) {
	msg := e.Message
	if e.Line > 0 {
		msg = fmt.Sprintf("line %d: %s", e.Line, msg)
	}
	p.Report(e.Pointer, msg)
	p.st.findings[len(p.st.findings)-1].Kind = e.Kind
}
