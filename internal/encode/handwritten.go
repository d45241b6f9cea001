package encode

import "strings"

// HandwrittenJSON writes v as JSON laid out as people write schemas by
// hand, for text spliced into such a file: indented by unit from
// indentation prefix (the text starts at prefix, without it), with lists
// of scalars kept on one line; with no unit, on one line, with a space
// after each comma. JSON with an indent puts every element on a line of
// its own, which reads badly in a hand-written enum.
func HandwrittenJSON(v any, o Orderer, prefix, unit string) string {
	var b strings.Builder
	writeHandwritten(&b, v, o, prefix, unit)
	return b.String()
}

func writeHandwritten(b *strings.Builder, v any, o Orderer, prefix, unit string) {
	nl := "\n"
	if unit == "" {
		nl, prefix = "", ""
	}
	// member starts member i of an object or a multi-line array: after a
	// comma (and a space on one line), on a line of its own one unit in.
	member := func(i int) {
		if i > 0 {
			b.WriteString(",")
			if nl == "" {
				b.WriteString(" ")
			}
		}
		b.WriteString(nl + prefix + unit)
	}
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			b.WriteString("{}")
			return
		}
		keys := sortedKeys(t, o)
		b.WriteString("{")
		for i, k := range keys {
			member(i)
			b.Write(JSON(k, nil, ""))
			b.WriteString(": ")
			var ko Orderer
			if o != nil {
				ko = o.Key(k)
			}
			writeHandwritten(b, t[k], ko, prefix+unit, unit)
		}
		b.WriteString(nl + prefix + "}")
	case []any:
		scalars := true
		for _, x := range t {
			switch x.(type) {
			case map[string]any, []any:
				scalars = false
			}
		}
		if scalars {
			for i, x := range t {
				if i == 0 {
					b.WriteString("[")
				} else {
					b.WriteString(", ")
				}
				b.Write(JSON(x, nil, ""))
			}
			if len(t) == 0 {
				b.WriteString("[")
			}
			b.WriteString("]")
			return
		}
		b.WriteString("[")
		for i, x := range t {
			member(i)
			writeHandwritten(b, x, nil, prefix+unit, unit)
		}
		b.WriteString(nl + prefix + "]")
	default:
		b.Write(JSON(v, nil, ""))
	}
}
