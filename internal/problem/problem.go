// Package problem holds paramkit's one error type. It lives here so that
// internal packages (the document reader above all) can build it without
// importing schema; schema re-exports it as schema.Error, schema.ErrorList
// and schema.Kind, the names callers use.
package problem

import (
	"errors"
	"fmt"
	"strings"
)

// Kind says what sort of failure an Error is, so that a program can switch
// on it. The values are stable strings (they appear in JSON reports).
type Kind string

// The kinds of failure. Validation kinds follow the failing keyword.
const (
	// Reading documents.
	Syntax Kind = "syntax" // malformed YAML or JSON
	Limit  Kind = "limit"  // a size, depth or count limit was passed

	// Schemas.
	Schema  Kind = "schema"  // a keyword of the schema itself is wrong
	Refused Kind = "refused" // a $ref that would leave the document
	// NotSchema is a document that is no schema at all: an object none of
	// whose keys a schema could mean (a flat map of values, a manifest).
	NotSchema Kind = "not-schema"

	// Validation, by failing keyword.
	Required    Kind = "required"    // required
	Type        Kind = "type"        // type
	Enum        Kind = "enum"        // enum
	Const       Kind = "const"       // const
	Range       Kind = "range"       // minimum, maximum, exclusive*, multipleOf
	Length      Kind = "length"      // min/max Length, Items, Properties, Contains
	Pattern     Kind = "pattern"     // pattern, propertyNames patterns
	Format      Kind = "format"      // format
	Additional  Kind = "additional"  // additionalProperties/Items, unevaluated*
	Unique      Kind = "unique"      // uniqueItems
	Dependency  Kind = "dependency"  // dependentRequired, dependencies
	Composition Kind = "composition" // anyOf, oneOf, not, if/then/else, false
	Invalid     Kind = "invalid"     // any other reason a value is invalid

	// Values and updates.
	NotFound   Kind = "not-found"  // nothing at the pointer
	Path       Kind = "path"       // a malformed path or an index out of range
	NotPlain   Kind = "not-plain"  // a Go value that cannot be a parameter value
	Immutable  Kind = "immutable"  // a change to an immutable field
	Undeclared Kind = "undeclared" // a key the schema does not declare

	// Plans, migrations, gates.
	TriggerConflict Kind = "trigger-conflict" // a descendant names another plan
	PlanConflict    Kind = "plan-conflict"    // one update, several plans
	Lossy           Kind = "lossy"            // a change that loses value
	Dropped         Kind = "dropped"          // a value that maps nowhere
	Gate            Kind = "gate"             // a feature gate list is wrong
)

// Error is one failure at one place: the JSON pointer it is about, the
// line and column in the source where known, its kind, and a message for a
// person.
type Error struct {
	// Pointer locates the problem (RFC 6901; "" is the root).
	Pointer string `json:"pointer"`
	// Line and Column are 1-based source positions where known, else 0.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Kind says what sort of failure this is.
	Kind Kind `json:"kind,omitempty"`
	// Message says what is wrong.
	Message string `json:"message"`
	// Detail carries the data of the few failures that have any beyond
	// the message (see Detail); nil for every other.
	Detail *Detail `json:"-"`
}

// Detail is the data some failures carry beside their message. Each field
// is set only by the kinds named on it; the rest stay zero.
type Detail struct {
	// Keyword is the JSON pointer of the failing keyword in the schema
	// document (validation kinds: Required … Composition, Invalid).
	Keyword string
	// Input is the `-p` assignment or patch operation as the user typed
	// it, when the failure comes from one; Error shows it.
	Input string
	// Plans are the plans in conflict. TriggerConflict: the plan the node
	// at Pointer names, then the plan of its ancestor (at Other).
	// PlanConflict: the plan of the change at Pointer, then every plan
	// of the update, sorted.
	Plans []string
	// Other is the second place of a TriggerConflict: the nearest
	// ancestor naming a trigger (a pointer into the schema document).
	Other string
	// From and To are the value before and after a Lossy change.
	From, To any
}

// Error formats the error as `POINTER: message` (`POINTER: "INPUT":
// message` when it comes from a typed assignment), or `line N: message`
// for a problem located only by its line. An input that cannot be read at
// all or a refused conversion (kinds Syntax, Limit and Refused with
// neither pointer nor line) is about no place in a document: the message
// alone.
func (e *Error) Error() string {
	if e.Line > 0 && e.Pointer == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Message)
	}
	if e.Pointer == "" && e.Line == 0 && (e.Kind == Syntax || e.Kind == Limit || e.Kind == Refused) {
		return e.Message
	}
	if e.Detail != nil && e.Detail.Input != "" {
		return fmt.Sprintf("%s: %q: %s", QuotePointer(e.Pointer), e.Detail.Input, e.Message)
	}
	return fmt.Sprintf("%s: %s", QuotePointer(e.Pointer), e.Message)
}

// New returns an Error of the kind at pointer, its message formatted.
func New(kind Kind, pointer, format string, a ...any) *Error {
	return &Error{Pointer: pointer, Kind: kind, Message: fmt.Sprintf(format, a...)}
}

// QuotePointer shows the root pointer as `""` so that it is visible.
func QuotePointer(p string) string {
	if p == "" {
		return `""`
	}
	return p
}

// List is every failure at once. It implements error; errors.As finds its
// *Error entries through Unwrap.
type List []*Error

// Error joins the entries, one a line.
func (l List) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the entries, so that errors.Is and errors.As see each.
func (l List) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// Of returns every *Error that err holds: the entries of a List, or the
// one *Error, found through wrapping. An error of another type becomes one
// entry of kind Invalid with its text as the message (so that a caller
// prints any error the same way); nil gives nil.
func Of(err error) List {
	if err == nil {
		return nil
	}
	var l List
	if errors.As(err, &l) {
		return l
	}
	var e *Error
	if errors.As(err, &e) {
		full, own := err.Error(), e.Error()
		if full == own || !strings.HasSuffix(full, own) {
			return List{e}
		}
		// Wrapped with context before it ("doc 2: ..."): keep the context.
		c := *e
		c.Message = strings.TrimSuffix(full, own) + e.Message
		return List{&c}
	}
	return List{{Kind: Invalid, Message: err.Error()}}
}

// Err returns the list as an error, or nil when it is empty.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
