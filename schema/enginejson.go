package schema

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/paramkit/paramkit/internal/number"
)

// engineJSON writes the document as JSON for the engine, which reads its
// schemas only from bytes. The engine decodes the bytes into its own plain
// values, so all that matters is that they decode to what json.Marshal's
// output decodes to; object keys need no sorting. A document that holds
// anything but plain values (maps, slices, strings, bools, nil, valid
// json.Number), or nests deeper than json.Marshal starts looking for
// cycles, goes through json.Marshal, errors and all.
//
// The bytes come in chunks, so that a large document is written without
// regrowing (and copying, and leaving behind) one ever larger buffer.
func engineJSON(doc any) (io.Reader, error) {
	w := &chunkedJSON{}
	if b, ok := w.appendValue(make([]byte, 0, engineChunk), doc, 0); ok {
		w.chunks = append(w.chunks, b)
		readers := make([]io.Reader, len(w.chunks))
		for i, c := range w.chunks {
			readers[i] = bytes.NewReader(c)
		}
		return io.MultiReader(readers...), nil
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(raw), nil
}

// maxEngineDepth is where json.Marshal begins to check for cycles.
const maxEngineDepth = 1000

// engineChunk is the size of a chunk of engineJSON's output.
const engineChunk = 32 << 10

type chunkedJSON struct {
	chunks [][]byte // full chunks, in order
}

// next starts a new chunk once b is full.
func (w *chunkedJSON) next(b []byte) []byte {
	if len(b) < engineChunk {
		return b
	}
	w.chunks = append(w.chunks, b)
	return make([]byte, 0, engineChunk+engineChunk/4)
}

func (w *chunkedJSON) appendValue(b []byte, v any, depth int) ([]byte, bool) {
	if depth > maxEngineDepth {
		return b, false
	}
	switch t := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		if t {
			return append(b, "true"...), true
		}
		return append(b, "false"...), true
	case string:
		return appendEngineString(b, t), true
	case json.Number:
		if !number.IsJSON(string(t)) {
			return b, false // json.Marshal writes "" as 0 and refuses the rest
		}
		return append(b, t...), true
	case map[string]any:
		b = append(b, '{')
		first := true
		for k, x := range t {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = appendEngineString(b, k)
			b = append(b, ':')
			var ok bool
			if b, ok = w.appendValue(b, x, depth+1); !ok {
				return b, false
			}
			b = w.next(b)
		}
		return append(b, '}'), true
	case []any:
		b = append(b, '[')
		for i, x := range t {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = w.appendValue(b, x, depth+1); !ok {
				return b, false
			}
			b = w.next(b)
		}
		return append(b, ']'), true
	}
	return b, false
}

const hexDigits = "0123456789abcdef"

// appendEngineString writes s as a JSON string. Like json.Marshal, it
// writes each byte that is not valid UTF-8 as U+FFFD.
func appendEngineString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
