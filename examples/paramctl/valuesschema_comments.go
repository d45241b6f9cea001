package main

// Keys values.yaml declares in comments. Charts document options they
// do not set as commented-out YAML ("# nameOverride:", "# -- The
// limit\n# revisionHistoryLimit: 10", a commented block of several
// lines) and, in helm-docs' older form, as "# path.to.key -- text". Helm
// accepts such a key when a user sets it, so a generated schema declares
// it, typed from its commented value (none for an empty one).

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// commentedKey is a key declared in a comment: its values path and its
// commented value as Helm would read it (nil for none).
type commentedKey struct {
	path  []string
	value any
}

// keyPos is a key of the YAML text: where it stands, its values path,
// and the column of the keys of its value when that is a non-empty
// mapping (0 otherwise).
type keyPos struct {
	doc, line, col int
	path           []string
	childCol       int
	inList         bool
}

var (
	// commentedKeyLine starts a commented-out key: "key:" or "key: value"
	// (after "# "), the key a plain or quoted name.
	commentedKeyLine = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_.\-/]*|"[^"]+"|'[^']+'):(?:[ \t]+(.*))?$`)
	// helmDocsPathLine is helm-docs' older form: "# path.to.key -- text",
	// maybe with a type ("# key -- (int) text").
	helmDocsPathLine = regexp.MustCompile(`^#\s*([A-Za-z_][A-Za-z0-9_\-]*(?:\.[A-Za-z_][A-Za-z0-9_\-]*)*)\s+--\s?(?:\(([\w\[\]/. -]*)\)\s*)?(.*)$`)
	// capitalizedWord is a key that reads as prose ("# Note: …").
	capitalizedWord = regexp.MustCompile(`^[A-Z][a-z]+$`)
)

// proseKeys are words a comment's prose puts before a colon ("# ref:
// https://…", "# e.g: …"): never a commented-out key.
var proseKeys = map[string]bool{"ref": true, "refs": true, "reference": true, "references": true, "see": true,
	"note": true, "notes": true, "example": true, "examples": true, "eg": true, "e.g": true, "e.g.": true, "i.e": true,
	"ie": true, "default": true, "defaults": true, "values": true, "docs": true, "doc": true, "link": true,
	"links": true, "warning": true, "important": true, "tip": true, "info": true, "usage": true, "todo": true,
	"fixme": true, "deprecated": true, "options": true, "description": true, "source": true, "more": true,
	"http": true, "https": true, "yaml-language-server": true}

// keyPositions walks the YAML text for every key's place, and collects
// the text of every comment the parser saw (a "#" line inside a block
// scalar is no comment).
func keyPositions(data []byte) (keys []keyPos, rootCol int, comments map[string]bool) {
	comments = map[string]bool{}
	addComments := func(c string) {
		for _, l := range strings.Split(c, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				comments[l] = true
			}
		}
	}
	dec := yamlv3.NewDecoder(strings.NewReader(string(data)))
	for doc := 1; ; doc++ {
		var n yamlv3.Node
		if err := dec.Decode(&n); err != nil {
			break
		}
		var walk func(n *yamlv3.Node, path []string, inList bool, depth int)
		walk = func(n *yamlv3.Node, path []string, inList bool, depth int) {
			if depth > 64 {
				return
			}
			addComments(n.HeadComment)
			addComments(n.LineComment)
			addComments(n.FootComment)
			switch n.Kind {
			case yamlv3.DocumentNode:
				for _, c := range n.Content {
					if c.Kind == yamlv3.MappingNode && len(c.Content) > 0 && rootCol == 0 {
						rootCol = c.Content[0].Column
					}
					walk(c, path, inList, depth+1)
				}
			case yamlv3.MappingNode:
				for i := 0; i+1 < len(n.Content); i += 2 {
					k, v := n.Content[i], n.Content[i+1]
					addComments(k.HeadComment)
					addComments(k.LineComment)
					addComments(k.FootComment)
					p := append(slices.Clip(path), k.Value)
					kp := keyPos{doc: doc, line: k.Line, col: k.Column, path: p, inList: inList}
					if v.Kind == yamlv3.MappingNode && len(v.Content) > 0 && v.Style&yamlv3.FlowStyle == 0 {
						kp.childCol = v.Content[0].Column
					}
					keys = append(keys, kp)
					walk(v, p, inList, depth+1)
				}
			case yamlv3.SequenceNode:
				for _, e := range n.Content {
					walk(e, append(slices.Clip(path), "[]"), true, depth+1)
				}
			}
		}
		walk(&n, nil, false, 0)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if keys[i].line != keys[j].line {
			return keys[i].line < keys[j].line
		}
		return keys[i].col < keys[j].col
	})
	return keys, rootCol, comments
}

