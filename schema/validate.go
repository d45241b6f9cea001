package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/secret"
)

// ValidationError is one reason a value does not satisfy the schema.
type ValidationError struct {
	// Pointer locates the offending value in the instance ("" is the root).
	Pointer string `json:"pointer"`
	// Keyword is the JSON pointer of the failing keyword in the schema.
	Keyword string `json:"-"`
	// Message says what is wrong, for a person.
	Message string `json:"message"`
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("%s: %s", quotePointer(e.Pointer), e.Message)
}

// ValidationErrors is every reason at once, ordered by pointer.
type ValidationErrors []*ValidationError

func (l ValidationErrors) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Validate checks a plain value (maps, slices, strings, bools, nil and
// json.Number numbers) against the schema. It returns nil when the value
// is valid, else ValidationErrors.
func (s *Schema) Validate(v any) error {
	if f := s.fastCheck(); f != nil {
		if ok, sure := fastValid(f, v); ok && sure {
			return nil
		}
	}
	err := s.compiled.Validate(v)
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
		hidden := s.secretLeaf(e.Pointer, e.Keyword)
		if hidden {
			e.Message = hideValue(e.Message)
		}
		if strings.HasPrefix(leaf.Message, "expected ") {
			// Show the offending scalar: `expected boolean, but got string "yes"`.
			if got, ok := pointer.Get(v, leaf.InstanceLocation); ok {
				if sv := scalarText(got); sv != "" {
					e.Message += " " + secret.Text(hidden, sv)
				}
			}
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

func scalarText(v any) string {
	switch t := v.(type) {
	case string:
		if len(t) > 60 {
			t = t[:57] + "..."
		}
		return strconv.Quote(t)
	case json.Number:
		if len(t) > 60 {
			return string(t[:57]) + "..."
		}
		return string(t)
	case bool:
		return strconv.FormatBool(t)
	}
	return ""
}

// Valid reports whether v satisfies the schema.
func (s *Schema) Valid(v any) bool { return s.compiled.Validate(v) == nil }

// leaves returns the innermost causes: the specific reasons.
func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// humanize rewrites the engine's terse messages where a person would be
// left guessing.
func humanize(e *jsonschema.ValidationError) string {
	m := e.Message
	m = strings.ReplaceAll(m, "'", "\"")
	switch {
	case strings.HasPrefix(m, "missing properties: "):
		return "missing required " + plural(m, "propert") + ": " + strings.TrimPrefix(m, "missing properties: ")
	case strings.HasPrefix(m, "additionalProperties "):
		return "not allowed here: " + strings.TrimSuffix(strings.TrimPrefix(m, "additionalProperties "), " not allowed") + " (the schema does not declare it)"
	case m == "false schema":
		return "no value is allowed here"
	}
	return m
}

func plural(m, stem string) string {
	if strings.Count(m, ",") > 0 {
		return stem + "ies"
	}
	return stem + "y"
}

// fastCheck builds the fast check once, on first use.
func (s *Schema) fastCheck() *fastNode {
	s.fastOnce.Do(func() {
		if s.compiled != nil {
			s.fast, _ = compileFast(s.compiled, s.formatsAsserted)
		}
	})
	return s.fast
}
