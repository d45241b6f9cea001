package schema

import (
	"bytes"
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The $schema URIs of the dialects paramkit reads, as Schema.Dialect
// gives them. Absent $schema means draft2020.
const (
	draft4    = "http://json-schema.org/draft-04/schema#"
	draft6    = "http://json-schema.org/draft-06/schema#"
	draft7    = "http://json-schema.org/draft-07/schema#"
	draft2019 = "https://json-schema.org/draft/2019-09/schema"
	draft2020 = "https://json-schema.org/draft/2020-12/schema"
)

// baseURL is where the document lives for the engine; nothing is ever
// loaded from it.
const baseURL = "mem:///schema.json"

//go:embed kudo-meta.json
var kudoMetaJSON []byte

var kudoMeta = func() *jsonschema.Schema {
	c := jsonschema.NewCompiler()
	c.LoadURL = refuseLoad
	if err := c.AddResource("https://paramkit.dev/meta/kudo", bytes.NewReader(kudoMetaJSON)); err != nil {
		panic(err)
	}
	return c.MustCompile("https://paramkit.dev/meta/kudo")
}()

// errRefused is wrapped by the error (KindRefused) for a $ref that would
// leave the document.
var errRefused = errors.New("refused: a $ref must resolve inside the document or to a dialect meta-schema; nothing is fetched or read")

func refuseLoad(url string) (io.ReadCloser, error) {
	return nil, fmt.Errorf("%w (%s)", errRefused, url)
}

// Schema is a parsed and compiled parameter schema.
type Schema struct {
	doc      any
	dialect  string
	compiled *jsonschema.Schema
	// fast is the allocation-free check of valid values, built on the
	// first Validate (linting never needs it); nil when the schema needs
	// the engine for every value.
	fast            *fastNode
	fastOnce        sync.Once
	formatsAsserted bool // no $schema: the engine asserts every format
	root            *Node
	nodes           map[string]*Node
	sub             subschemas // see ValidateAt
	secretsOnce     sync.Once  // see hasSecrets
	secrets         bool
	kubeMarked      bool      // Kubernetes option: formats as the apiserver checks them
	kubeObject      bool      // KubernetesObject option: the root is an object's root
	kubeOnce        sync.Once // see kubeOf
	kube            *kubeChecks
}

// Option changes how a schema is read.
type Option func(*config)

type config struct {
	dialect    string
	kubernetes bool
	object     bool
}

// DefaultDialect sets the dialect of a document without $schema, given
// as a $schema URI (the default is
// https://json-schema.org/draft/2020-12/schema; draft-04's
// http://json-schema.org/draft-04/schema# for KUDO's schemas). The URIs
// of draft-04, draft-06, draft-07, 2019-09 and 2020-12 are known, with
// or without the trailing # and in http or https; another gives Parse an
// error of KindSchema.
func DefaultDialect(uri string) Option { return func(c *config) { c.dialect = uri } }

func newConfig(opts []Option) *config {
	c := &config{dialect: draft2020}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Parse reads a JSON Schema from YAML or JSON bytes. Extra root keys that
// KUDO files carry (apiVersion, kind) are accepted. The error, if any, is
// an ErrorList naming every place that is wrong.
//
// {} and true are schemas; a root object none of whose keys is a schema
// keyword of any supported draft (see Keywords; x- and $ keys count too)
// is not, and is refused with an Error of KindNotSchema saying what was
// expected and what was found: a flat map of values, but also a KUDO
// v1beta1 params file, an OperatorVersion, a CRD manifest or a KUDO
// operator.yaml. Parse is for a JSON Schema; convert.LoadSchema is the one
// entry point for a schema from whatever the user has (those files
// included), and lint.ReadPackage reads a KUDO package folder.
func Parse(data []byte, opts ...Option) (*Schema, error) {
	doc, order, err := decodeDocument(data)
	if err != nil {
		return nil, err
	}
	return build(doc, order, newConfig(opts))
}

// FromValue builds a schema from an already decoded document (plain Go
// values with json.Number numbers). Properties come out sorted by name, as
// a map has no order.
// It refuses what Parse refuses, a document that is no schema
// (KindNotSchema) included.
func FromValue(doc any, opts ...Option) (*Schema, error) {
	if err := value.CheckNumbers(doc); err != nil {
		return nil, ErrorList{{Kind: KindUsage, Message: err.Error()}}.Err()
	}
	return build(doc, nil, newConfig(opts))
}

// decodeDocument reads the bytes into plain values and the source order of
// every mapping's keys, keyed by JSON pointer.
func decodeDocument(data []byte) (any, map[string][]string, error) {
	d, err := document.Read(data, document.Options{Order: true})
	if err != nil {
		return nil, nil, ErrorsOf(err).Err()
	}
	if d.Empty {
		return nil, nil, ErrorList{NewError(KindSyntax, "", "the schema document is empty")}.Err()
	}
	return d.Value, d.Order, nil
}

func build(doc any, order map[string][]string, cfg *config) (*Schema, error) {
	s := &Schema{doc: doc, nodes: map[string]*Node{}, kubeMarked: cfg.kubernetes || cfg.object, kubeObject: cfg.object}
	var errs ErrorList
	var draft *jsonschema.Draft
	s.dialect, draft = dialectOf(cfg.dialect)
	if draft == nil {
		return nil, ErrorList{{Kind: KindSchema, Message: fmt.Sprintf("unknown default dialect %q", cfg.dialect)}}.Err()
	}
	if m, ok := doc.(map[string]any); ok {
		if e := notSchema(m); e != nil {
			return nil, ErrorList{e}.Err()
		}
		if v, present := m["$schema"]; present {
			str, _ := v.(string)
			d, dj := dialectOf(str)
			if d == "" {
				return nil, ErrorList{{Pointer: "/$schema", Kind: KindSchema, Message: fmt.Sprintf("unknown dialect %q: use draft-04, draft-06, draft-07, 2019-09 or 2020-12", fmt.Sprint(v))}}.Err()
			}
			s.dialect, draft = d, dj
		}
	} else if _, ok := doc.(bool); !ok {
		return nil, ErrorList{{Kind: KindSchema, Message: fmt.Sprintf("a schema must be an object or a boolean, not %s", typeName(doc))}}.Err()
	}

	// The engine: one compiler per schema, nothing loaded from outside
	// (as 2019-09 where that means the same, see engineShortcut).
	engineDraft, forEngine := engineShortcut(doc, draft)
	engineDoc, err := engineJSON(forEngine)
	if err != nil {
		return nil, ErrorList{{Kind: KindSchema, Message: err.Error()}}.Err()
	}

	// The tree, tolerant of whatever the engine refused, so that every
	// problem is reported at once. It reads only doc and writes only
	// s.root and s.nodes, and the engine works on its own copy of the
	// document, so the tree is built while the engine compiles. A panic
	// in it reaches the caller as before.
	b := &treeBuilder{s: s, order: order, draft: s.dialect}
	treeDone := make(chan any, 1)
	go func() {
		defer func() { treeDone <- recover() }()
		s.root = b.build(doc)
	}()

	compile := func(draft *jsonschema.Draft, engineDoc io.Reader) (*jsonschema.Compiler, *jsonschema.Schema, error, error) {
		c := jsonschema.NewCompiler()
		c.Draft = draft
		c.LoadURL = refuseLoad
		c.RegisterExtension("kudo", kudoMeta, kudoExt{})
		aerr := c.AddResource(baseURL, engineDoc)
		if aerr != nil {
			return c, nil, aerr, nil
		}
		compiled, cerr := c.Compile(baseURL)
		return c, compiled, nil, cerr
	}
	c, compiled, aerr, cerr := compile(engineDraft, engineDoc)
	if engineDraft != draft && (aerr != nil || cerr != nil) {
		// Refused: compiled as written, so that the messages are the
		// engine's for the document's own dialect.
		if engineDoc, err = engineJSON(doc); err != nil {
			return nil, ErrorList{{Kind: KindSchema, Message: err.Error()}}.Err()
		}
		c, compiled, aerr, cerr = compile(draft, engineDoc)
	}
	treePanic := <-treeDone
	if aerr != nil {
		return nil, ErrorList{{Kind: KindSchema, Message: aerr.Error()}}.Err()
	}
	if treePanic != nil {
		panic(treePanic)
	}
	s.compiled = compiled
	if cerr == nil {
		m, isMap := doc.(map[string]any)
		_, hasSchema := m["$schema"]
		s.formatsAsserted = isMap && !hasSchema
	}
	s.sub.compiler = c
	errs = append(errs, sortErrors(b.errs)...)
	if cerr != nil {
		// The engine checks $ref targets only once the document passed its
		// meta-schema, and reports a dangling one as bare text (no error
		// type says so); the tree found the same refused or dangling $refs
		// and knows where each stands.
		var se *jsonschema.SchemaError
		var meta *jsonschema.ValidationError
		metaFailed := errors.As(cerr, &se) && errors.As(se.Err, &meta)
		if len(b.refErrs) > 0 && (errors.Is(cerr, errRefused) || !metaFailed) {
			errs = append(errs, sortErrors(b.refErrs)...)
		} else {
			errs = append(errs, sortErrors(compileErrors(cerr))...)
		}
	}
	if len(errs) > 0 {
		return nil, dedupe(errs).Err()
	}
	return s, nil
}

// sortErrors puts a list in one order on every run: by place in the
// document (line, then column, where known), then by pointer (token by
// token, array indices by number, so /a/9 comes before /a/10), then by
// the failing keyword's pointer, then by message. The engine checks
// properties in map order, and the tree resolves $refs in map order; the
// errors of schema building are sorted source by source (the tree's KUDO
// keywords, its $refs, the engine), which keep that order between them.
func sortErrors(l ErrorList) ErrorList {
	sort.SliceStable(l, func(i, j int) bool { return compareErrors(l[i], l[j]) < 0 })
	return l
}

func compareErrors(a, b *Error) int {
	switch {
	case a == nil || b == nil:
		// A nil entry (a list a caller built) goes last, never a panic.
		return cmp.Compare(boolInt(a == nil), boolInt(b == nil))
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Column, b.Column); c != 0 {
		return c
	}
	if c := comparePointers(a.Pointer, b.Pointer); c != 0 {
		return c
	}
	if c := strings.Compare(keywordOfError(a), keywordOfError(b)); c != 0 {
		return c
	}
	return strings.Compare(a.Message, b.Message)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func keywordOfError(e *Error) string {
	if e.Detail == nil {
		return ""
	}
	return e.Detail.SchemaPointer
}

// comparePointers orders JSON pointers token by token; two tokens of
// digits compare as numbers, and a pointer comes before those below it.
func comparePointers(a, b string) int {
	for a != "" && b != "" {
		ta, ra := nextToken(a)
		tb, rb := nextToken(b)
		if ta != tb {
			if isIndex(ta) && isIndex(tb) && len(ta) != len(tb) {
				return cmp.Compare(len(ta), len(tb))
			}
			return strings.Compare(ta, tb)
		}
		a, b = ra, rb
	}
	return cmp.Compare(len(a), len(b))
}

// nextToken splits "/tok/rest" into "tok" and "/rest" (tokens stay
// escaped: the order of escaped tokens is a fixed order all the same).
func nextToken(p string) (tok, rest string) {
	p = p[1:]
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

func dialectOf(u string) (string, *jsonschema.Draft) {
	norm := strings.TrimSuffix(strings.TrimSuffix(u, "#"), "/")
	norm = strings.TrimPrefix(strings.TrimPrefix(norm, "https://"), "http://")
	switch norm {
	case "json-schema.org/draft-04/schema":
		return draft4, jsonschema.Draft4
	case "json-schema.org/draft-06/schema":
		return draft6, jsonschema.Draft6
	case "json-schema.org/draft-07/schema":
		return draft7, jsonschema.Draft7
	case "json-schema.org/draft/2019-09/schema":
		return draft2019, jsonschema.Draft2019
	case "json-schema.org/draft/2020-12/schema", "json-schema.org/schema":
		return draft2020, jsonschema.Draft2020
	}
	return "", nil
}

// compileErrors turns the engine's compile error into located errors.
func compileErrors(err error) ErrorList {
	var se *jsonschema.SchemaError
	if errors.As(err, &se) {
		var ve *jsonschema.ValidationError
		if errors.As(se.Err, &ve) {
			// One message per place: the first leaf is the most direct
			// (the others explain alternative forms of the meta-schema).
			var out ErrorList
			seen := map[string]bool{}
			for _, leaf := range leaves(ve) {
				at := enginePointer(leaf.InstanceLocation)
				if seen[at] {
					continue
				}
				seen[at] = true
				out = append(out, &Error{Pointer: at, Kind: KindSchema, Message: "invalid keyword value: " + requote(leaf.Message)})
			}
			return out
		}
		return ErrorList{{Pointer: pointerOf(se.SchemaURL), Kind: KindSchema, Message: cleanEngineMsg(se.Err.Error())}}
	}
	if errors.Is(err, errRefused) {
		return ErrorList{{Kind: KindRefused, Message: cleanEngineMsg(err.Error()), wrapped: errRefused}}
	}
	return ErrorList{{Kind: KindSchema, Message: err.Error()}}
}

// pointerOf is the JSON pointer in the fragment of a URL the engine
// gives.
func pointerOf(url string) string {
	if i := strings.IndexByte(url, '#'); i >= 0 {
		return enginePointer(url[i+1:])
	}
	return ""
}

func cleanEngineMsg(s string) string {
	return strings.TrimPrefix(strings.ReplaceAll(s, baseURL, "schema"), "jsonschema: ")
}

func dedupe(l ErrorList) ErrorList {
	seen := make(map[string]bool, len(l))
	out := make(ErrorList, 0, len(l))
	for _, e := range l {
		k := e.Pointer + "\x00" + e.Message
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// kudoExt registers the KUDO keywords with the engine. They are
// annotations: the meta-schema checks their values; they never fail an
// instance.
type kudoExt struct{}

func (kudoExt) Compile(jsonschema.CompilerContext, map[string]any) (jsonschema.ExtSchema, error) {
	return nil, nil
}

// errNotCompiled is the failure of every check of a nil or zero Schema:
// only Parse and FromValue make one that can be used.
func errNotCompiled() *Error {
	return &Error{Kind: KindUsage, Message: "the schema is nil or was not made by schema.Parse or FromValue"}
}

// compiledOK reports whether s was made by Parse or FromValue.
// A nil or zero Schema has no node and validates nothing: its checks fail
// with a KindUsage error, its readers return zero values.
func (s *Schema) compiledOK() bool { return s != nil && s.compiled != nil }

// Dialect returns the schema's dialect as its $schema URI, in the one
// spelling paramkit gives each draft: http://json-schema.org/draft-04/schema#,
// http://json-schema.org/draft-06/schema#, http://json-schema.org/draft-07/schema#,
// https://json-schema.org/draft/2019-09/schema or
// https://json-schema.org/draft/2020-12/schema ("" for a nil or zero
// Schema).
func (s *Schema) Dialect() string {
	if s == nil {
		return ""
	}
	return s.dialect
}

// Root returns the root node (nil for a nil or zero Schema).
func (s *Schema) Root() *Node {
	if s == nil {
		return nil
	}
	return s.root
}

// Document returns the schema document as plain values: a copy of the
// caller's own, so that changing it changes nothing in the Schema.
func (s *Schema) Document() any {
	if s == nil {
		return nil
	}
	return value.DeepCopy(s.doc)
}

// NodeAt returns the node at a JSON pointer into the schema document, or nil.
func (s *Schema) NodeAt(schemaPointer string) *Node {
	if s == nil {
		return nil
	}
	return s.nodes[schemaPointer]
}

// Walk visits every node of the tree reachable through properties and the
// other subschema keywords, parents before children, in source order. It
// stops descending below a node when fn returns false. $ref targets are
// visited where they are defined, not at each use.
func (s *Schema) Walk(fn func(*Node) bool) {
	var walk func(n *Node)
	walk = func(n *Node) {
		if n == nil || !fn(n) {
			return
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	walk(s.Root())
}

func typeName(v any) string { return value.Describe(v, "an array", "an object") }
