package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/problem"
)

// Error is paramkit's one error type: every failure a caller can act on,
// from any package (schema, params, convert, trigger, lint), is an *Error
// or a list of them (ErrorList). Make one with NewError, which never
// leaves Kind empty.
//
// Error() formats it as `POINTER: message` (`line N: message` for a
// problem located only by its line). errors.Is and errors.As see through
// it to the error it wraps, if any (see Unwrap): a sentinel such as
// params.ErrMalformed, or the error of another package that
// ErrorsOf took in.
//
// Layering: the internal packages below schema (the document readers, the
// value checks) cannot import it, so they return a small error value of
// their own (internal/problem), and every public package turns it into an
// *Error where it calls them, through ErrorsOf. No error of an internal
// type reaches a caller (TestPublicErrorsAreSchemaErrors).
type Error struct {
	// File names the file the failure is in, as the caller named it
	// (ErrorIn sets it), or "" when the error is about no file or the
	// caller gave none. It is never part of Message; Error() writes it
	// first.
	File string `json:"file,omitempty"`
	// Pointer locates the failure (RFC 6901; "" is the root): into the
	// schema document for schema problems, into the parameter values for
	// validation and update problems, into the input for migration and
	// decoding problems.
	Pointer string `json:"pointer"`
	// Line and Column are 1-based source positions where known (syntax
	// errors, findings placed in a file), else 0.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Kind says what sort of failure this is, for a program to switch on
	// (KindRequired, KindType, …). It is never empty in an Error paramkit
	// returns; an Error built as a literal without one reads as
	// KindInvalid (Error and its JSON form say so). Validation kinds are
	// derived from the failing keyword, never from message text.
	Kind Kind `json:"kind"`
	// Keyword names the schema keyword whose check failed ("minimum",
	// "pattern", "uniqueItems", "anyOf", …) for a failure of validation
	// against a schema, which Kind groups (a failed maximum is of
	// KindInvalid, Keyword "maximum"); "" for every other failure, and
	// for a false schema. Where the keyword is in the schema document is
	// Detail.SchemaPointer.
	Keyword string `json:"keyword,omitempty"`
	// Message says what is wrong, for a person.
	Message string `json:"message"`
	// Detail carries the data of the few failures that have any beyond
	// the message (see ErrorDetail); nil for every other.
	Detail *ErrorDetail `json:"detail,omitempty"`

	// wrapped is the error this one wraps (Unwrap), or nil.
	wrapped error
	// in is what a wrapping error wrote before the error's text ("doc 2:
	// ", or "chart: " from ErrorIn for an error that already names its
	// file): Error() writes it first; ErrorsOf moves it into the Message
	// of the copies it returns (not for KindForeign, whose Message is the
	// foreign error's text).
	in string
	// sub is what a wrapping error inside the file wrote ("doc 2: "):
	// Error() writes it after File, before the rest.
	sub string
}

// ErrorDetail is the data some failures carry beside their message. Each
// field is set only by the kinds named on it; the rest stay zero.
type ErrorDetail struct {
	// SchemaPointer is the JSON pointer of the failing keyword in the
	// schema document, for a failure of validation (Error.Keyword names
	// the keyword).
	SchemaPointer string `json:"schemaPointer,omitempty"`
	// Input is the `-p` assignment or patch operation as the user typed
	// it, when the failure comes from one; Error shows it.
	Input string `json:"input,omitempty"`
	// Plans are the plans of a KindConflict. For a schema node naming
	// another plan than its ancestor (trigger.Check, trigger.New): the
	// plan the node at Pointer names, then the plan of its ancestor (at
	// Other). For an update whose changes trigger several plans
	// (Resolve, params.Update.Run): the plan of the change at Pointer,
	// then every plan of the update, sorted.
	Plans []string `json:"plans,omitempty"`
	// Other is the second place of a KindConflict between a schema node
	// and its ancestor: the nearest ancestor naming a trigger (a pointer
	// into the schema document); "" for a conflict of an update.
	Other string `json:"other,omitempty"`
	// From and To are the value before and after a change that would
	// lose value (KindType, from a migration).
	From any `json:"from,omitempty"`
	To   any `json:"to,omitempty"`
	// Subscripts are the indexes of the Pointer's tokens that FieldPath
	// writes as subscripts although they read as field names: the keys of
	// a map (additionalProperties) where Kubernetes names an entry so, as
	// kube-apiserver does for an x-kubernetes-validations rule's error
	// (spec.owners[alice], not spec.owners.alice).
	Subscripts []int `json:"subscripts,omitempty"`
}

