package document

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/internal/pointer"
)

// Locate returns the 1-based line and column where the value at a JSON
// pointer is written in a parsed document: for an object member the
// position of its key, for an array element the element. ok is false
// when the pointer does not resolve; line and column then locate the
// nearest ancestor that does.
func Locate(n *yaml.Node, ptr string) (line, col int, ok bool) {
	if n == nil {
		return 0, 0, false
	}
	for n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line, col = n.Line, n.Column
	toks, err := pointer.Split(ptr)
	if err != nil {
		return line, col, false
	}
	for _, t := range toks {
		for depth := 0; n.Kind == yaml.AliasNode && n.Alias != nil && depth < MaxDepth; depth++ {
			n = n.Alias
		}
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value == t && k.Tag != "!!merge" {
					line, col = k.Line, k.Column
					next = n.Content[i+1]
					break
				}
			}
		case yaml.SequenceNode:
			if i, err := pointer.Index(t, len(n.Content)); err == nil {
				next = n.Content[i]
				line, col = next.Line, next.Column
			}
		}
		if next == nil {
			return line, col, false
		}
		n = next
	}
	return line, col, true
}
