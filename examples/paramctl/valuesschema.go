package main

// Generating a chart's values.schema.json from its values.yaml (paramctl
// schema). The types are the ones Helm gives the values: values.yaml is
// read with sigs.k8s.io/yaml, as Helm reads it (YAML 1.1 booleans, 1.10
// the number 1.1, an empty value null), and the schema is written for
// what Helm then validates. Key order and helm-docs' "# --" comments come
// from the YAML text itself.
//
// This lives in paramctl's own files: examples import no internal package
// of the module, and the library gains no exported name for it.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// draft202012 is the dialect generated schemas declare (cluster-app R1).
const draft202012 = "https://json-schema.org/draft/2020-12/schema"

// jsonObject is a JSON object that keeps the order its keys were set in.
type jsonObject struct {
	keys []string
	vals map[string]any
}

func newObject() *jsonObject { return &jsonObject{vals: map[string]any{}} }

// set adds or replaces a key; a new key goes last.
func (o *jsonObject) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *jsonObject) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// MarshalJSON writes the keys in order, without HTML escapes.
func (o *jsonObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := writeJSONValue(&b, k); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := writeJSONValue(&b, o.vals[k]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writeJSONValue writes v compactly: plain values (maps with sorted keys)
// and jsonObjects, strings without HTML escapes.
func writeJSONValue(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case *jsonObject:
		out, err := x.MarshalJSON()
		b.Write(out)
		return err
	case map[string]any:
		o := newObject()
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			o.set(k, x[k])
		}
		return writeJSONValue(b, o)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSONValue(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	}
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // the encoder's newline
	return nil
}

// renderSchema is the file's text: two-space indentation and a final
// newline, as helm-values-schema-json and most hand-written schemas.
func renderSchema(o *jsonObject) ([]byte, error) {
	var compact bytes.Buffer
	if err := writeJSONValue(&compact, o); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// readHelmValues reads values.yaml as Helm's loader does: each
// `---`-separated document unmarshalled by sigs.k8s.io/yaml, the maps
// merged in order; an empty file is empty values. Numbers come back as
// json.Number holding the text of the float64 Helm holds (1.10 is 1.1).
func readHelmValues(data []byte) (map[string]any, error) {
	values := map[string]any{}
	for _, doc := range splitYAMLDocs(data) {
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, err
		}
		if bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(j))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("values are a map of keys, not %s", kindOf(v))
		}
		values = mergeValues(values, m)
	}
	return helmNumbers(values).(map[string]any), nil
}

// helmNumbers gives every number the text Helm validates: Helm holds each
// number of a values file as a float64 and hands the validator its JSON
// text, so 9007199254740993 is 9007199254740992 there.
func helmNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = helmNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = helmNumbers(e)
		}
	case json.Number:
		if f, err := x.Float64(); err == nil {
			if b, err := json.Marshal(f); err == nil {
				return json.Number(b)
			}
		}
	}
	return v
}

// splitYAMLDocs splits as Helm does: a line starting with "---" ends a
// document.
func splitYAMLDocs(data []byte) [][]byte {
	var docs [][]byte
	var cur []byte
	for line := range bytes.Lines(data) {
		if bytes.HasPrefix(line, []byte("---")) {
			docs = append(docs, cur)
			cur = nil
			continue
		}
		cur = append(cur, line...)
	}
	return append(docs, cur)
}

// mergeValues merges b into a, maps key by key (Helm's MergeMaps).
func mergeValues(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if bm, ok := v.(map[string]any); ok {
			if am, ok := out[k].(map[string]any); ok {
				out[k] = mergeValues(am, bm)
				continue
			}
		}
		out[k] = v
	}
	return out
}

func kindOf(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "a scalar"
}

// keyInfo is what the YAML text says about a key: where it stands among
// its siblings, its description, and whether its value was written as a
// float.
type keyInfo struct {
	order       int
	description string
	float       bool
	// docType is the type helm-docs' comment names ("# -- (int) …"),
	// as a JSON type; "" when it names none or several.
	docType string
}