// NewError returns an Error of the kind at pointer, its message formatted
// as fmt.Sprintf does. A %w verb wraps its operand as fmt.Errorf does, so
// that errors.Is finds it through the Error:
//
//	schema.NewError(schema.KindUsage, "", "%w %q: want KEY=VALUE", params.ErrMalformed, s)
//
// An empty kind is refused: the result is then an Error of KindUsage
// saying so, with the message it was given, never an Error without a
// Kind.
func NewError(kind Kind, pointer, format string, a ...any) *Error {
	w := fmt.Errorf(format, a...)
	e := &Error{Pointer: pointer, Kind: kind, Message: w.Error()}
	switch u := w.(type) {
	case interface{ Unwrap() error }:
		e.wrapped = u.Unwrap()
	case interface{ Unwrap() []error }:
		e.wrapped = w // several %w: errors.Is looks through each
	}
	if kind == "" {
		e.Kind = KindUsage
		e.Message = "schema.NewError needs a Kind (message: " + e.Message + ")"
	}
	return e
}

// Error formats the error as `POINTER: message` (`POINTER: "INPUT":
// message` when it comes from a typed assignment, `"INPUT": message` when
// its KEY is no path), or `line N: message`
// for a problem located only by its line. An input that cannot be read at
// all, a refused conversion, a bad call, a missing thing or an error of
// another package (kinds KindSyntax, KindLimit, KindIO, KindUsage,
// KindRefused, KindNotFound and KindForeign with neither pointer nor
// line) is about no place in a document: the message alone (for
// KindForeign, the foreign error's text unchanged). With a File, the
// text starts with `FILE: ` (`values.yaml: /a: message`, `values.yaml:
// line 3: message`), as fmt.Errorf("%s: %w", file, err) writes it.
//
// An Error with no Kind reads as KindInvalid, one with no Message as its
// kind's name: the zero Error prints `"": invalid`.
func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	text := e.sub + e.located()
	if e.File != "" {
		text = e.File + ": " + text
	}
	return e.in + text
}

// kind is e.Kind, KindInvalid when it is empty.
func (e *Error) kind() Kind {
	if e.Kind == "" {
		return KindInvalid
	}
	return e.Kind
}

// message is e.Message, the kind's name when it is empty.
func (e *Error) message() string {
	if e.Message == "" {
		return string(e.kind())
	}
	return e.Message
}

// located is Error() without the file and the input's name.
func (e *Error) located() string {
	msg := e.message()
	if e.Line > 0 && e.Pointer == "" {
		return fmt.Sprintf("line %d: %s", e.Line, msg)
	}
	if e.Detail != nil && e.Detail.Input != "" {
		if e.Pointer == "" {
			// An assignment never sets the root: its KEY was no path.
			return fmt.Sprintf("%q: %s", e.Detail.Input, msg)
		}
		return fmt.Sprintf("%s: %q: %s", pointer.Quote(e.Pointer), e.Detail.Input, msg)
	}
	if e.Pointer == "" && e.Line == 0 {
		switch e.Kind {
		case KindSyntax, KindLimit, KindRefused, KindIO, KindUsage, KindNotFound, KindForeign:
			return msg
		}
	}
	return fmt.Sprintf("%s: %s", pointer.Quote(e.Pointer), msg)
}

// MarshalJSON writes the Error's fields (see the struct tags), with the
// kind an empty Kind reads as (KindInvalid): "kind" is never "".
func (e *Error) MarshalJSON() ([]byte, error) {
	type plain Error // the fields without this method
	c := plain(*e)
	c.Kind = e.kind()
	return json.Marshal(&c)
}

// Unwrap returns the error this one wraps, or nil: the sentinel a
// package's documentation promises (params.ErrMalformed,
// lint.ErrOperatorFile, …), or the error of another package that ErrorsOf
// or a %w verb of NewError took in (an *fs.PathError, context.Canceled),
// so that errors.Is and errors.As find it.
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.wrapped
}

