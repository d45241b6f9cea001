package document

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/paramkit/paramkit/internal/problem"
	yaml "go.yaml.in/yaml/v3"
)

// yamlError turns an error of the YAML reader into a *problem.Error with
// the line and column an editor shows. jerr, when not nil, is the JSON
// reader's error for the same text (it starts like JSON): where the JSON
// reader got past the first token, the text was meant as JSON and its
// error, exact to the byte, is the one reported.
func yamlError(data []byte, err error, jerr error) *problem.Error {
	var ye *nodeError
	if !errors.As(err, &ye) {
		return &problem.Error{Kind: problem.Syntax, Message: err.Error()}
	}
	if ye.Limit {
		kind := problem.Limit
		if ye.Duplicate {
			kind = problem.Syntax
		}
		return &problem.Error{Kind: kind, Pointer: ye.Pointer, Line: ye.Line, Column: ye.Column, Message: ye.Msg}
	}
	if ye.Line > 0 || ye.Pointer != "" {
		// Located by a node: exact already.
		return &problem.Error{Kind: problem.Syntax, Pointer: ye.Pointer, Line: ye.Line, Column: ye.Column, Message: ye.Msg}
	}
	var se *jsonSyntaxError
	if jerr != nil && errors.As(jerr, &se) && meantAsJSON(data, se.Offset) {
		if strings.HasPrefix(se.Msg, "unexpected end of input in ") {
			if line, col := unclosed(data); line > 0 {
				return &problem.Error{Kind: problem.Syntax, Line: line, Column: col, Message: notClosed(data, line, col)}
			}
		}
		off := se.Offset + (len(data) - len(bytes.TrimLeft(data, " \t\r\n")))
		line, col := position(data, off)
		return &problem.Error{Kind: problem.Syntax, Line: line, Column: col, Message: se.Msg}
	}
	return parserError(data, ye.Msg)
}

// meantAsJSON reports whether JSON text failing at offset got past its
// first token: `{"a": 1,,}` was meant as JSON, `{a: 1}` is YAML flow.
func meantAsJSON(data []byte, offset int) bool {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	i := 1
	for i < len(t) && strings.IndexByte(" \t\r\n", t[i]) >= 0 {
		i++
	}
	if i < len(t) && t[0] == '{' && t[i] != '"' && t[i] != '}' {
		return false
	}
	return offset > i
}

// position gives the 1-based line and column (in bytes) of offset. A line
// break is "\n", "\r\n" or a lone "\r", as YAML (and the parser, and an
// editor) count them: every line number of this package counts so.
func position(data []byte, off int) (line, col int) {
	if off > len(data) {
		off = len(data)
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if isBreak(data, i) {
			line++
			start = i + 1
		}
	}
	return line, off - start + 1
}

// isBreak reports whether data[i] ends a line: a "\n", or a "\r" not
// followed by "\n" (the "\n" of "\r\n" ends that line).
func isBreak(data []byte, i int) bool {
	return data[i] == '\n' || data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n')
}

// parserError locates an error of the YAML parser. The parser puts the
// line into its message, and not always the right one: for an error
// inside a collection it names the line where the collection starts,
// counted from 0 (one line low), and none at all for the first line. So
// the line is found instead as the first line at which the text, cut
// there, fails the same way; the column, for the errors whose cause can
// be seen on that line.
func parserError(data []byte, msg string) *problem.Error {
	reported, text := splitLine(msg)
	e := &problem.Error{Kind: problem.Syntax, Message: text}
	if strings.Contains(text, "exceeded max depth") {
		// The parser's own bound (10,000) is beyond ours.
		e.Kind, e.Message = problem.Limit, fmt.Sprintf("nesting deeper than %d levels", MaxDepth)
		return e
	}
	if strings.HasPrefix(text, "did not find expected ',' or ") || text == "did not find expected node content" {
		// An unclosed flow collection: the parser names the line before
		// its start (or the end); an editor shows where it opens.
		if line, col := unclosed(data); line > 0 {
			e.Line, e.Column, e.Message = line, col, notClosed(data, line, col)
			return e
		}
	}
	e.Line = failingLine(data, text)
	if e.Line == 0 {
		e.Line = reported
	}
	if e.Line > 0 {
		e.Column = column(data, e.Line, text)
	}
	return e
}

// notClosed says that the bracket at line, col is never closed.
func notClosed(data []byte, line, col int) string {
	open := lineText(data, line)[col-1]
	closer := map[byte]byte{'{': '}', '[': ']'}[open]
	return fmt.Sprintf("the '%c' here is never closed (expected ',' or '%c')", open, closer)
}

