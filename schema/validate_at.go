package schema

import (
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/paramkit/paramkit/internal/pointer"
)

// subschemas compiles the subschemas of one document on demand, reusing
// the compiler that compiled the whole, so that a lookup costs one compile
// of the subschema at most once.
type subschemas struct {
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	byPtr    map[string]*jsonschema.Schema
}

// ValidateAt checks a plain value against the subschema at a JSON pointer
// into the schema document, as if that subschema were the whole schema
// ($refs inside it still resolve in the whole document). It returns nil
// when the value is valid, ValidationErrors when it is not, and an error
// of another type when no subschema stands at that pointer. Linters use it
// to check a default or an example against its own node.
func (s *Schema) ValidateAt(schemaPointer string, v any) error {
	c, err := s.compileAt(schemaPointer)
	if err != nil {
		return err
	}
	top := s.nodes[schemaPointer]
	return validationErrors(c.Validate(v), func(inst, kw string) bool {
		return top.SecretAt(inst) || s.keywordNode(kw).Secret()
	})
}

func (s *Schema) compileAt(ptr string) (*jsonschema.Schema, error) {
	if ptr == "" {
		return s.compiled, nil
	}
	if s.nodes[ptr] == nil {
		return nil, fmt.Errorf("%s: no subschema at this pointer", quotePointer(ptr))
	}
	s.sub.mu.Lock()
	defer s.sub.mu.Unlock()
	if c, ok := s.sub.byPtr[ptr]; ok {
		return c, nil
	}
	if s.sub.compiler == nil {
		return nil, fmt.Errorf("%s: the schema was not compiled from a document", quotePointer(ptr))
	}
	toks, err := pointer.Split(ptr)
	if err != nil {
		return nil, err
	}
	var frag strings.Builder
	for _, t := range toks {
		frag.WriteByte('/')
		frag.WriteString(url.PathEscape(pointer.Escape(t)))
	}
	c, err := s.sub.compiler.Compile(baseURL + "#" + frag.String())
	if err != nil {
		return nil, fmt.Errorf("%s: %s", quotePointer(ptr), cleanEngineMsg(err.Error()))
	}
	if s.sub.byPtr == nil {
		s.sub.byPtr = map[string]*jsonschema.Schema{}
	}
	s.sub.byPtr[ptr] = c
	return c, nil
}

// validationErrors turns the engine's verdict into ValidationErrors;
// secret reports whether a failure at an instance pointer, raised by the
// keyword at a schema pointer, must not quote the value.
func validationErrors(err error, secret func(inst, kw string) bool) error {
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return ValidationErrors{{Message: err.Error()}}
	}
	var out ValidationErrors
	seen := map[string]bool{}
	for _, leaf := range leaves(ve) {
		e := &ValidationError{Pointer: leaf.InstanceLocation, Keyword: pointerOf(leaf.AbsoluteKeywordLocation), Message: humanize(leaf)}
		if secret(e.Pointer, e.Keyword) {
			e.Message = hideValue(e.Message)
		}
		k := e.Pointer + "\x00" + e.Message
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}
