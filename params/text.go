package params

import (
	"errors"
	"strings"

	"github.com/paramkit/paramkit/internal/yamlx"
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
// callers may ignore the error.
func ParseText(n *schema.Node, text string) (any, error) {
	if n != nil && n.Types() != nil && onlyStrings(n) {
		return text, nil
	}
	trimmed := strings.TrimSpace(text)
	wantsCollection := n == nil || n.Types() == nil || n.Allows("object") || n.Allows("array")
	if wantsCollection && trimmed != "" && (trimmed[0] == '[' || trimmed[0] == '{') {
		node, err := yamlx.ParseFlow(trimmed)
		if err == nil {
			var v any
			if v, err = yamlx.ToValue(node, typerFor(n)); err == nil {
				return v, nil
			}
		}
		if n == nil {
			// Where the schema says nothing, YAML's own rules apply
			// (anchors, tags) before the text gives up.
			if yn, yerr := yamlx.ParseNode([]byte(trimmed)); yerr == nil {
				if v, verr := yamlx.ToValue(yn, nil); verr == nil {
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
		node, err := yamlx.ParseNode([]byte(text))
		if err == nil {
			if v, err := yamlx.ToValue(node, typerFor(n)); err == nil {
				return v, nil
			}
		}
		if n == nil || n.Allows("string") {
			return text, nil
		}
	}
	if n == nil {
		return yamlx.Core(text), nil
	}
	return typeScalar(n, text), nil
}

func onlyStrings(n *schema.Node) bool {
	for _, t := range n.Types() {
		if t != "string" {
			return false
		}
	}
	return true
}
