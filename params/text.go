package params

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/number"
	"github.com/paramkit/paramkit/internal/problem"
	"github.com/paramkit/paramkit/schema"
)

// ParseText types a value written as text (a `-p` value, a v1beta1 string
// parameter) by the schema node it lands on. A node that takes strings
// only gets the text verbatim; for object and array nodes the text is YAML
// flow or block text, and terse flow collections as KUDO users wrote them
// ('[foo,bar,bazz]', '{foo:"bar"}') mean what the user meant. Scalars
// inside collections are typed by their own nodes. n may be nil (no
// schema): YAML 1.2 core rules then apply.
//
// When the text cannot take the node's type it comes back unchanged as a
// string together with an error saying why; validation will refuse it, so
// callers may ignore the error. Text that breaks a limit (invalid UTF-8,
// larger than the document limit, nested too deep, a number out of range,
// a duplicate key) always comes back with an error, even where the node
// would take the text as a string.
//
// The error is a *schema.Error about the text as a whole (Pointer ""):
// KindLimit for a limit, KindInvalid for text that is not UTF-8, KindType
// for text that cannot take the node's type.
func ParseText(n *schema.Node, text string) (any, error) {
	v, err := parseText(n, text)
	if err == nil {
		return v, nil
	}
	var pe *problem.Error
	switch {
	case errors.As(err, &pe):
		return v, publicError(err)
	case errors.Is(err, number.ErrTooLarge), errors.Is(err, errTextTooLarge):
		return v, schema.NewError(schema.KindLimit, "", "%w", err)
	case errors.Is(err, errNotUTF8):
		return v, schema.NewError(schema.KindInvalid, "", "%w", err)
	}
	return v, schema.NewError(schema.KindType, "", "%v", err)
}

var (
	errNotUTF8      = errors.New("the text is not valid UTF-8")
	errTextTooLarge = fmt.Errorf("larger than the %d MiB limit", document.MaxDocumentBytes>>20)
)

// parseText is ParseText with the readers' own errors, for the callers in
// this package that put its message into theirs.
func parseText(n *schema.Node, text string) (any, error) {
	if !utf8.ValidString(text) {
		return text, errNotUTF8
	}
	if len(text) > document.MaxDocumentBytes {
		return text, fmt.Errorf("the text is %d bytes, %w", len(text), errTextTooLarge)
	}
	if n != nil && n.Types() != nil && onlyStrings(n) {
		return text, nil
	}
	trimmed := strings.TrimSpace(text)
	wantsCollection := n == nil || n.Types() == nil || n.Allows("object") || n.Allows("array")
	if wantsCollection && trimmed != "" && (trimmed[0] == '[' || trimmed[0] == '{') {
		node, err := document.ParseFlow(trimmed)
		if err == nil {
			var v any
			if v, err = document.ToValue(node, typerFor(n)); err == nil {
				return v, nil
			}
		}
		if document.IsLimit(err) {
			return text, err
		}
		if n == nil {
			// Where the schema says nothing, YAML's own rules apply
			// (anchors, tags) before the text gives up.
			if yn, yerr := document.ParseNode([]byte(trimmed)); yerr == nil {
				if v, verr := document.ToValue(yn, nil); verr == nil {
					return v, nil
				}
			}
		}
		if n != nil && n.Allows("string") {
			return text, nil
		}
		return text, errors.New("cannot read the text as a collection: " + err.Error())
	}
	if wantsCollection && strings.Contains(trimmed, "\n") {
		node, err := document.ParseNode([]byte(text))
		if err == nil {
			var v any
			if v, err = document.ToValue(node, typerFor(n)); err == nil && isCollection(v) {
				return v, nil
			}
		}
		if document.IsLimit(err) {
			return text, err
		}
		// Block text that is no collection is a (multi-line) scalar: typed
		// below as a whole, never folded the way a YAML plain scalar is.
		if err != nil && (n == nil || n.Allows("string")) {
			return text, nil
		}
	}
	v := typeScalar(n, text)
	if num, ok := v.(json.Number); ok {
		if err := number.Check(num); err != nil {
			return text, err
		}
	}
	return v, nil
}

func isCollection(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

func onlyStrings(n *schema.Node) bool {
	for _, t := range n.Types() {
		if t != "string" {
			return false
		}
	}
	return true
}
