package schema

import (
	"net/url"
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
// when the value is valid, else an ErrorList's Err: the value's errors,
// or one entry of KindNotFound when no subschema stands at that pointer
// (KindUsage for a malformed pointer or a zero Schema, KindSchema for a
// subschema that does not compile alone). Linters use it to check a
// default or an example against its own node.
func (s *Schema) ValidateAt(schemaPointer string, v any) error {
	if !s.compiledOK() {
		return ErrorList{errNotCompiled()}.Err()
	}
	c, err := s.compileAt(schemaPointer)
	if err != nil {
		return ErrorsOf(err).Err()
	}
	top := s.nodes[schemaPointer]
	return engineErrors(c.Validate(v), v, s.doc, false, func(inst, kw string) bool {
		return top.SecretAt(inst) || s.keywordNode(kw).Secret()
	})
}

func (s *Schema) compileAt(ptr string) (*jsonschema.Schema, error) {
	if ptr == "" {
		return s.compiled, nil
	}
	if s.nodes[ptr] == nil {
		return nil, &Error{Pointer: ptr, Kind: KindNotFound, Message: "no subschema at this pointer"}
	}
	s.sub.mu.Lock()
	defer s.sub.mu.Unlock()
	if c, ok := s.sub.byPtr[ptr]; ok {
		return c, nil
	}
	if s.sub.compiler == nil {
		return nil, &Error{Pointer: ptr, Kind: KindNotFound, Message: "the schema was not compiled from a document"}
	}
	toks, err := pointer.Split(ptr)
	if err != nil {
		return nil, NewError(KindUsage, ptr, "%v", err)
	}
	var frag strings.Builder
	for _, t := range toks {
		frag.WriteByte('/')
		frag.WriteString(url.PathEscape(pointer.Escape(t)))
	}
	c, err := s.sub.compiler.Compile(baseURL + "#" + frag.String())
	if err != nil {
		return nil, &Error{Pointer: ptr, Kind: KindSchema, Message: cleanEngineMsg(err.Error())}
	}
	if s.sub.byPtr == nil {
		s.sub.byPtr = map[string]*jsonschema.Schema{}
	}
	s.sub.byPtr[ptr] = c
	return c, nil
}