// pathKey joins a values path; list elements are "[]", so that every
// element of a list shares the comments of the first that has them.
func pathKey(path []string) string { return strings.Join(path, "\x00") }

// commentInfo reads the YAML text of values.yaml with go.yaml.in/yaml/v3
// for what Helm's reader drops: key order, comments and how each scalar
// was written. A file that reader refuses (Helm accepts some: duplicate
// keys) gives what the documents before it gave.
func commentInfo(data []byte) map[string]keyInfo {
	info := map[string]keyInfo{}
	lines := strings.Split(string(data), "\n")
	heads := headCache{}
	params := bitnamiParams(lines)
	dec := yamlv3.NewDecoder(bytes.NewReader(data))
	docIndex := 0
	for {
		var doc yamlv3.Node
		if err := dec.Decode(&doc); err != nil {
			break
		}
		docIndex++
		if len(doc.Content) == 0 {
			continue
		}
		var walk func(n *yamlv3.Node, path []string, depth int)
		walk = func(n *yamlv3.Node, path []string, depth int) {
			if depth > 64 {
				return
			}
			switch n.Kind {
			case yamlv3.MappingNode:
				for i := 0; i+1 < len(n.Content); i += 2 {
					k, v := n.Content[i], n.Content[i+1]
					p := append(slices.Clip(path), k.Value)
					pk := pathKey(p)
					if _, seen := info[pk]; !seen {
						order := textOrder(docIndex, k.Line, k.Column)
						desc, docType := heads.of(lines, k.Line)
						if d, ok := params[strings.Join(p, ".")]; ok && !strings.HasPrefix(heads.raw(lines, k.Line), "# --") {
							desc = d
						}
						if desc == "" {
							desc = plainComment(v.LineComment)
						}
						if desc == "" {
							desc = plainComment(k.LineComment)
						}
						info[pk] = keyInfo{order: order, description: desc, docType: docType, float: v.Kind == yamlv3.ScalarNode && v.Tag == "!!float"}
					}
					walk(v, p, depth+1)
				}
			case yamlv3.SequenceNode:
				for _, e := range n.Content {
					walk(e, append(slices.Clip(path), "[]"), depth+1)
				}
			case yamlv3.DocumentNode:
				for _, c := range n.Content {
					walk(c, path, depth+1)
				}
			}
		}
		walk(&doc, nil, 0)
	}
	return info
}

// textOrder orders keys by where the text writes them: document, line,
// column.
func textOrder(doc, line, col int) int {
	return doc<<40 | line<<16 | min(col, 1<<16-1)
}

// headCache remembers the description above each line: keys of a flow
// mapping share one line, and the comment block above it is read once.
type headCache map[int][2]string

func (h headCache) of(lines []string, line int) (string, string) {
	if r, ok := h[line]; ok {
		return r[0], r[1]
	}
	d, t := headDescription(lines, line)
	h[line] = [2]string{d, t}
	return d, t
}

// raw is the helm-docs line above a key, if any ("# -- …"): helm-docs'
// comment wins over a bitnami @param line.
func (h headCache) raw(lines []string, line int) string {
	for i := line - 2; i >= 0 && i < len(lines); i-- {
		t := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(t, "#") {
			break
		}
		if helmDocsLine.MatchString(t) {
			return "# --"
		}
	}
	return ""
}

// bitnamiParam is the line bitnami's readme-generator reads: "## @param
// dotted.path Description", anywhere in the file.
var bitnamiParam = regexp.MustCompile(`^\s*#+\s*@param\s+(\S+)\s+(\S.*)$`)

var bitnamiModifiers = regexp.MustCompile(`^(?:\[[^\]]*\]\s*)+`)

// bitnamiParams maps dotted paths to their @param descriptions.
func bitnamiParams(lines []string) map[string]string {
	out := map[string]string{}
	for _, l := range lines {
		if m := bitnamiParam.FindStringSubmatch(l); m != nil {
			// Leading modifiers ("[array]", "[default: X]") are the
			// readme generator's, not the text.
			out[m[1]] = sentence(bitnamiModifiers.ReplaceAllString(m[2], ""))
		}
	}
	return out
}

