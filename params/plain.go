package params

import (
	"errors"

	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// Plain returns v as a plain value, the form every function of this
// package works on (see the package doc). A plain value comes back as
// itself, without a copy. Other Go data is converted as encoding/json
// would write it, into a copy that shares no maps or slices with v: Go
// integers become json.Number with their exact text, floats json.Number
// with the shortest text that reads back as the same float, slices []any,
// maps with string, integer or encoding.TextMarshaler keys
// map[string]any, structs and marshalers what their JSON says.
//
// What cannot be a value gives a *schema.Error (kind schema.KindUsage,
// or schema.KindLimit for a number out of range) whose Pointer locates the first
// such part (keys in sorted order): a channel, a func, a complex number,
// NaN or an infinity, a map key with no text, a json.Number whose text is
// no JSON number, or nesting deeper than 10000 levels (a value that holds
// itself).
func Plain(v any) (any, error) {
	x, err := value.Plain(v)
	if err != nil {
		return nil, notPlain(err, "")
	}
	return x, nil
}

// notPlain turns value.Plain's error into a *schema.Error, its message after
// prefix (which says which value, where there are several).
func notPlain(err error, prefix string) *schema.Error {
	var npe *schema.Error
	if errors.As(publicError(err), &npe) && npe.Kind != schema.KindInvalid {
		npe.Message = prefix + npe.Message
		return npe
	}
	return schema.NewError(schema.KindUsage, "", "%s%v", prefix, err)
}

// notPlainValidation is notPlain for the functions that return
// schema.ErrorList.
func notPlainValidation(err error) schema.ErrorList {
	e := notPlain(err, "")
	return schema.ErrorList{e}
}

// plainOr returns v as a plain value, or v as given when it cannot be
// one: for the functions that have no error to return.
func plainOr(v any) any { return value.PlainOr(v) }
