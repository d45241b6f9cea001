package edit

// Rendering new entries as the file writes them (block or flow YAML,
// JSON), and the fallback that re-encodes the whole YAML tree.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/splice"
	yaml "go.yaml.in/yaml/v3"
)

// specOrder orders the keys of new schema objects.
type specOrder struct{}

func (specOrder) Order(keys []string) []string {
	out := make([]string, 0, len(keys))
	for _, k := range specKeyOrder {
		if slices.Contains(keys, k) {
			out = append(out, k)
		}
	}
	for _, k := range keys {
		if !slices.Contains(specKeyOrder, k) {
			out = append(out, k)
		}
	}
	return out
}

func (specOrder) Key(k string) encode.Orderer {
	if k == "default" || k == "enum" {
		return nil // values keep their own (sorted) order
	}
	return specOrder{}
}

func (specOrder) Elem(int) encode.Orderer { return nil }

// blockEntry renders "key: value" as block YAML at column 1 with the
// file's indentation step; lists of scalars are written in flow style.
func (ed *editor) blockEntry(e entryKV) (string, error) {
	vn := encode.YAMLNode(e.val, specOrder{})
	flowScalarLists(vn)
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{encode.YAMLNode(e.key, nil), vn}}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(ed.Step)
	if err := enc.Encode(m); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}

func flowScalarLists(n *yaml.Node) {
	if n.Kind == yaml.SequenceNode {
		scalars := true
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				scalars = false
			}
		}
		if scalars {
			n.Style = yaml.FlowStyle
		}
	}
	for _, c := range n.Content {
		flowScalarLists(c)
	}
}

// flowEntry renders "key: value" for a flow mapping or a JSON object.
func (ed *editor) flowEntry(e entryKV, indent string, multiline bool) string {
	if ed.JSON {
		ind := ""
		if multiline {
			ind = strings.Repeat(" ", ed.Step)
		}
		return string(encode.JSON(e.key, nil, "")) + ": " + encode.HandwrittenJSON(e.val, specOrder{}, indent, ind)
	}
	vn := encode.YAMLNode(e.val, specOrder{})
	setFlow(vn)
	return ed.scalar(e.key) + ": " + strings.TrimSuffix(encodeNode(vn), "\n")
}

func setFlow(n *yaml.Node) {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style = yaml.FlowStyle
	}
	for _, c := range n.Content {
		setFlow(c)
	}
}

func encodeNode(n *yaml.Node) string {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	_ = enc.Encode(n)
	_ = enc.Close()
	return b.String()
}

// scalar renders a string as a YAML or JSON scalar.
func (ed *editor) scalar(s string) string {
	if ed.JSON {
		return string(encode.JSON(s, nil, ""))
	}
	return strings.TrimSuffix(encodeNode(encode.YAMLNode(s, nil)), "\n")
}

// reencode edits the YAML tree and writes the whole document again: order
// and comments stay, spacing may not. It is the fallback where splicing
// cannot find its way (anchors, odd layouts).
func (ed *editor) reencode(a *addition) ([]byte, error) {
	root, err := document.ParseNode(ed.Src)
	if err != nil {
		return nil, err
	}
	holder := root
	toks, _ := pointer.Split(a.holder)
	for _, t := range toks {
		for holder.Kind == yaml.AliasNode && holder.Alias != nil {
			holder = holder.Alias
		}
		var next *yaml.Node
		switch holder.Kind {
		case yaml.MappingNode:
			next = splice.Member(holder, t)
		case yaml.SequenceNode:
			if i, err := pointer.Index(t, len(holder.Content)); err == nil {
				next = holder.Content[i]
			}
		}
		if next == nil {
			return nil, fmt.Errorf("could not find %s in the text", a.holder)
		}
		holder = next
	}
	for holder.Kind == yaml.AliasNode && holder.Alias != nil {
		holder = holder.Alias
	}
	if holder.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s is not a mapping", a.holder)
	}
	entry := encode.YAMLNode(a.entry, specOrder{})
	flowScalarLists(entry)
	if props := splice.Member(holder, "properties"); props != nil && props.Kind == yaml.MappingNode {
		props.Content = append(props.Content, encode.YAMLNode(a.name, nil), entry)
	} else {
		pm := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{encode.YAMLNode(a.name, nil), entry}}
		holder.Content = append(holder.Content, encode.YAMLNode("properties", nil), pm)
	}
	if a.required != "" {
		if req := splice.Member(holder, "required"); req != nil && req.Kind == yaml.SequenceNode {
			req.Content = append(req.Content, encode.YAMLNode(a.required, nil))
		} else {
			holder.Content = append(holder.Content, encode.YAMLNode("required", nil),
				&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{encode.YAMLNode(a.required, nil)}})
		}
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(ed.Step)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