var (
	// helm-docs' description comment: "# -- text", maybe with a type in
	// parentheses first ("# -- (int) text").
	helmDocsLine = regexp.MustCompile(`^#\s*--\s?(?:\(([\w\[\]/. -]*)\)\s*)?(.*)$`)
	// A commented-out value ("# key: value", "# - item") is no description.
	commentedYAML = regexp.MustCompile(`^#\s*(?:[\w.\-/"']+\s*:(?:\s|$)|-\s|-$|\{|\[|---)`)
)

// Descriptions come, in this order, from helm-docs' "# --" comment above
// the key, bitnami's "## @param path text" line for the key's path, a
// plain comment above the key, the comment after the value.
//
// headDescription is the description helm-docs takes for the key on line
// (1-based): in the comment lines right above it, the last "# --" line
// and the comment lines after it ("# @..." lines are helm-docs' own and
// end it). Without a "# --" line, the plain comment right above the key
// is taken (as cert-manager's helm-tool does), up to its first blank
// comment line or commented-out YAML.
//
// The type helm-docs' comment may name first ("# -- (int) …") comes back
// as a JSON type, and so does helm-tool's "# +docs:type=T" above a plain
// comment ("any" for unknown).
func headDescription(lines []string, line int) (desc, docType string) {
	var block []string
	for i := line - 2; i >= 0 && i < len(lines); i-- {
		t := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(t, "#") {
			break
		}
		block = append(block, t)
	}
	slices.Reverse(block)
	if len(block) == 0 {
		return "", ""
	}
	start := -1
	for i, l := range block {
		if helmDocsLine.MatchString(l) {
			start = i
		}
	}
	if start >= 0 {
		m := helmDocsLine.FindStringSubmatch(block[start])
		parts := []string{m[2]}
		for _, l := range block[start+1:] {
			t := strings.TrimSpace(strings.TrimLeft(l, "#"))
			if strings.HasPrefix(t, "@") {
				break
			}
			parts = append(parts, t)
		}
		return sentence(strings.Join(parts, " ")), helmDocsTypes[strings.ToLower(strings.TrimSpace(m[1]))]
	}
	// A plain comment: its first paragraph, up to a blank comment line
	// or commented-out YAML; annotations for tools ("# @…", cert-manager's
	// helm-tool "# +docs:…") are skipped, "+docs:ignore" hides the key.
	// helm-tool's "# +docs:type=T" names the type ("unknown": any).
	for _, l := range block {
		t := strings.TrimSpace(strings.TrimLeft(l, "#"))
		if tt, ok := strings.CutPrefix(t, "+docs:type="); ok {
			tt = strings.ToLower(strings.TrimSpace(tt))
			if tt == "unknown" || tt == "any" {
				docType = anyType
			} else {
				docType = helmDocsTypes[tt]
			}
		}
	}
	var parts []string
	for _, l := range block {
		t := strings.TrimSpace(strings.TrimLeft(l, "#"))
		switch {
		case t == "+docs:ignore":
			return "", docType
		case strings.HasPrefix(t, "@") || strings.HasPrefix(t, "+docs:"):
			continue
		case t == "" && len(parts) > 0, commentedYAML.MatchString(l):
			return sentence(strings.Join(parts, " ")), docType
		case t != "":
			parts = append(parts, t)
		}
	}
	return sentence(strings.Join(parts, " ")), docType
}

// anyType is the docType of helm-tool's "+docs:type=unknown": the value
// may be of any type, whatever values.yaml shows.
const anyType = "any"

// helmDocsTypes are the types helm-docs' "# -- (TYPE)" names, as JSON
// types.
var helmDocsTypes = map[string]string{
	"string": "string", "tpl": "string", "int": "integer", "integer": "integer", "float": "number",
	"number": "number", "bool": "boolean", "boolean": "boolean", "list": "array", "array": "array",
	"object": "object", "dict": "object", "map": "object",
}