// FieldPath returns the place of the error as a Kubernetes field path
// below prefix, written as k8s.io/apimachinery's field.Path writes one:
// pointer /a/b/0 under "spec.parameters" is spec.parameters.a.b[0]. A
// token of digits is a subscript ([0]); so is a key that is not a plain
// field name (spec.parameters[a.b]: one with '.', '[', ']', a space or
// other punctuation, an empty one, one starting with a digit). The root
// pointer gives prefix itself. A pointer that is not RFC 6901 is
// appended as it is, in brackets. In the error of an
// x-kubernetes-validations rule (Keyword, and the rule's place in
// Detail.SchemaPointer), a key the schema reaches through
// additionalProperties is a subscript too (spec.selector[app]), as
// kube-apiserver's rule validator writes a map's key.
func (e *Error) FieldPath(prefix string) string {
	if e == nil {
		return prefix
	}
	var subs []int
	if e.Detail != nil {
		subs = e.Detail.Subscripts
	}
	return fieldPath(prefix, e.Pointer, subs...)
}

// fieldPath writes pointer p below prefix; the tokens at the indexes
// subs are subscripts whatever they read as.
func fieldPath(prefix, p string, subs ...int) string {
	toks, err := pointer.Split(p)
	if err != nil {
		return prefix + "[" + p + "]"
	}
	var b strings.Builder
	b.WriteString(prefix)
	for i, t := range toks {
		if isFieldName(t) && !slices.Contains(subs, i) {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(t)
			continue
		}
		b.WriteByte('[')
		b.WriteString(t)
		b.WriteByte(']')
	}
	return b.String()
}

// isFieldName reports whether a key reads as a field name in a dotted
// path: a letter or '_' first, then letters, digits, '_' or '-'.
func isFieldName(t string) bool {
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// ErrorList is every failure at once: a plain slice of *Error, built up
// by a check and read back from an error with ErrorsOf. It is not itself
// an error (an empty list stored in an error would not be nil): Err
// returns the list as an error, nil when it is empty.
type ErrorList []*Error

// Err returns the list as an error, or nil when it is empty. The error's
// text joins the entries' texts, one a line; ErrorsOf gives the list back
// from it (also through wrapping), and errors.Is and errors.As see each
// entry (errors.As into a *Error finds the first).
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return &listError{l: l}
}

// Sort puts the list in the order every list of paramkit comes in, the
// same on every run: by line, then column (an entry with no line, 0,
// first: the root of a document, or a list with no lines at all), then
// pointer (array indices by number), then where the failing keyword is
// in the schema, then message. Validate's list is in this order;
// params.DecodeReader and params.Locate sort again once the lines of the
// text are known. A nil entry goes last.
func (l ErrorList) Sort() { sortErrors(l) }

// listError is the error Err returns for a non-empty list.
type listError struct{ l ErrorList }

// Error joins the entries, one a line.
func (e *listError) Error() string {
	var b strings.Builder
	for i, x := range e.l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(x.Error())
	}
	return b.String()
}

// Unwrap returns the entries, so that errors.Is and errors.As see each.
func (e *listError) Unwrap() []error {
	out := make([]error, len(e.l))
	for i, x := range e.l {
		out[i] = x
	}
	return out
}

// ErrorsOf returns every *Error that err holds, so that any error of
// paramkit prints with one loop and no type switch: the entries of a list
// (ErrorList.Err), the one *Error, and every entry of every branch of
// errors.Join and of fmt.Errorf with several %w, found through wrapping
// at any depth, in the order the errors hold them; nil gives nil.
//
// Context before their text (what a wrapping error such as
// fmt.Errorf("doc 2: %w", err) says first) is kept in copies of them, at
// the start of each Message; the caller's errors are never changed. The
// File an entry carries (ErrorIn) stays in its File field, never in the
// Message.
//
// An error of another package (an *fs.PathError, context.Canceled, a
// chain of fmt.Errorf around one that holds no paramkit error) keeps its
// identity: it becomes one entry of KindForeign whose Message is its
// text, unchanged, and whose Unwrap returns it, so that errors.Is and
// errors.As find it through the entry.
//
// It is also the one place where the internal readers' errors become
// *Error values: every paramkit package passes them through it.
func ErrorsOf(err error) ErrorList {
	l := errorsOf(err)
	copied := false
	for i, e := range l {
		if e == nil || e.in+e.sub == "" || e.Kind == KindForeign {
			continue
		}
		if !copied {
			l, copied = append(ErrorList(nil), l...), true // never change the caller's list
		}
		c := *e
		c.Message, c.in, c.sub = e.in+e.sub+e.Message, "", ""
		l[i] = &c
	}
	return l
}

