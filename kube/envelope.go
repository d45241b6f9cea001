package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// checkEnvelope refuses a review whose envelope (the review object, and
// its request or response object) holds a key twice. encoding/json keeps
// the last of two keys and matches names without regard to case, so the
// keys are compared as it compares them. Everything below those two
// levels is skipped: objects are decoded by the schema, which refuses
// their own duplicates. A body that is not well-formed JSON passes
// here, for json.Unmarshal to name its fault.
func checkEnvelope(ctx context.Context, body []byte) error {
	s := &scanner{b: body, ctx: ctx}
	s.ws()
	if s.peek() != '{' {
		return nil
	}
	err := s.object(func(key string) (bool, error) {
		k := foldKey(key)
		if k != "request" && k != "response" || s.peekAfterWS() != '{' {
			return false, nil
		}
		s.ws()
		return true, s.object(func(string) (bool, error) { return false, nil }, key)
	}, "")
	if err == errMalformed {
		if ctx.Err() != nil {
			return deadlineError(ctx, "while reading the review")
		}
		return nil
	}
	return err
}

// errMalformed stops the scan of a body that is not JSON.
var errMalformed = fmt.Errorf("malformed")

// scanner walks JSON text without building values.
type scanner struct {
	b   []byte
	i   int
	ctx context.Context
}

func (s *scanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *scanner) peekAfterWS() byte {
	j := s.i
	for j < len(s.b) && isSpace(s.b[j]) {
		j++
	}
	if j < len(s.b) {
		return s.b[j]
	}
	return 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *scanner) ws() {
	for s.i < len(s.b) && isSpace(s.b[s.i]) {
		s.i++
	}
}

// object reads an object at s.i, calling each key; each returns whether
// it consumed the value itself. A repeated key is an error naming where
// (in: the key of the object holding it, "" for the review itself).
func (s *scanner) object(each func(key string) (bool, error), in string) error {
	if s.peek() != '{' {
		return errMalformed
	}
	s.i++
	seen := map[string]bool{}
	for first := true; ; first = false {
		s.ws()
		if s.peek() == '}' && first {
			s.i++
			return nil
		}
		raw, ok := s.str()
		if !ok {
			return errMalformed
		}
		key := string(raw)
		if strings.IndexByte(key, '\\') >= 0 {
			if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &key) != nil {
				return errMalformed
			}
		}
		f := foldKey(key)
		if seen[f] {
			if in == "" {
				return fmt.Errorf("the review repeats the key %s: refused, as a review the apiserver sent never does", quoteShort(key))
			}
			return fmt.Errorf("the review's %s repeats the key %s: refused, as a review the apiserver sent never does", in, quoteShort(key))
		}
		seen[f] = true
		s.ws()
		if s.peek() != ':' {
			return errMalformed
		}
		s.i++
		s.ws()
		done, err := each(key)
		if err != nil {
			return err
		}
		if !done && !s.skip() {
			return errMalformed
		}
		if err := s.ctx.Err(); err != nil {
			return deadlineError(s.ctx, "while reading the review")
		}
		s.ws()
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		default:
			return errMalformed
		}
	}
}

// str reads a string at s.i and returns its text between the quotes.
func (s *scanner) str() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		switch s.b[j] {
		case '\\':
			j++
		case '"':
			s.i = j + 1
			return s.b[start:j], true
		}
	}
	return nil, false
}

// skip passes over one value, checking the context every megabyte.
func (s *scanner) skip() bool {
	switch s.peek() {
	case '"':
		_, ok := s.str()
		return ok
	case '{', '[':
		depth := 0
		for next := s.i + 1<<20; s.i < len(s.b); s.i++ {
			if s.i >= next {
				if s.ctx.Err() != nil {
					return false
				}
				next = s.i + 1<<20
			}
			switch s.b[s.i] {
			case '"':
				if _, ok := s.str(); !ok {
					return false
				}
				s.i-- // the loop steps past the closing quote
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.i++
					return true
				}
			}
		}
		return false
	}
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == ',' || c == '}' || c == ']' || isSpace(c):
			return s.i > start
		}
		s.i++
	}
	return s.i > start
}

// foldKey is a key as encoding/json matches it to a field name: without
// regard to case (its folding also maps 'ſ' to s and the Kelvin sign to k).
func foldKey(k string) string { return strings.ToLower(strings.ToUpper(k)) }