// plainComment takes a short plain comment (at most three lines, no
// commented-out YAML) as a description.
func plainComment(c string) string {
	c = strings.TrimSpace(c)
	if c == "" {
		return ""
	}
	ls := strings.Split(c, "\n")
	if len(ls) > 3 {
		return ""
	}
	parts := make([]string, 0, len(ls))
	for _, l := range ls {
		l = strings.TrimSpace(l)
		t := strings.TrimSpace(strings.TrimLeft(l, "#"))
		// Commented-out YAML, and annotations for tools (helm-docs'
		// "# @default", helm-values-schema-json's "# @schema").
		if commentedYAML.MatchString(l) || strings.HasPrefix(t, "@") {
			return ""
		}
		parts = append(parts, t)
	}
	return sentence(strings.Join(parts, " "))
}

// sentence makes a comment a description the cluster-app rules accept
// (R6): one line, single spaces, a capital first letter, closing
// punctuation.
func sentence(s string) string {
	s = plainText(s)
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	if s == "" {
		return ""
	}
	r, n := utf8.DecodeRuneInString(s)
	if unicode.IsLower(r) {
		s = string(unicode.ToUpper(r)) + s[n:]
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	if !strings.ContainsRune(".!?", last) {
		if last == ':' || last == ';' || last == ',' {
			s = s[:len(s)-1]
		}
		s += "."
	}
	return s
}

var markdownLink = regexp.MustCompile(`\[([^\]\n]+)\]\(([^)\s]+)\)`)

// plainText drops the Markdown helm-docs comments often hold (cluster-app
// R6 wants plain text): a link [text](url) becomes "text (url)", code
// marks and emphasis go.
func plainText(s string) string {
	s = markdownLink.ReplaceAllString(s, "$1 ($2)")
	s = strings.NewReplacer("`", "", "**", "", "__", "").Replace(s)
	return s
}

// acronyms are words a title writes in capitals.
var acronyms = map[string]string{
	"api": "API", "aws": "AWS", "cpu": "CPU", "dns": "DNS", "gcp": "GCP", "grpc": "gRPC", "http": "HTTP",
	"https": "HTTPS", "id": "ID", "ip": "IP", "ips": "IPs", "json": "JSON", "oidc": "OIDC", "rbac": "RBAC",
	"sa": "SA", "smtp": "SMTP", "ssl": "SSL", "tcp": "TCP", "tls": "TLS", "ttl": "TTL", "ui": "UI",
	"udp": "UDP", "uid": "UID", "uri": "URI", "url": "URL", "urls": "URLs", "yaml": "YAML",
}

// titleOf makes a sentence-case title from a key (cluster-app R5):
// pullPolicy is "Pull policy", service_account-name "Service account
// name", apiURL "API URL". Punctuation goes; a key of none but
// punctuation is "Value".
func titleOf(key string) string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = nil
		}
	}
	rs := []rune(key)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 && unicode.IsUpper(r) {
			prev := cur[len(cur)-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && nextLower {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	if len(words) == 0 {
		return "Value"
	}
	for i, w := range words {
		lw := strings.ToLower(w)
		switch {
		case acronyms[lw] != "":
			words[i] = acronyms[lw]
		case len([]rune(w)) > 1 && strings.ToUpper(w) == w && strings.ToLower(w) != w:
			// an acronym as written (AWS, S3)
		case i == 0:
			r, n := utf8.DecodeRuneInString(lw)
			words[i] = string(unicode.ToUpper(r)) + lw[n:]
		default:
			words[i] = lw
		}
	}
	return strings.Join(words, " ")
}

// schemaSources is what a generated schema is built from besides
// values.yaml: the overlays that are evidence of keys and types (-f
// files, a chart's ci/*.yaml), and whether the root is closed.
type schemaSources struct {
	overlays []overlayValues
	closed   bool
	// rootKeys are keys a closed root declares besides global: a
	// chart's dependencies (their alias or name), tags, and the keys
	// import-values brings in.
	rootKeys []string
}

// overlayValues is one overlay as Helm reads it.
type overlayValues struct {
	name   string
	values map[string]any
}

// generatedSchema is a generated schema with what went into it.
type generatedSchema struct {
	root *jsonObject
	// values is values.yaml as Helm reads it.
	values map[string]any
	// secrets are the values pointers whose key reads as a secret: their
	// value is not written as default, the property is writeOnly.
	secrets []string
	// commented are the values pointers values.yaml declares only in a
	// comment, sorted.
	commented []string
}

// The JSON types, one bit each; a set of them is the evidence at a path.
type typeSet uint8

const (
	tArray typeSet = 1 << iota
	tBoolean
	tInteger
	tNumber
	tObject
	tString
	// tNull joins a type where values.yaml itself holds a null: Helm
	// hands that null to the schema of a chart used as a subchart (when
	// the parent sets any of its values), so a key typed by other
	// evidence must still take it.
	tNull
)

// typeNames are the bits' names, in the order a type list is written.
var typeNames = []struct {
	bit  typeSet
	name string
}{{tArray, "array"}, {tBoolean, "boolean"}, {tInteger, "integer"}, {tNumber, "number"}, {tObject, "object"}, {tString, "string"}, {tNull, "null"}}

func typeBit(name string) typeSet {
	for _, t := range typeNames {
		if t.name == name {
			return t.bit
		}
	}
	return 0
}

// names are the set's types in order.
func (s typeSet) names() []string {
	var out []string
	for _, t := range typeNames {
		if s&t.bit != 0 {
			out = append(out, t.name)
		}
	}
	return out
}

// keyword is the set as a type keyword's value: nil for none, a string
// for one, a list for several.
func (s typeSet) keyword() any {
	n := s.names()
	switch len(n) {
	case 0:
		return nil
	case 1:
		return n[0]
	}
	l := make([]any, len(n))
	for i, t := range n {
		l[i] = t
	}
	return l
}

// generator builds a schema from Helm's reading of the values and the
// YAML text's key order and comments, with the evidence of every source.
type generator struct {
	info map[string]keyInfo
	// values is values.yaml as Helm reads it: the defaults.
	values map[string]any
	// strong are the types a path's values show (a non-empty value of
	// values.yaml, a commented-out key, an overlay, helm-docs' type);
	// weak the types of its empty values ("", [], {}), which say nothing
	// unless something else does, and are then accepted beside it.
	strong, weak map[string]typeSet
	// nullItems are the list paths ("…/[]") with a null element: Helm
	// keeps a null inside a list, so the items get no type.
	nullItems map[string]bool
	// nulls are the paths where values.yaml itself holds a null.
	nulls   map[string]bool
	secrets []string
}

// generateSchema builds values.schema.json for values.yaml's bytes alone.
func generateSchema(data []byte) (*jsonObject, map[string]any, error) {
	g, err := generateSchemaFrom(data, schemaSources{})
	if err != nil {
		return nil, nil, err
	}
	return g.root, g.values, nil
}

// generateSchemaFrom builds values.schema.json for values.yaml's bytes,
// its commented-out keys and the overlays.
//
// The schema never refuses what the chart accepts: the root is open
// unless closed (and then still allows global, which Helm gives every
// subchart), commented-out keys are declared, and a key's type is the
// union of what every source shows; an empty value ("", [], {}) or a
// null alone leaves the type open.
func generateSchemaFrom(data []byte, src schemaSources) (*generatedSchema, error) {
	values, err := readHelmValues(data)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	g := &generator{info: commentInfo(data), values: values, strong: map[string]typeSet{}, weak: map[string]typeSet{}, nullItems: map[string]bool{}, nulls: map[string]bool{}}
	g.observe(values, nil, true)
	commented, cinfo := commentedKeys(data, lines)
	var shape any = values
	var commentedPtrs []string
	for pk, ci := range cinfo {
		if _, real := g.info[pk]; !real {
			g.info[pk] = ci
		}
	}
	for _, c := range commented {
		if _, found := valuesAt(values, c.path); found {
			continue // values.yaml sets it: its value is the evidence
		}
		wrapped := wrapAt(c.path, c.value)
		shape = unionShape(shape, wrapped)
		g.observe(c.value, c.path, false)
		commentedPtrs = append(commentedPtrs, valuesPointer(c.path))
	}
	for _, o := range src.overlays {
		shape = unionShape(shape, o.values)
		g.observe(o.values, nil, false)
	}
	root := newObject()
	root.set("$schema", draft202012)
	root.set("type", "object")
	m, _ := shape.(map[string]any)
	g.properties(root, m, nil)
	if src.closed {
		if _, ok := m["global"]; !ok {
			props, ok := root.get("properties")
			if !ok {
				props = newObject()
				root.set("properties", props)
			}
			global := newObject()
			global.set("type", "object")
			global.set("title", "Global")
			global.set("description", "Values Helm shares with every subchart; Helm adds it to the values of a chart used as a subchart.")
			props.(*jsonObject).set("global", global)
		}
		for _, k := range src.rootKeys {
			if _, ok := m[k]; ok {
				continue
			}
			props, ok := root.get("properties")
			if !ok {
				props = newObject()
				root.set("properties", props)
			}
			if _, ok := props.(*jsonObject).get(k); !ok {
				p := newObject()
				p.set("title", titleOf(k))
				p.set("description", "Set by Helm for a dependency of the chart (its values, tags or import-values).")
				props.(*jsonObject).set(k, p)
			}
		}
		root.set("additionalProperties", false)
	}
	sort.Strings(commentedPtrs)
	return &generatedSchema{root: root, values: values, secrets: g.secrets, commented: slices.Compact(commentedPtrs)}, nil
}

// valuesPointer is the JSON pointer of a values path.
func valuesPointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteString("/")
		b.WriteString(escapeToken(p))
	}
	return b.String()
}