// splitLine splits "line N: text" into N and text.
func splitLine(msg string) (int, string) {
	var n int
	if k, _ := fmt.Sscanf(msg, "line %d:", &n); k == 1 {
		if i := strings.IndexByte(msg, ':'); i >= 0 {
			return n, strings.TrimSpace(msg[i+1:])
		}
	}
	return 0, msg
}

// maxLocateLines bounds the text the line search parses again (an error
// path only; it parses about log2(lines) prefixes).
const maxLocateLines = 1 << 20

// failingLine returns the first line L such that the text up to the end
// of line L fails to parse with the same message, or 0.
func failingLine(data []byte, text string) int {
	ends := lineEnds(data)
	if len(ends) == 0 || len(ends) > maxLocateLines {
		return 0
	}
	fails := func(l int) bool {
		_, t := splitLine(parseMessage(data[:ends[l-1]]))
		return t == text
	}
	// Once the parser has failed, more text does not make it succeed:
	// the failing prefixes are a suffix of the lines.
	lo, hi := 1, len(ends)
	if !fails(hi) {
		return 0
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// lineEnds lists the offset after each line (its line break included).
func lineEnds(data []byte) []int {
	var ends []int
	for i := range data {
		if isBreak(data, i) {
			ends = append(ends, i+1)
		}
	}
	if len(data) > 0 && !isBreak(data, len(data)-1) {
		ends = append(ends, len(data))
	}
	return ends
}

// parseMessage parses every document of data and returns the first error
// message, without the "yaml: " prefix, or "".
func parseMessage(data []byte) string {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if err == nil {
			continue
		}
		if errors.Is(err, io.EOF) {
			return ""
		}
		return strings.TrimPrefix(err.Error(), "yaml: ")
	}
}

// column finds the column of the cause of an error on its line, where it
// can be seen there, else 0.
func column(data []byte, line int, text string) int {
	src := lineText(data, line)
	switch {
	case strings.Contains(text, "tab character"), text == "found character that cannot start any token":
		if i := strings.IndexByte(src, '\t'); i >= 0 {
			return i + 1
		}
	case text == "found unexpected end of stream":
		if i := openQuote(src); i >= 0 {
			return i + 1
		}
	case text == "did not find expected key", text == "did not find expected '-' indicator",
		text == "block sequence entries are not allowed in this context":
		if strings.ContainsAny(src, "[]{}") {
			return 0 // the cause may be anywhere in the flow text
		}
		if i := strings.IndexFunc(src, func(r rune) bool { return r != ' ' }); i >= 0 {
			return i + 1
		}
	case text == "mapping values are not allowed in this context":
		if i := strings.LastIndex(src+" ", ": "); i >= 0 {
			return i + 1
		}
	}
	return 0
}

// lineText returns line l (1-based) without its line break.
func lineText(data []byte, l int) string {
	line := 1
	start := 0
	for i := range data {
		if !isBreak(data, i) {
			continue
		}
		if line == l {
			return strings.TrimRight(string(data[start:i]), "\r")
		}
		line++
		start = i + 1
	}
	if line == l {
		return strings.TrimRight(string(data[start:]), "\r")
	}
	return ""
}

// unclosed returns the line and column of the innermost flow collection
// ('{' or '[') still open at the end of data, skipping quoted text and
// comments, or 0, 0.
func unclosed(data []byte) (line, col int) {
	var stack []int
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '{', '[':
			stack = append(stack, i)
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case '"', '\'':
			if len(stack) == 0 && i > 0 && !isSpace(data[i-1]) && data[i-1] != ':' {
				continue // an apostrophe inside plain text
			}
			for i++; i < len(data) && data[i] != c; i++ {
				if c == '"' && data[i] == '\\' {
					i++
				}
			}
		case '#':
			if i == 0 || isSpace(data[i-1]) {
				for i < len(data) && data[i] != '\n' && data[i] != '\r' {
					i++
				}
			}
		}
	}
	if len(stack) == 0 {
		return 0, 0
	}
	return position(data, stack[len(stack)-1])
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// openQuote returns the index of a quote on the line that is not closed
// on it, or -1.
func openQuote(src string) int {
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '"' && c != '\'' {
			continue
		}
		if i > 0 && !isSpace(src[i-1]) && strings.IndexByte(":,[{-", src[i-1]) < 0 {
			continue
		}
		start := i
		for i++; i < len(src) && src[i] != c; i++ {
			if c == '"' && src[i] == '\\' {
				i++
			}
		}
		if i >= len(src) {
			return start
		}
	}
	return -1
}
