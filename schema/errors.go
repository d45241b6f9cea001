package schema

import "github.com/paramkit/paramkit/internal/problem"

// Error is paramkit's one error type: every failure a caller can act on,
// from any package (schema, params, convert, trigger, lint), is an *Error
// or a list of them (ErrorList). Its fields:
//
//   - Pointer: the JSON pointer (RFC 6901) of the place the failure is
//     about, "" for the root: into the schema document for schema
//     problems, into the parameter values for validation and update
//     problems, into the input for migration and decoding problems.
//   - Line, Column: the 1-based position in the source text where known
//     (syntax errors), else 0.
//   - Kind: what sort of failure it is (KindRequired, KindType, …), for a
//     program to switch on. Validation kinds are derived from the failing
//     keyword, never from message text.
//   - Message: what is wrong, for a person.
//   - Detail: nil, except for the few kinds that carry data beyond the
//     message: the failing keyword's location of a validation failure,
//     the typed input of a `-p` assignment, the two plans of a
//     KindTriggerConflict or KindPlanConflict, the old and new value of a
//     KindLossy change (see ErrorDetail).
//
// Error() formats it as `POINTER: message` (`line N: message` for a
// problem located only by its line).
type Error = problem.Error

// ErrorDetail is the data a few kinds of Error carry beside the message.
type ErrorDetail = problem.Detail

// ErrorList is every failure at once: the error type of Parse, Validate,
// params.Update.Run, decoding, migration results and more. It implements
// error; errors.As finds its *Error entries through Unwrap, and errors.As
// into an ErrorList finds the list itself. Err returns nil for an empty
// list.
type ErrorList = problem.List

// ErrorsOf returns every *Error that err holds, so that any error of
// paramkit prints with one loop and no type switch: the entries of an
// ErrorList, or the one *Error (found through wrapping; context such as
// "doc 2: " is kept in its Message). An error of another type becomes one
// entry of KindInvalid with its text as the message; nil gives nil.
func ErrorsOf(err error) ErrorList { return problem.Of(err) }

// Kind says what sort of failure an Error is. The values are stable
// strings (they appear in JSON reports as "kind").
type Kind = problem.Kind

// The kinds of Error.
const (
	// KindSyntax is malformed YAML or JSON.
	KindSyntax = problem.Syntax
	// KindLimit is a size, depth or count limit that the input passes.
	KindLimit = problem.Limit
	// KindSchema is a schema that is not usable: a keyword with a wrong
	// value, an unknown dialect, a dangling $ref.
	KindSchema = problem.Schema
	// KindRefused is a $ref that would leave the document, or a
	// conversion a version set refuses (downgrade: false).
	KindRefused = problem.Refused
	// KindNotSchema is a document that is no schema at all: an object
	// none of whose root keys is a schema keyword of any supported draft
	// (a flat map of values, a KUDO params file or a CRD manifest read as
	// a JSON Schema). The message says what was expected and what was
	// found.
	KindNotSchema = problem.NotSchema
	// KindRequired is a missing required property (keyword required).
	KindRequired = problem.Required
	// KindType is a value of the wrong type (keyword type), also a text
	// value that cannot take its node's type.
	KindType = problem.Type
	// KindEnum is a value outside an enum.
	KindEnum = problem.Enum
	// KindConst is a value other than a const.
	KindConst = problem.Const
	// KindRange is a number out of range: minimum, maximum,
	// exclusiveMinimum, exclusiveMaximum, multipleOf.
	KindRange = problem.Range
	// KindLength is a size out of range: minLength, maxLength, minItems,
	// maxItems, minProperties, maxProperties, contains, minContains,
	// maxContains.
	KindLength = problem.Length
	// KindPattern is a string that does not match a pattern (also under
	// propertyNames).
	KindPattern = problem.Pattern
	// KindFormat is a string that does not satisfy a format (or a
	// contentEncoding/contentMediaType).
	KindFormat = problem.Format
	// KindAdditional is a property or item the schema does not allow:
	// additionalProperties, additionalItems, unevaluatedProperties,
	// unevaluatedItems, items false.
	KindAdditional = problem.Additional
	// KindUnique is a repeated item (uniqueItems).
	KindUnique = problem.Unique
	// KindDependency is a property that another one requires
	// (dependentRequired, dependencies).
	KindDependency = problem.Dependency
	// KindComposition is a failure of anyOf, oneOf, not, if/then/else or a
	// false schema: no single keyword of an alternative is the reason.
	KindComposition = problem.Composition
	// KindInvalid is any other reason a value is invalid (for instance
	// text that is not UTF-8).
	KindInvalid = problem.Invalid
	// KindNotFound is nothing at a pointer (typed getters).
	KindNotFound = problem.NotFound
	// KindPath is a malformed path, an index out of range, or a place a
	// value cannot be set or read.
	KindPath = problem.Path
	// KindNotPlain is a Go value that cannot be a parameter value.
	KindNotPlain = problem.NotPlain
	// KindImmutable is a change to an immutable field.
	KindImmutable = problem.Immutable
	// KindUndeclared is a key the schema does not declare.
	KindUndeclared = problem.Undeclared
	// KindTriggerConflict is a schema node naming another plan than its
	// ancestor; Detail holds both plans and the ancestor's pointer.
	KindTriggerConflict = problem.TriggerConflict
	// KindPlanConflict is an update whose changes trigger several plans;
	// Detail holds the change's plan and every plan of the update.
	KindPlanConflict = problem.PlanConflict
	// KindLossy is a type change that would lose value; Detail holds the
	// value before and after.
	KindLossy = problem.Lossy
	// KindDropped is a value that maps nowhere in a migration.
	KindDropped = problem.Dropped
	// KindGate is a wrong feature gate list.
	KindGate = problem.Gate
)

func quotePointer(p string) string { return problem.QuotePointer(p) }