// wrapAt nests v in maps along path.
func wrapAt(path []string, v any) map[string]any {
	m := map[string]any{path[len(path)-1]: v}
	for i := len(path) - 2; i >= 0; i-- {
		m = map[string]any{path[i]: m}
	}
	return m
}

// valuesAt finds the value at a path of maps (no list on the way).
func valuesAt(v any, path []string) (any, bool) {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// unionShape merges the keys of b into a: maps key by key, lists
// element after element; where one is a map or a list and the other is
// not, the map or list stands (its keys and items are declared).
func unionShape(a, b any) any {
	am, aIsMap := a.(map[string]any)
	bm, bIsMap := b.(map[string]any)
	switch {
	case aIsMap && bIsMap:
		out := make(map[string]any, len(am)+len(bm))
		for k, v := range am {
			out[k] = v
		}
		for k, v := range bm {
			if old, ok := out[k]; ok {
				out[k] = unionShape(old, v)
			} else {
				out[k] = v
			}
		}
		return out
	case aIsMap:
		return a
	case bIsMap:
		return b
	}
	al, aIsList := a.([]any)
	bl, bIsList := b.([]any)
	switch {
	case aIsList && bIsList:
		return append(slices.Clip(al), bl...)
	case aIsList:
		return a
	case bIsList:
		return b
	case a == nil:
		return b
	}
	return a
}

// observe records the types v shows at path and below. fromText says
// the value is values.yaml's own, whose text tells a float (3.0) from an
// integer.
func (g *generator) observe(v any, path []string, fromText bool) {
	pk := pathKey(path)
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			g.weak[pk] |= tObject
			return
		}
		if path != nil {
			g.strong[pk] |= tObject
		}
		for k, e := range x {
			g.observe(e, append(slices.Clip(path), k), fromText)
		}
	case []any:
		if len(x) == 0 {
			g.weak[pk] |= tArray
			return
		}
		g.strong[pk] |= tArray
		for _, e := range x {
			if e == nil {
				g.nullItems[pathKey(append(slices.Clip(path), "[]"))] = true
			}
			g.observe(e, append(slices.Clip(path), "[]"), fromText)
		}
	case string:
		if x == "" {
			g.weak[pk] |= tString
		} else {
			g.strong[pk] |= tString
		}
	case bool:
		g.strong[pk] |= tBoolean
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") || fromText && g.info[pk].float {
			g.strong[pk] |= tNumber
		} else {
			g.strong[pk] |= tInteger
		}
	case nil:
		if fromText && path != nil {
			g.nulls[pk] = true
		}
	}
}