// errorsOf is ErrorsOf with the context before each entry's text (what an
// error wrapping it says first) kept apart from its Message, in copies.
func errorsOf(err error) ErrorList {
	if err == nil {
		return nil
	}
	var out ErrorList
	collect(err, "", &out)
	return out
}

// collect appends the entries err holds to out, ctx written before each
// one's text (in a copy where ctx is not empty).
func collect(err error, ctx string, out *ErrorList) {
	add := func(e *Error) {
		if e == nil {
			return
		}
		if ctx != "" {
			c := *e
			c.in = ctx + e.in
			e = &c
		}
		*out = append(*out, e)
	}
	switch x := err.(type) {
	case *Error:
		add(x)
		return
	case *listError:
		for _, e := range x.l {
			add(e)
		}
		return
	case *problem.Error:
		e := &Error{Pointer: x.Pointer, Line: x.Line, Column: x.Column, Kind: Kind(x.Kind), Message: x.Message}
		if e.Kind == "" {
			e.Kind = KindInvalid
		}
		add(e)
		return
	}
	if !holdsOwn(err) {
		add(&Error{Kind: KindForeign, Message: err.Error(), wrapped: err})
		return
	}
	switch u := err.(type) {
	case interface{ Unwrap() []error }:
		// errors.Join, or fmt.Errorf with several %w: each branch.
		for _, x := range u.Unwrap() {
			if x != nil {
				collect(x, ctx, out)
			}
		}
	case interface{ Unwrap() error }:
		inner := u.Unwrap()
		collect(inner, ctx+wrapContext(err, inner.Error()), out)
	default:
		// A type of its own with an As method: what errors.As finds.
		var e *Error
		var le *listError
		switch {
		case errors.As(err, &le):
			collect(le, ctx, out)
		case errors.As(err, &e):
			add(e)
		default:
			add(&Error{Kind: KindForeign, Message: err.Error(), wrapped: err})
		}
	}
}

// holdsOwn reports whether err holds an error of paramkit: an *Error, a
// list, or an internal reader's error, at any depth.
func holdsOwn(err error) bool {
	var e *Error
	var le *listError
	var pe *problem.Error
	return errors.As(err, &e) || errors.As(err, &le) || errors.As(err, &pe)
}

// wrapContext is what err, which wraps an error whose text is own,
// writes before it ("doc 2: "), or "".
func wrapContext(err error, own string) string {
	full := err.Error()
	if full == own || !strings.HasSuffix(full, own) {
		return ""
	}
	return strings.TrimSuffix(full, own)
}

// ErrorIn returns err as the error of the file named file: each entry, in
// a copy, has File set (an entry that already names a file keeps it, and
// file is then written before its text, as a folder before a file of
// it). Its text, and that of each entry, reads `FILE: ...` as if err had
// been wrapped with fmt.Errorf("%s: %w", file, err), but the result is a
// *Error (a list's Err for several) whose entries keep their Pointer,
// Line, Kind and Message as they are: the file is never written into a
// Message. An error of another package is taken in as ErrorsOf takes it
// (KindForeign); nil gives nil.
func ErrorIn(file string, err error) error {
	if err == nil {
		return nil
	}
	l := errorsOf(err)
	out := make(ErrorList, 0, len(l))
	for _, e := range l {
		if e == nil {
			continue
		}
		c := *e
		if c.File == "" {
			// What a wrapping error inside the file said first stays
			// after the file's name, as fmt.Errorf would write it.
			c.File, c.sub, c.in = file, e.in+e.sub, ""
		} else {
			c.in = file + ": " + e.in
		}
		out = append(out, &c)
	}
	if len(out) == 1 {
		return out[0]
	}
	return out.Err()
}

