package edit

// The text editor: it splices new entries into the source text of a YAML
// or JSON document, keeping everything around them as it was.

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/internal/splice"
	yaml "go.yaml.in/yaml/v3"
)

// editor splices new text into a YAML or JSON schema document.
type editor struct {
	*splice.Doc
}

func newEditor(src []byte) (*editor, error) {
	d, err := splice.Parse(src)
	if err != nil {
		return nil, err
	}
	if d.Root == nil || d.Root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the schema document is not an object")
	}
	return &editor{d}, nil
}

// splice inserts the new text without touching anything else.
func (ed *editor) splice(a *addition) ([]byte, error) {
	holder, err := ed.NodeAt(a.holder)
	if err != nil {
		return nil, err
	}
	if holder.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s is not a mapping", a.holder)
	}
	var ins []splice.Edit
	var holderEntries []entryKV
	if props := splice.Member(holder, "properties"); props != nil {
		if props.Kind != yaml.MappingNode || props.Anchor != "" {
			return nil, fmt.Errorf("properties is not a plain mapping")
		}
		in, err := ed.addToMapping(props, []entryKV{{a.name, a.entry}})
		if err != nil {
			return nil, err
		}
		ins = append(ins, in)
	} else {
		holderEntries = append(holderEntries, entryKV{"properties", map[string]any{a.name: a.entry}})
	}
	if a.required != "" {
		if req := splice.Member(holder, "required"); req != nil {
			in, err := ed.addToSequence(req, a.required)
			if err != nil {
				return nil, err
			}
			ins = append(ins, in)
		} else {
			holderEntries = append(holderEntries, entryKV{"required", []any{a.required}})
		}
	}
	if len(holderEntries) > 0 {
		in, err := ed.addToMapping(holder, holderEntries)
		if err != nil {
			return nil, err
		}
		ins = append(ins, in)
	}
	return ed.Apply(ins), nil
}

type entryKV struct {
	key string
	val any
}

// addToMapping returns the insertion that appends entries to a mapping.
func (ed *editor) addToMapping(m *yaml.Node, entries []entryKV) (splice.Edit, error) {
	if m.Style&yaml.FlowStyle != 0 || ed.JSON {
		return ed.AppendToFlow(m, '{', '}', func(indent string, multiline bool) string {
			var parts []string
			for _, e := range entries {
				parts = append(parts, ed.flowEntry(e, indent, multiline))
			}
			sep := ", "
			if multiline {
				sep = ",\n" + indent
			}
			return strings.Join(parts, sep)
		})
	}
	if len(m.Content) == 0 {
		return splice.Edit{}, fmt.Errorf("an empty block mapping")
	}
	col := m.Content[0].Column
	at := ed.BlockEnd(m, col)
	var b strings.Builder
	if at == len(ed.Src) && len(ed.Src) > 0 && ed.Src[len(ed.Src)-1] != '\n' {
		b.WriteByte('\n')
	}
	for _, e := range entries {
		text, err := ed.blockEntry(e)
		if err != nil {
			return splice.Edit{}, err
		}
		for _, line := range strings.SplitAfter(text, "\n") {
			if line != "" {
				b.WriteString(strings.Repeat(" ", col-1))
				b.WriteString(line)
			}
		}
	}
	return splice.Edit{At: at, End: at, Text: b.String()}, nil
}

// addToSequence returns the insertion that appends a string to a sequence.
func (ed *editor) addToSequence(sq *yaml.Node, s string) (splice.Edit, error) {
	if sq.Kind != yaml.SequenceNode || sq.Anchor != "" {
		return splice.Edit{}, fmt.Errorf("required is not a plain list")
	}
	if sq.Style&yaml.FlowStyle != 0 || ed.JSON {
		return ed.AppendToFlow(sq, '[', ']', func(string, bool) string { return ed.scalar(s) })
	}
	if len(sq.Content) == 0 {
		return splice.Edit{}, fmt.Errorf("an empty block sequence")
	}
	first := sq.Content[0]
	// The dash stands before the first item on its line.
	off := ed.Offset(first.Line, first.Column)
	dash := bytes.LastIndexByte(ed.Src[ed.LineStart(first.Line):off], '-')
	if dash < 0 {
		return splice.Edit{}, fmt.Errorf("cannot find the list's dash")
	}
	prefix := string(ed.Src[ed.LineStart(first.Line) : ed.LineStart(first.Line)+dash])
	if strings.TrimLeft(prefix, " ") != "" {
		return splice.Edit{}, fmt.Errorf("the list does not start its line")
	}
	at := ed.BlockEnd(sq, len(prefix)+1)
	var b strings.Builder
	if at == len(ed.Src) && len(ed.Src) > 0 && ed.Src[len(ed.Src)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%s- %s\n", prefix, ed.scalar(s))
	return splice.Edit{At: at, End: at, Text: b.String()}, nil
}
