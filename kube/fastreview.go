package kube

import (
	"encoding/json"
	"unicode/utf8"
)

// fastAdmissionReview reads an AdmissionReview as the apiserver writes
// it (its keys spelled exactly, once each; strings without escapes) in
// one pass, without reflection, into r. It reports false, leaving r in
// no particular state, for anything else: a key it does not know or
// meets twice, a string with an escape, a value of another type, text
// that is not JSON. The general path (checkEnvelope, then encoding/json)
// then reads the body and judges it. Where it reports true, r is what
// encoding/json would have made of the body, which is valid JSON.
//
// A call through the kube-apiserver cost paramctl webhook about 1.2x a
// minimal webhook's, and reading the review twice over (encoding/json's
// validation, then its decoding into raw messages) was the largest part
// of its own work (BenchmarkReadAdmissionReview).
func fastAdmissionReview(body []byte, r *AdmissionReview) bool {
	p := &fastParser{b: body}
	ok := p.fields(reviewKeys, func(key string) (ok bool) {
		switch key {
		case "apiVersion":
			r.APIVersion, ok = p.str()
		case "kind":
			r.Kind, ok = p.str()
		default:
			r.Request = &AdmissionRequest{}
			ok = p.request(r.Request)
		}
		return ok
	})
	if !ok {
		return false
	}
	p.ws()
	return p.i == len(p.b)
}

// The keys the fast path knows: an AdmissionReview's, its request's and
// a group, version and kind's.
var (
	reviewKeys  = []string{"apiVersion", "kind", "request"}
	requestKeys = []string{"uid", "kind", "resource", "subResource", "requestKind", "requestResource",
		"requestSubResource", "name", "namespace", "operation", "userInfo", "object", "oldObject", "dryRun", "options"}
	gvkKeys = []string{"group", "version", "kind"}
)

func (p *fastParser) request(q *AdmissionRequest) bool {
	return p.fields(requestKeys, func(key string) (ok bool) {
		switch key {
		case "uid":
			q.UID, ok = p.str()
		case "subResource":
			q.SubResource, ok = p.str()
		case "requestSubResource":
			q.RequestSubResource, ok = p.str()
		case "name":
			q.Name, ok = p.str()
		case "namespace":
			q.Namespace, ok = p.str()
		case "operation":
			q.Operation, ok = p.str()
		case "kind":
			ok = p.gvk(&q.Kind)
		case "requestKind":
			if p.null() {
				return true
			}
			q.RequestKind = &GroupVersionKind{}
			ok = p.gvk(q.RequestKind)
		case "dryRun":
			switch {
			case p.null():
			case p.literal("true"):
				q.DryRun = new(bool)
				*q.DryRun = true
			case p.literal("false"):
				q.DryRun = new(bool)
			default:
				return false
			}
			ok = true
		default:
			var raw json.RawMessage
			if raw, ok = p.raw(); !ok {
				return false
			}
			switch key {
			case "resource":
				q.Resource = raw
			case "requestResource":
				q.RequestResource = raw
			case "userInfo":
				q.UserInfo = raw
			case "object":
				q.Object = raw
			case "oldObject":
				q.OldObject = raw
			case "options":
				q.Options = raw
			}
		}
		return ok
	})
}

func (p *fastParser) gvk(g *GroupVersionKind) bool {
	return p.fields(gvkKeys, func(key string) (ok bool) {
		switch key {
		case "group":
			g.Group, ok = p.str()
		case "version":
			g.Version, ok = p.str()
		default:
			g.Kind, ok = p.str()
		}
		return ok
	})
}

// fields reads an object whose keys are among names (spelled exactly),
// each at most once, handing each to set (as the name in names, so that
// no key is copied) with p at its value, which set reads.
func (p *fastParser) fields(names []string, set func(key string) bool) bool {
	seen := 0
	return p.object(func(key []byte) bool {
		for i, n := range names {
			if string(key) == n {
				if seen&(1<<i) != 0 {
					return false
				}
				seen |= 1 << i
				return set(n)
			}
		}
		return false
	})
}