// WrapError returns err with context written before its text and that
// of each entry (`doc 2: /a: message`), as fmt.Errorf("%s: %w", context,
// err) writes it, but as a *Error (a list's Err for several) whose
// entries keep their File, Pointer, Line, Kind and Message: a function of
// paramkit that says which of several documents or steps an error is
// about still returns paramkit's error type. ErrorsOf puts the context at
// the start of each entry's Message, as it does for fmt.Errorf's. For the
// file an error is in, use ErrorIn. An error of another package is taken
// in as ErrorsOf takes it (KindForeign); nil gives nil.
func WrapError(context string, err error) error {
	if err == nil {
		return nil
	}
	var out ErrorList
	collect(err, context+": ", &out)
	if len(out) == 1 {
		return out[0]
	}
	return out.Err()
}

// Kind says what sort of failure an Error is. The values are stable
// strings (they appear in JSON reports as "kind"); Reason gives one as a
// Kubernetes condition reason.
//
// There are few kinds, each one a caller may act on differently, in the
// spirit of apimachinery's field.ErrorType (Required, Invalid,
// NotSupported, Forbidden, ...): a failure of validation against a
// schema is of KindRequired, KindType, KindEnum, KindAdditional or
// KindInvalid, and the Keyword field of the Error names the keyword that
// failed ("maximum", "pattern", "uniqueItems", "anyOf", ...).
//
// Warnings and errors: KindGateEffect, KindDeprecated and KindUndeclared
// are the warning kinds (Kind.Warning reports it). An Error of the first
// two only ever comes in a Warnings field of a result
// (params.Result.Warnings, gates.Result.Warnings, gates.Set's Warnings),
// never in a function's error; KindUndeclared is a warning of an update
// (in its Warnings) and the error of a strict one. Every other kind is an
// error's. Whatever a function's error holds is an error.
type Kind string

