package lint

// Messages that say how: where Helm's handling of values explains a
// refusal (a typo in a key, --set-string keeping a number as text,
// --set keeping 02 as text, a list padded with nulls, a
// null deleting a key), the finding names the mechanism and the fix.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/suggest"
	"github.com/paramkit/paramkit/schema"
)

// hint rewrites or extends the message of a finding f (its Pointer into
// the whole values, rel into the values s judges) where Helm's handling
// of values explains it; src is the source that wrote the value (nil
// when none did). It reports whether it rewrote the message whole.
func (hv *helmValues) hint(s *schema.Schema, f *Finding, src *valuesSource, rel string) bool {
	if s == nil {
		return false
	}
	switch f.Kind {
	case schema.KindAdditional:
		if m := didYouMeanKey(s, rel); m != "" {
			f.Message += "; " + m
		}
	case schema.KindRequired:
		if where := hv.nullAt(f.Pointer); where != nil {
			f.File, f.Line, f.Column = where.name, where.line, where.col
			f.Message += fmt.Sprintf(" (the null at %s:%d removed the key: Helm deletes a key set to null; remove that line to keep the chart's default)", where.name, where.line)
		}
	case schema.KindType:
		if src == nil || s.SecretAt(rel) {
			return false
		}
		if msg := hv.textNumber(s, src, f.Pointer, rel); msg != "" {
			f.Message = msg
			return true
		}
		if msg := hv.paddedList(src, f.Pointer); msg != "" {
			f.Message += " (" + msg + ")"
		}
	}
	return false
}

// didYouMeanKey names the declared properties closest to a key the
// schema forbids at rel, or "".
func didYouMeanKey(s *schema.Schema, rel string) string {
	toks, err := pointer.Split(rel)
	if err != nil || len(toks) == 0 {
		return ""
	}
	parent := s.Lookup(pointer.Join(toks[:len(toks)-1]...))
	if parent == nil {
		return ""
	}
	var names []string
	for name := range parent.Properties() {
		names = append(names, name)
	}
	near := suggest.Closest(toks[len(toks)-1], names)
	if len(near) == 0 {
		return ""
	}
	q := make([]string, len(near))
	for i, n := range near {
		q[i] = strconv.Quote(n)
	}
	return "did you mean " + strings.Join(q, " or ") + "?"
}

// nullPlace is where a values file writes null.
type nullPlace struct {
	name      string
	line, col int
}

// nullAt finds the last values file that writes null at ptr (the whole
// values' pointer): Helm's null rule deleted the key there.
func (hv *helmValues) nullAt(ptr string) *nullPlace {
	for j := len(hv.sources) - 1; j >= 0; j-- {
		src := &hv.sources[j]
		if src.file == nil {
			continue
		}
		node, _ := src.file.treeAt(src.within(ptr))
		if node == nil {
			continue
		}
		toks, err := pointer.Split(ptr)
		if err != nil {
			return nil
		}
		if line, col, depth := src.locate(toks); depth != len(toks) || line == 0 {
			continue
		} else if n := nodeAt(node, src.within(ptr)); n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return &nullPlace{name: src.name, line: line, col: col}
		}
	}
	return nil
}

// numberText is text a YAML 1.1 reader might take for a number.
var numberText = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(\.[0-9]*)?([eE][-+]?[0-9]+)?$`)

// textNumber is the message for a number Helm holds as text where the
// schema wants a number: --set-string (or --set-literal) keeps it text,
// and --set keeps a number with a leading zero (02) text.
func (hv *helmValues) textNumber(s *schema.Schema, src *valuesSource, ptr, rel string) string {
	v, ok := pointer.Get(hv.values, ptr)
	text, isText := v.(string)
	if !ok || !isText || !numberText.MatchString(text) {
		return ""
	}
	n := s.Lookup(rel)
	if n == nil || !(n.Allows("integer") || n.Allows("number")) || n.Allows("string") {
		return ""
	}
	want := "a number"
	if !n.Allows("number") {
		want = "an integer"
	}
	switch src.flag {
	case "set-string", "set-literal":
		return fmt.Sprintf("--%s keeps %s as the text %q; the schema wants %s: give it with --set", src.flag, text, text, want)
	case "set":
		// Helm's --set types a number, but keeps one with a leading
		// zero (02, 007) text.
		fix := strings.TrimLeft(text, "0")
		if fix == "" || fix[0] == '.' {
			fix = "0" + fix
		}
		if !strings.HasPrefix(text, "0") || fix == text {
			return ""
		}
		return fmt.Sprintf("--set keeps %s as the text %q (a number with a leading zero stays text in Helm); the schema wants %s: write %s", text, text, want, fix)
	}
	return ""
}

// paddedList explains a null in a list that a --set index beyond its end
// wrote: Helm pads the gap with nulls.
func (hv *helmValues) paddedList(src *valuesSource, ptr string) string {
	if src.flag == "" {
		return ""
	}
	if v, ok := pointer.Get(hv.values, ptr); !ok || v != nil {
		return ""
	}
	toks, err := pointer.Split(ptr)
	if err != nil || len(toks) == 0 {
		return ""
	}
	i, err := strconv.Atoi(toks[len(toks)-1])
	if err != nil {
		return ""
	}
	list := toks[:len(toks)-1]
	last := -1
	for _, p := range src.paths {
		if len(p) <= len(list) || !equalPrefix(p, list) {
			continue
		}
		if k, err := strconv.Atoi(p[len(list)]); err == nil && k > last {
			last = k
		}
	}
	if last <= i {
		return ""
	}
	name := strings.Join(list, ".")
	return fmt.Sprintf("%s sets %s[%d], beyond the list's end: Helm pads the gap with nulls; set the elements before it too, or give the whole list with --set-json", src.name, name, last)
}

func equalPrefix(p, prefix []string) bool {
	for i := range prefix {
		if p[i] != prefix[i] {
			return false
		}
	}
	return true
}