// types is the type set of a path: what its values show, with the empty
// values beside it; none when only empty values and nulls were seen and
// no helm-docs type is named. A number covers an integer. Where
// values.yaml holds a null and other evidence names a type, null is
// allowed beside it: Helm validates that null when the chart is a
// subchart whose parent sets any of its values.
func (g *generator) types(path []string) typeSet {
	pk := pathKey(path)
	if g.info[pk].docType == anyType {
		return 0
	}
	s := g.strong[pk] | typeBit(g.info[pk].docType)
	if s == 0 {
		return 0
	}
	s |= g.weak[pk]
	if g.nulls[pk] {
		s |= tNull
	}
	if len(path) > 0 {
		s |= intOrString(path[len(path)-1], s)
	}
	if s&tNumber != 0 {
		s &^= tInteger
	}
	return s
}

// intOrString widens the types of keys named as Kubernetes' int-or-string
// fields (a port by number or name, maxUnavailable as 1 or "25%"), which
// charts pass through to them: a port given as text also takes a number,
// a disruption budget either.
func intOrString(key string, s typeSet) typeSet {
	k := strings.ToLower(key)
	switch {
	case k == "maxunavailable" || k == "maxsurge" || k == "minavailable":
		if s&(tInteger|tString) != 0 {
			return tInteger | tString
		}
	case strings.HasSuffix(k, "port") && !strings.ContainsAny(k, "./"): // not an annotation (prometheus.io/port)
		if s&tString != 0 {
			return tInteger
		}
	}
	return 0
}

