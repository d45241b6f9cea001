package helmvalues

import "bytes"

// Entry is one top-level entry of a YAML document whose root is a block
// mapping at column 0: Text is a slice of the document, from the line of
// the entry's key to the line before the next entry's key (the comments
// and blank lines between them included), and Line the 1-based line of
// the document Text starts on.
type Entry struct {
	Text []byte
	Line int
}

// Entries splits a YAML document (one document: no `---` line) into its
// top-level entries, so that a large values file can be read an entry at
// a time: reading every entry on its own and joining the maps gives what
// reading the whole document gives, when each entry reads as a map and no
// two entries give the same key. A reader that finds otherwise (an entry
// that does not read, or a key given twice) reads the whole document
// instead, which then gives its own result or error.
//
// Entries returns nil, and the document must be read whole, where
// reading it by entries could give another result than reading it whole:
//   - the first line that is neither blank nor a comment is not a key at
//     column 0 (an indented root mapping, a root that is a list or a
//     scalar, a byte order mark);
//   - a line at column 0 starts with `---`, `...` (the end of a
//     document: what follows is ignored when the document is read whole)
//     or `%` (a directive);
//   - the document may define an anchor (a `&` where a node's properties
//     can start, followed by a character of an anchor's name): an alias
//     reaches across entries, and the YAML readers bound alias expansion
//     by counts over the whole document.
//
// A new entry starts at each line whose first byte, at column 0, is an
// ASCII letter, digit, `_`, `"` or `'`. Any other line at column 0 (a
// comment, a `- ` item of an indentless list, a `? ` key) stays in the
// entry before it, which is then read with it: whatever such a line
// means, it means it the same way within that entry as within the whole.
// An entry cannot end inside a flow collection or a quoted scalar without
// failing to read on its own; a block scalar or a multi-line plain scalar
// of a top-level key ends at column 0 in both readings.
func Entries(doc []byte) []Entry {
	if mayDefineAnchor(doc) {
		return nil
	}
	var out []Entry
	start, startLine := -1, 0 // the entry being read; -1 before the first key
	line := 1
	for off := 0; off < len(doc); line++ {
		end := bytes.IndexByte(doc[off:], '\n')
		if end < 0 {
			end = len(doc)
		} else {
			end += off + 1
		}
		text := doc[off:end]
		switch c := text[0]; {
		case bytes.HasPrefix(text, []byte("---")), bytes.HasPrefix(text, []byte("...")), c == '%':
			return nil
		case isKeyStart(c) && start < 0:
			if hasContent(doc[:off]) {
				return nil // content before the first key
			}
			start, startLine = 0, 1 // the comments before the first key are its entry's
		case isKeyStart(c):
			out = append(out, Entry{Text: doc[start:off], Line: startLine})
			start, startLine = off, line
		}
		off = end
	}
	if start < 0 {
		return nil
	}
	return append(out, Entry{Text: doc[start:], Line: startLine})
}

// BatchBytes is the size of the batches a values file is read in: its
// intermediate forms (about 35 times the text for sigs.k8s.io/yaml, 20
// for a node tree) stay a few MB.
const BatchBytes = 64 << 10

// Batches is Entries with consecutive entries joined into batches of
// about size bytes (an entry larger than size a batch of its own): a
// batch reads as its entries do, one at a time, and reading a few large
// batches rather than many small entries spares the readers' fixed cost
// of each reading. Nil where Entries is nil.
func Batches(doc []byte, size int) []Entry {
	entries := Entries(doc)
	if len(entries) == 0 {
		return entries
	}
	out := entries[:1]
	for _, e := range entries[1:] {
		last := &out[len(out)-1]
		if len(last.Text)+len(e.Text) <= size {
			// Entries are consecutive slices of doc: the batch grows
			// over the next one.
			last.Text = last.Text[:len(last.Text)+len(e.Text)]
			continue
		}
		out = append(out, e)
	}
	return out
}

// hasContent reports whether text holds a line that is neither blank nor
// a comment.
func hasContent(text []byte) bool {
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		line := text
		if i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		t := bytes.TrimLeft(line, " \t")
		if len(t) == 0 || t[0] == '#' || (len(t) == 1 && t[0] == '\r') {
			continue
		}
		return true
	}
	return false
}

func isKeyStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '"' || c == '\''
}

// mayDefineAnchor reports whether doc may define an anchor: a `&`
// followed by a character of an anchor's name (the YAML readers take
// letters, digits, `_` and `-`), at the start of the text or after a
// byte that can come before a node's properties (a space, a tab, a line
// break, a flow indicator, `:`, `?`, `-`, or any byte of a multi-byte
// character). A `&` inside a word (`a=1&b=2`) or before a space (`a &&
// b`) is no anchor.
func mayDefineAnchor(doc []byte) bool {
	for i := bytes.IndexByte(doc, '&'); i >= 0; {
		if i+1 < len(doc) && isAnchorChar(doc[i+1]) {
			if i == 0 {
				return true
			}
			switch p := doc[i-1]; {
			case p == ' ', p == '\t', p == '\n', p == '\r', p == '[', p == '{', p == ',', p == ':', p == '?', p == '-', p >= 0x80:
				return true
			}
		}
		j := bytes.IndexByte(doc[i+1:], '&')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func isAnchorChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