// The kinds of Error.
const (
	// KindSyntax is malformed YAML or JSON (a duplicate key included),
	// or a document that holds nothing where one was expected.
	KindSyntax Kind = "syntax"
	// KindLimit is a size, depth or count limit that the input passes.
	KindLimit Kind = "limit"
	// KindIO is input that could not be read: a missing file, a folder
	// that cannot be listed, a reader's error. The error it wraps is the
	// one the reader gave (errors.Is(err, fs.ErrNotExist) holds for a
	// missing file).
	KindIO Kind = "io"
	// KindUsage is a call that cannot be carried out as made: a
	// malformed `-p` assignment or patch operation (wrapping
	// params.ErrMalformed), a malformed path or pointer, an index out of
	// range or a place a value cannot be set or read, a Go value that
	// cannot be a parameter value (a channel, a func), an option given
	// to a function that does not take it, an argument out of its range,
	// a nil or zero value (a Schema, a Migration, a VersionSet...) where
	// one made by its constructor is needed.
	KindUsage Kind = "usage"
	// KindSchema is a schema that is not usable: a keyword with a wrong
	// value, an unknown dialect, a dangling $ref.
	KindSchema Kind = "schema"
	// KindRefused is a $ref that would leave the document (nothing is
	// fetched or read), or a conversion a version set refuses
	// (downgrade: false).
	KindRefused Kind = "refused"
	// KindNotSchema is a document that is no schema at all: an object
	// none of whose root keys is a schema keyword of any supported draft
	// (a flat map of values, a KUDO params file or a CRD manifest read as
	// a JSON Schema), or input that is not the kind of document a
	// function reads (a manifest of another kind). The message says what
	// was expected and what was found.
	KindNotSchema Kind = "not-schema"
	// KindNotFound is nothing at a pointer (typed getters), or a named
	// thing that is not there (a CRD version, a version of a set).
	KindNotFound Kind = "not-found"
	// KindRequired is a missing property: keywords required,
	// dependentRequired and dependencies (Keyword says which). The
	// Pointer is the missing property's own (/spec/name), not its
	// parent's.
	KindRequired Kind = "required"
	// KindType is a value of the wrong type (keyword type), a text value
	// that cannot take its node's type, or a change of type a migration
	// would make with a loss (Detail holds the value before and after).
	KindType Kind = "type"
	// KindEnum is a value that is none of those allowed: keywords enum
	// and const.
	KindEnum Kind = "enum"
	// KindAdditional is a property or item the schema does not allow:
	// additionalProperties, additionalItems, unevaluatedProperties,
	// unevaluatedItems, items false. The Pointer is the property's or
	// item's own.
	KindAdditional Kind = "additional"
	// KindInvalid is a value that fails any other keyword, named by
	// Keyword: a number out of range (minimum, maximum, exclusiveMinimum,
	// exclusiveMaximum, multipleOf), a size out of range (minLength,
	// maxLength, minItems, maxItems, minProperties, maxProperties,
	// contains, minContains, maxContains), a pattern (also under
	// propertyNames), a format (or contentEncoding, contentMediaType), a
	// repeated item (uniqueItems), a value that passes no alternative of
	// anyOf or oneOf (one error at the value's pointer, its message
	// naming the alternative that came closest and why that fails), or
	// more than one of oneOf, a failure of not, or a false schema
	// (Keyword ""). It is also any other reason a value is invalid (text
	// that is not UTF-8, a number that does not fit the Go type asked
	// for). An error of another package is KindForeign.
	KindInvalid Kind = "invalid"
	// KindImmutable is a change to an immutable field.
	KindImmutable Kind = "immutable"
	// KindUndeclared is a key the schema does not declare.
	KindUndeclared Kind = "undeclared"
	// KindConflict is a trigger conflict: a schema node naming another
	// plan than its ancestor (Detail holds both plans and the ancestor's
	// pointer), or an update whose changes trigger several plans
	// (Detail holds the change's plan and every plan of the update).
	KindConflict Kind = "conflict"
	// KindGateList is a wrong feature gate list (params/gates reading
	// one): a gate without a name, an unknown stage, a gate named twice.
	KindGateList Kind = "gate-list"
	// KindGateEffect is a warning of what a feature gate did to a change:
	// a field that a disabled gate kept from changing (dropped, or its
	// stored value kept), or a gate setting that has no effect (enabled:
	// false on a stable gate).
	KindGateEffect Kind = "gate-effect"
	// KindDeprecated is a warning: a deprecated feature gate, or a field
	// of one that a change touches.
	KindDeprecated Kind = "deprecated"
	// KindForeign is an error of another package that ErrorsOf took in
	// (an *fs.PathError, context.Canceled, a caller's own error): its
	// Message is that error's text, unchanged, and Unwrap returns it, so
	// that errors.Is and errors.As find it. It says nothing about the
	// values; a program switches on the error Unwrap gives.
	KindForeign Kind = "foreign"
	// KindForbidden is a value an x-kubernetes-validations rule with
	// reason FieldValueForbidden refuses (Kubernetes' cause type
	// FieldValueForbidden).
	KindForbidden Kind = "forbidden"
	// KindDuplicate is a repeated item of an x-kubernetes-list-type set,
	// an item of a list-type map whose x-kubernetes-list-map-keys repeat
	// an earlier item's, or a value a rule with reason
	// FieldValueDuplicate refuses (Kubernetes' cause type
	// FieldValueDuplicate). The Pointer is the repeating item's.
	KindDuplicate Kind = "duplicate"
)

// Warning reports whether k is a warning kind (KindGateEffect,
// KindDeprecated, KindUndeclared): one that comes in the Warnings of a
// result. KindUndeclared is also the error of a strict update
// (params.Update.Strict); whatever a function's error holds is an error, of
// whatever kind.
func (k Kind) Warning() bool {
	return k == KindGateEffect || k == KindDeprecated || k == KindUndeclared
}

// Reason returns the kind as a Kubernetes condition reason: its words in
// CamelCase (not-found is NotFound, io is IO), valid for
// metav1.Condition.Reason (`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`).
// Letters and digits are kept, everything else separates words; a kind
// with no letter to start with gives "Invalid".
func (k Kind) Reason() string {
	if k == KindIO {
		return "IO"
	}
	var b strings.Builder
	upper := true
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			if upper && c >= 'a' {
				c -= 'a' - 'A'
			}
			b.WriteByte(c)
			upper = false
		case c >= '0' && c <= '9':
			if b.Len() > 0 {
				b.WriteByte(c)
			}
			upper = true
		default:
			upper = true
		}
	}
	if b.Len() == 0 {
		return "Invalid"
	}
	return b.String()
}