// properties writes an object's properties in values.yaml's order.
func (g *generator) properties(o *jsonObject, m map[string]any, path []string) {
	if len(m) == 0 {
		return
	}
	props := newObject()
	for _, k := range g.ordered(m, path) {
		p := append(slices.Clip(path), k)
		props.set(k, g.property(k, m[k], p))
	}
	o.set("properties", props)
}

// ordered returns a map's keys in the order values.yaml wrote them
// (commented-out keys where their comment stands); keys the YAML text
// does not show (a merge key's, an overlay's) follow, sorted.
func (g *generator) ordered(m map[string]any, path []string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		a, aok := g.info[pathKey(append(slices.Clip(path), keys[i]))]
		b, bok := g.info[pathKey(append(slices.Clip(path), keys[j]))]
		switch {
		case aok && bok && a.order != b.order:
			return a.order < b.order
		case aok != bok:
			return aok
		}
		return keys[i] < keys[j]
	})
	return keys
}

// property is the schema of one key: type, title, description, default.
// v is the key's shape (every source's keys and items).
func (g *generator) property(key string, v any, path []string) *jsonObject {
	o := newObject()
	info := g.info[pathKey(path)]
	ts := g.types(path)
	if t := ts.keyword(); t != nil {
		o.set("type", t)
	}
	o.set("title", titleOf(key))
	if info.description != "" {
		o.set("description", info.description)
	}
	// A default only where values.yaml gives one: not below a list,
	// whose elements each hold their own, not for an object, whose keys
	// carry theirs. A key that reads as a secret gets none.
	if !slices.Contains(path, "[]") {
		if dv, ok := valuesAt(g.values, path); ok && !emptyValue(dv) {
			if _, isMap := dv.(map[string]any); !isMap {
				if _, isBool := dv.(bool); !isBool && secretKey(key) {
					o.set("writeOnly", true)
					g.secrets = append(g.secrets, valuesPointer(path))
				} else {
					o.set("default", dv)
				}
			}
		}
	}
	g.shape(o, ts, v, path)
	return o
}