// commentedKeys finds the keys values.yaml declares in comments, with
// their descriptions and helm-docs types. A commented key is read where
// its "#" stands in the column of the keys of a mapping values.yaml
// writes (the root, or a non-empty map: an empty map such as
// "resources: {}" with commented examples below it stays free-form),
// never inside a list.
func commentedKeys(data []byte, lines []string) ([]commentedKey, map[string]keyInfo) {
	keys, rootCol, comments := keyPositions(data)
	if rootCol == 0 {
		rootCol = 1
	}
	var out []commentedKey
	info := map[string]keyInfo{}
	var stack []keyPos
	ki := 0
	isComment := func(i, col int) bool {
		l := lines[i]
		t := strings.TrimLeft(l, " ")
		return strings.HasPrefix(t, "#") && len(l)-len(t)+1 == col && comments[strings.TrimSpace(l)]
	}
	for i := 0; i < len(lines); {
		t := strings.TrimLeft(lines[i], " ")
		if !strings.HasPrefix(t, "#") || !comments[strings.TrimSpace(lines[i])] {
			i++
			continue
		}
		line, col := i+1, len(lines[i])-len(t)+1
		for ki < len(keys) && keys[ki].line < line {
			for len(stack) > 0 && stack[len(stack)-1].col >= keys[ki].col {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, keys[ki])
			ki++
		}
		j := i
		for j < len(lines) && isComment(j, col) {
			j++
		}
		// The parent: the nearest key left of the comment.
		var parent *keyPos
		for s := len(stack) - 1; s >= 0; s-- {
			if stack[s].col < col {
				parent = &stack[s]
				break
			}
		}
		doc := 1
		if len(stack) > 0 {
			doc = stack[len(stack)-1].doc
		}
		var base []string
		ok := true
		switch {
		case parent == nil:
			ok = col == rootCol
		case parent.inList || parent.childCol != col:
			ok = false
		default:
			base = parent.path
		}
		if ok {
			for _, c := range readCommentBlock(lines, i, j, col) {
				p := append(slices.Clip(base), c.key)
				pk := pathKey(p)
				if _, seen := info[pk]; seen {
					continue
				}
				ci := keyInfo{order: textOrder(doc, c.line, col)}
				ci.description, ci.docType = headDescription(lines[c.from:], c.line-c.from)
				info[pk] = ci
				out = append(out, commentedKey{path: p, value: c.value})
			}
		}
		// helm-docs' "# path.to.key -- text" names its key from the
		// root, wherever it stands.
		for k := i; k < j; k++ {
			m := helmDocsPathLine.FindStringSubmatch(strings.TrimSpace(lines[k]))
			if m == nil {
				continue
			}
			p := strings.Split(m[1], ".")
			pk := pathKey(p)
			if _, seen := info[pk]; seen {
				continue
			}
			info[pk] = keyInfo{order: textOrder(doc, k+1, col), description: sentence(m[3]), docType: helmDocsTypes[strings.ToLower(strings.TrimSpace(m[2]))]}
			out = append(out, commentedKey{path: p})
		}
		i = j
	}
	return out, info
}

// blockKey is a commented-out key of a comment block: its name, its
// value, its line (1-based), and the 0-based index of the first line
// its description may come from.
type blockKey struct {
	key        string
	value      any
	line, from int
}

