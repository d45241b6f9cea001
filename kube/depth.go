package kube

import (
	"fmt"

	"github.com/paramkit/paramkit/internal/document"
)

// maxDepth is how deep a value may nest, here as everywhere paramkit
// reads values (1,000 levels of arrays and objects).
const maxDepth = document.MaxDepth

// checkDepths refuses a conversion request with an object nested deeper
// than maxDepth: admission refuses such an object when it decodes it, so
// conversion does too, rather than carry it.
func checkDepths(req *ConversionRequest) error {
	for i, o := range req.Objects {
		if d := nesting(o); d > maxDepth {
			return fmt.Errorf("object %d of %d nests deeper than %d levels", i, len(req.Objects), maxDepth)
		}
	}
	return nil
}

// nesting returns how deep the arrays and objects of JSON text nest (0
// for a scalar), looking no further than one level past maxDepth.
func nesting(b []byte) int {
	depth, deepest := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
			if depth > deepest {
				deepest = depth
				if deepest > maxDepth {
					return deepest
				}
			}
		case '}', ']':
			depth--
		}
	}
	return deepest
}
