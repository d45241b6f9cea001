package encode

import (
	"bytes"
	"encoding/json"
	"io"

	yaml "go.yaml.in/yaml/v3"
)

// yamlChunked writes the mapping m as YAML does, in the same bytes, giving
// the encoder at most about limit nodes at a time: consecutive entries of
// a mapping are written together as one document, inside their ancestors'
// keys, by an encoder of their own, and the lines of ancestors' keys
// already written are cut. An entry larger than limit whose value is a
// non-empty mapping and whose key is short and plain is written the same
// way, entry by entry; any other is written whole.
//
// The parts join into the whole document's bytes because, in block style
// and without comments, a mapping's entries are written one after the
// other, each at its ancestors' indentation, whatever comes before it,
// and an ancestor's key (short, printable, one line) is its own line.
func yamlChunked(w io.Writer, m map[string]any, o Orderer, limit int) error {
	if len(m) == 0 {
		b, err := yamlWhole(YAMLNode(m, o))
		if err == nil {
			_, err = w.Write(b)
		}
		return err
	}
	c := &chunker{w: w, limit: limit, q: newQuoter()}
	return c.mapping(nil, m, o)
}

type chunker struct {
	w     io.Writer
	limit int
	q     *quoter
	// written are the ancestors' keys of the last part written, whose
	// lines are in out.
	written []*yaml.Node
}

// mapping writes the entries of m, whose ancestors' keys are path.
func (c *chunker) mapping(path []*yaml.Node, m map[string]any, o Orderer) error {
	var batch []*yaml.Node // key and value nodes
	n := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := c.write(path, batch)
		batch, n = nil, 0
		return err
	}
	for _, k := range sortedKeys(m, o) {
		var ko Orderer
		if o != nil {
			ko = o.Key(k)
		}
		size := countNodes(m[k], c.limit)
		if sub, ok := m[k].(map[string]any); ok && size > c.limit && len(sub) > 0 && lineKey(k) {
			if err := flush(); err != nil {
				return err
			}
			if err := c.mapping(append(path[:len(path):len(path)], c.q.keyNode(k)), sub, ko); err != nil {
				return err
			}
			continue
		}
		if n > 0 && n+size > c.limit {
			if err := flush(); err != nil {
				return err
			}
		}
		batch = append(batch, c.q.keyNode(k), c.q.node(m[k], ko))
		n += size
	}
	return flush()
}

// write writes the entries (key and value nodes) of the mapping whose
// ancestors' keys are path.
func (c *chunker) write(path []*yaml.Node, entries []*yaml.Node) error {
	doc := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: entries}
	for i := len(path) - 1; i >= 0; i-- {
		doc = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{path[i], doc}}
	}
	text, err := yamlDoc(doc)
	if err != nil {
		return err
	}
	// Cut the lines of the keys the last part wrote already.
	same := 0
	for same < len(path) && same < len(c.written) && path[same] == c.written[same] {
		same++
	}
	for range same {
		i := bytes.IndexByte(text, '\n')
		text = text[i+1:]
	}
	if _, err := c.w.Write(text); err != nil {
		return err
	}
	c.written = path
	return nil
}

// lineKey reports whether the key k is written on one line of its own
// before a block mapping value: short printable ASCII, which the encoder
// neither folds nor writes as a complex key.
func lineKey(k string) bool {
	if k == "" || len(k) > 64 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// countNodes counts the YAML nodes of v (keys included), stopping once
// past limit.
func countNodes(v any, limit int) int {
	n := 0
	var walk func(v any)
	walk = func(v any) {
		if n > limit {
			return
		}
		n++
		switch t := v.(type) {
		case map[string]any:
			for _, e := range t {
				n++ // the key
				walk(e)
				if n > limit {
					return
				}
			}
		case []any:
			for _, e := range t {
				walk(e)
				if n > limit {
					return
				}
			}
		case json.Number, string, bool, nil:
		}
	}
	walk(v)
	return n
}