// readCommentBlock reads the commented-out keys of the comment lines
// [from, to) whose "#" stands in column col: a "key:" line at the
// block's own indentation and the more indented lines below it, read as
// YAML the way Helm reads values (else the "key:" line alone).
func readCommentBlock(lines []string, from, to, col int) []blockKey {
	content := make([]string, to-from)
	for k := from; k < to; k++ {
		c := lines[k][col:] // after the "#"
		content[k-from] = strings.TrimPrefix(c, " ")
	}
	var out []blockKey
	descFrom := from
	for k := 0; k < len(content); k++ {
		m := commentedKeyLine.FindStringSubmatch(content[k])
		if m == nil {
			continue
		}
		end := k + 1
		for end < len(content) && content[end] != "" && (content[end][0] == ' ' || content[end][0] == '\t' || strings.HasPrefix(content[end], "- ") || content[end] == "-") {
			end++
		}
		key, v, ok := commentedValue(content[k:end])
		if !ok && end > k+1 {
			end = k + 1
			key, v, ok = commentedValue(content[k : k+1])
		}
		if !ok || !plausibleKey(key, m[2], v) {
			continue
		}
		out = append(out, blockKey{key: key, value: v, line: from + k + 1, from: descFrom})
		descFrom = from + end
		k = end - 1
	}
	return out
}

// commentedValue reads commented-out YAML as Helm would read it: one
// key and its value.
func commentedValue(ls []string) (string, any, bool) {
	v, err := readHelmValues([]byte(strings.Join(ls, "\n") + "\n"))
	if err != nil || len(v) != 1 {
		return "", nil, false
	}
	for k, e := range v {
		return k, e, true
	}
	return "", nil, false
}

// plausibleKey tells a commented-out key from prose with a colon: no
// capitalised word ("Note"), no word prose puts before a colon ("ref",
// "e.g."), and no unquoted value of several words.
func plausibleKey(key, raw string, v any) bool {
	if capitalizedWord.MatchString(key) || proseKeys[strings.ToLower(key)] {
		return false
	}
	raw = strings.TrimSpace(raw)
	if s, ok := v.(string); ok && strings.ContainsAny(strings.TrimSpace(s), " \t") && raw != "" && !strings.ContainsAny(raw[:1], `"'[{|>`) {
		return false
	}
	return true
}

// dependencyKeys are the root keys Helm's handling of a chart's
// dependencies puts into its values: each dependency's alias or name
// (its values), tags when a dependency has some, and what import-values
// brings in (a parent key, or the keys of a subchart's exports.NAME,
// read from the vendored subchart under charts/). A chart folder
// without Chart.yaml has none.
func dependencyKeys(dir string) []string {
	data, err := os.ReadFile(filepath.Join(dir, "Chart.yaml"))
	if err != nil {
		return nil
	}
	var meta struct {
		Dependencies []struct {
			Name         string `json:"name"`
			Alias        string `json:"alias"`
			Tags         []any  `json:"tags"`
			ImportValues []any  `json:"import-values"`
		} `json:"dependencies"`
	}
	if err := yaml.Unmarshal(data, &meta); err != nil {
		return nil
	}
	var out []string
	for _, d := range meta.Dependencies {
		key := d.Alias
		if key == "" {
			key = d.Name
		}
		out = append(out, key)
		if len(d.Tags) > 0 {
			out = append(out, "tags")
		}
		for _, iv := range d.ImportValues {
			switch x := iv.(type) {
			case map[string]any:
				if p, ok := x["parent"].(string); ok {
					out = append(out, strings.SplitN(strings.TrimPrefix(p, "."), ".", 2)[0])
				}
			case string:
				sub, err := os.ReadFile(filepath.Join(dir, "charts", d.Name, "values.yaml"))
				if err != nil {
					continue
				}
				v, err := readHelmValues(sub)
				if err != nil {
					continue
				}
				exports, _ := v["exports"].(map[string]any)
				m, _ := exports[x].(map[string]any)
				for k := range m {
					out = append(out, k)
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}