// fastParser reads the JSON at b[i:] strictly: what it accepts is valid
// JSON, and it gives up (returns false) rather than judge anything else.
type fastParser struct {
	b []byte
	i int
}

func (p *fastParser) ws() {
	for p.i < len(p.b) && isSpace(p.b[p.i]) {
		p.i++
	}
}

// object reads an object, handing each key to each with p at its value,
// which each reads.
func (p *fastParser) object(each func(key []byte) bool) bool {
	p.ws()
	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return false
	}
	p.i++
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return true
	}
	for {
		p.ws()
		key, ok := p.plain()
		if !ok {
			return false
		}
		if !p.colon() || !each(key) {
			return false
		}
		if more, ok := p.next('}'); !more {
			return ok
		}
	}
}

// colon reads the colon after a key, with the space around it.
func (p *fastParser) colon() bool {
	p.ws()
	if p.i >= len(p.b) || p.b[p.i] != ':' {
		return false
	}
	p.i++
	p.ws()
	return true
}

// next reads what follows a member or an element: a comma, then more
// is to come, or end, which closes the object or array; ok is false for
// anything else.
func (p *fastParser) next(end byte) (more, ok bool) {
	p.ws()
	if p.i < len(p.b) {
		switch p.b[p.i] {
		case ',':
			p.i++
			return true, true
		case end:
			p.i++
			return false, true
		}
	}
	return false, false
}

// plain reads a string without escapes or control characters, in valid
// UTF-8 (which encoding/json would decode as it is), and returns its
// text.
func (p *fastParser) plain() ([]byte, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false
	}
	start, ascii := p.i+1, true
	for j := start; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '"':
			s := p.b[start:j]
			if !ascii && !utf8.Valid(s) {
				return nil, false
			}
			p.i = j + 1
			return s, true
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, false
}

func (p *fastParser) str() (string, bool) {
	s, ok := p.plain()
	return string(s), ok
}

func (p *fastParser) literal(word string) bool {
	if len(p.b)-p.i >= len(word) && string(p.b[p.i:p.i+len(word)]) == word {
		p.i += len(word)
		return true
	}
	return false
}

func (p *fastParser) null() bool { return p.literal("null") }

// raw returns a copy of the value at p.i, which must be valid JSON
// nested no deeper than encoding/json reads (its 10,000 levels counted
// from the review, whose request is at level 2).
func (p *fastParser) raw() (json.RawMessage, bool) {
	start := p.i
	if !p.value(2) {
		return nil, false
	}
	return append(json.RawMessage(nil), p.b[start:p.i]...), true
}

// maxNesting is encoding/json's limit on nested objects and arrays.
const maxNesting = 10000

// value reads any JSON value at p.i, strictly, as json.Valid judges it;
// depth is the number of objects and arrays around it.
func (p *fastParser) value(depth int) bool {
	if p.i >= len(p.b) {
		return false
	}
	switch c := p.b[p.i]; {
	case c == '{' || c == '[':
		if depth >= maxNesting {
			return false
		}
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		p.i++
		p.ws()
		if p.i < len(p.b) && p.b[p.i] == end {
			p.i++
			return true
		}
		for {
			if c == '{' {
				if !p.anyString() {
					return false
				}
				if !p.colon() {
					return false
				}
			}
			if !p.value(depth + 1) {
				return false
			}
			if more, ok := p.next(end); !more {
				return ok
			}
			p.ws()
		}
	case c == '"':
		return p.anyString()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.null()
	}
	return false
}

// anyString reads a string with any escapes JSON allows.
func (p *fastParser) anyString() bool {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return false
	}
	for j := p.i + 1; j < len(p.b); j++ {
		switch c := p.b[j]; {
		case c == '"':
			p.i = j + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			j++
			if j >= len(p.b) {
				return false
			}
			switch p.b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(p.b) {
					return false
				}
				for _, h := range p.b[j+1 : j+5] {
					if !isHex(h) {
						return false
					}
				}
				j += 4
			default:
				return false
			}
		}
	}
	return false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (p *fastParser) number() bool {
	b, i := p.b, p.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > start
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	p.i = i
	return true
}