// shape adds what lies below an object or an array.
func (g *generator) shape(o *jsonObject, ts typeSet, v any, path []string) {
	switch x := v.(type) {
	case map[string]any:
		g.properties(o, x, path)
	case []any:
		if len(x) > 0 {
			o.set("items", g.items(x, append(slices.Clip(path), "[]")))
			return
		}
	}
	if ts&tArray != 0 {
		if _, ok := o.get("items"); !ok {
			o.set("items", newObject())
		}
	}
}

// items is the schema of a list's elements: their common type, and for
// objects the properties any element has; elements of several types (a
// number and an integer are a number) get an items schema without a
// type.
func (g *generator) items(l []any, path []string) *jsonObject {
	o := newObject()
	ts := g.types(path)
	if g.nullItems[pathKey(path)] {
		ts = 0 // a null element: any type
	}
	if len(ts.names()) == 1 {
		o.set("type", ts.names()[0])
	}
	var merged any
	for _, e := range l {
		merged = unionShape(merged, e)
	}
	switch x := merged.(type) {
	case map[string]any:
		if ts == tObject {
			g.properties(o, x, path)
		}
	case []any:
		if ts == tArray {
			o.set("items", g.items(x, append(slices.Clip(path), "[]")))
		}
	}
	if ts == tArray {
		if _, ok := o.get("items"); !ok {
			o.set("items", newObject())
		}
	}
	return o
}

// emptyValue reports the values cluster-app R18 forbids as a default
// (and null): "", 0, false, [] and {}.
func emptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case json.Number:
		return strings.Trim(strings.TrimLeft(string(x), "-"), "0.") == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// secretWords are the words of a key that name secret material;
// secretPairs the two-word names (apiKey, privateKey, accessKey).
var (
	secretWords = map[string]bool{"password": true, "passwd": true, "passphrase": true, "secret": true, "token": true,
		"apikey": true, "credential": true, "credentials": true, "privatekey": true, "pwd": true}
	secretPairs = map[string]bool{"api key": true, "private key": true, "access key": true, "secret key": true,
		"signing key": true, "encryption key": true, "auth key": true, "client secret": true, "tls key": true, "ssh key": true}
	// A key ending in one of these names a secret, it holds none
	// (existingSecret, passwordSecretName, tokenTTL, secretKeyRef).
	secretRefWords = map[string]bool{"name": true, "names": true, "ref": true, "reference": true, "path": true, "file": true,
		"dir": true, "enabled": true, "enable": true, "create": true, "annotations": true, "labels": true, "namespace": true,
		"mount": true, "ttl": true, "type": true, "provider": true, "policy": true, "length": true, "expiration": true,
		"audience": true, "field": true, "selector": true, "prefix": true, "source": true, "header": true}
)

// secretVerbs start a key that says what to do with a secret
// (existingSecret, createSecret, generateToken), not one.
var secretVerbs = map[string]bool{"existing": true, "create": true, "generate": true, "use": true, "enable": true,
	"disable": true, "auto": true, "rotate": true, "mount": true}

// secretKey reports whether a values key reads as a secret: a password,
// token, secret or key material (password, apiKey, clientSecret,
// privateKey), not a reference to one (existingSecret, secretName,
// passwordSecretKey).
func secretKey(key string) bool {
	words := strings.Fields(strings.ToLower(titleOf(key)))
	if len(words) == 0 || secretVerbs[words[0]] || secretRefWords[words[len(words)-1]] {
		return false
	}
	if len(words) >= 2 && words[len(words)-1] == "key" && (words[len(words)-2] == "secret" || words[len(words)-2] == "password") && len(words) > 2 {
		return false // passwordSecretKey: the key inside a Secret
	}
	for i, w := range words {
		if secretWords[w] {
			return true
		}
		if i > 0 && secretPairs[words[i-1]+" "+w] {
			return true
		}
	}
	return false
}
