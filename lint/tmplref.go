package lint

import (
	"strings"
	"text/template/parse"

	"github.com/paramkit/paramkit/schema"
)

// templateRef is one reference a template makes to a parameter.
type templateRef struct {
	// Path is the parameter's path below .Params: ["backup", "enabled"]
	// for .Params.backup.enabled; "*" stands for any element where the
	// template ranges over a list or map.
	Path []string
	// Line is the 1-based line of the reference in the template.
	Line int
}

// templateRefs lists the parameters a Go template (KUDO's template
// language) refers to, in the ways templates refer to them:
// .Params.X.Y and $.Params.X, index .Params "X" "Y", inside range and with
// (where the dot becomes a parameter or its elements), through variables
// ($v := .Params.X) and in pipelines. whole is true when the template uses
// .Params as a whole (toYaml .Params, range .Params), so that any
// parameter may be used. The error is the template's parse error; unknown
// functions are allowed (KUDO adds sprig's).
func templateRefs(name, text string) (refs []templateRef, whole bool, err error) {
	trees, err := parseTemplate(name, text)
	if err != nil {
		return nil, false, schema.NewError(schema.KindSyntax, "", "%v", err)
	}
	w := &refWalker{text: text}
	for _, t := range trees {
		w.tree = t
		w.vars = []map[string]ctxPath{{"$": rootPath()}}
		w.list(t.Root, rootPath())
	}
	return w.refs, w.whole, nil
}

// parseTemplate parses the text and every template it defines; it never
// panics.
func parseTemplate(name, text string) (trees []*parse.Tree, err error) {
	defer func() {
		if v := recover(); v != nil {
			trees, err = nil, &parseError{msg: "the template cannot be parsed"}
		}
	}()
	set := map[string]*parse.Tree{}
	t := parse.New(name)
	t.Mode = parse.SkipFuncCheck | parse.ParseComments
	if _, err := t.Parse(text, "", "", set); err != nil {
		return nil, err
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sortStrings(names)
	for _, n := range names {
		trees = append(trees, set[n])
	}
	if len(trees) == 0 {
		trees = append(trees, t)
	}
	return trees, nil
}

type parseError struct{ msg string }

func (e *parseError) Error() string { return e.msg }

// ctxPath is what a value in a template stands for: the template's data
// (root), a parameter path below .Params (params), or something else.
type ctxPath struct {
	kind int // 0 unknown, 1 root, 2 params
	path []string
}

func rootPath() ctxPath { return ctxPath{kind: 1} }

func (c ctxPath) field(names ...string) ctxPath {
	switch c.kind {
	case 1:
		if len(names) == 0 {
			return c
		}
		if names[0] != "Params" {
			return ctxPath{}
		}
		return ctxPath{kind: 2, path: append([]string(nil), names[1:]...)}
	case 2:
		return ctxPath{kind: 2, path: append(append([]string(nil), c.path...), names...)}
	}
	return ctxPath{}
}

type refWalker struct {
	text  string
	tree  *parse.Tree
	vars  []map[string]ctxPath
	refs  []templateRef
	whole bool
	// inWith is set while the pipeline of a with is read.
	inWith bool
}

func (w *refWalker) line(n parse.Node) int {
	pos := int(n.Position())
	if pos < 0 || pos > len(w.text) {
		return 0
	}
	return 1 + strings.Count(w.text[:pos], "\n")
}

// use records a use of a value standing for a parameter path.
func (w *refWalker) use(c ctxPath, n parse.Node) {
	if c.kind != 2 {
		return
	}
	if len(c.path) == 0 {
		w.whole = w.whole || !w.inWith
		return
	}
	w.refs = append(w.refs, templateRef{Path: c.path, Line: w.line(n)})
}

func (w *refWalker) lookup(name string) ctxPath {
	for i := len(w.vars) - 1; i >= 0; i-- {
		if c, ok := w.vars[i][name]; ok {
			return c
		}
	}
	return ctxPath{}
}

func (w *refWalker) list(l *parse.ListNode, dot ctxPath) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		w.node(n, dot)
	}
}

func (w *refWalker) scoped(l *parse.ListNode, dot ctxPath, decl map[string]ctxPath) {
	if l == nil {
		return
	}
	w.vars = append(w.vars, decl)
	w.list(l, dot)
	w.vars = w.vars[:len(w.vars)-1]
}

func (w *refWalker) node(n parse.Node, dot ctxPath) {
	switch n := n.(type) {
	case *parse.ActionNode:
		w.pipe(n.Pipe, dot)
	case *parse.IfNode:
		w.pipe(n.Pipe, dot)
		w.scoped(n.List, dot, map[string]ctxPath{})
		w.scoped(n.ElseList, dot, map[string]ctxPath{})
	case *parse.WithNode:
		// with .Params only moves the dot: not a use of every parameter.
		w.inWith = true
		v := w.pipe(n.Pipe, dot)
		w.inWith = false
		w.scoped(n.List, v, map[string]ctxPath{})
		w.scoped(n.ElseList, dot, map[string]ctxPath{})
	case *parse.RangeNode:
		decl := map[string]ctxPath{}
		v := w.rangePipe(n.Pipe, dot)
		elem := ctxPath{}
		if v.kind == 2 {
			elem = ctxPath{kind: 2, path: append(append([]string(nil), v.path...), "*")}
			if len(v.path) == 0 {
				// range .Params: every parameter by name.
				elem = ctxPath{}
			}
		}
		if n.Pipe != nil {
			switch len(n.Pipe.Decl) {
			case 1:
				decl[n.Pipe.Decl[0].Ident[0]] = elem
			case 2:
				decl[n.Pipe.Decl[1].Ident[0]] = elem
			}
		}
		w.scoped(n.List, elem, decl)
		w.scoped(n.ElseList, dot, map[string]ctxPath{})
	case *parse.TemplateNode:
		if n.Pipe != nil {
			w.pipe(n.Pipe, dot)
		}
	case *parse.ListNode:
		w.list(n, dot)
	}
}

// pipe records the references of a pipeline and returns what its value
// stands for (a parameter when the pipeline is one), binding its
// declared variables to that value.
func (w *refWalker) pipe(p *parse.PipeNode, dot ctxPath) ctxPath {
	last := w.pipeValue(p, dot)
	if p == nil {
		return last
	}
	for _, d := range p.Decl {
		if len(w.vars) > 0 && len(d.Ident) > 0 {
			w.vars[len(w.vars)-1][d.Ident[0]] = last
		}
	}
	return last
}

// rangePipe is pipe for the pipeline of a range, which binds its
// declared variables to the elements, not to the value (the caller
// does), and reads every parameter when it ranges over .Params.
func (w *refWalker) rangePipe(p *parse.PipeNode, dot ctxPath) ctxPath {
	last := w.pipeValue(p, dot)
	if last.kind == 2 && len(last.path) == 0 {
		// The loop reads every parameter (range .Params).
		w.whole = true
	}
	return last
}

// pipeValue records the references of a pipeline's commands and returns
// what its value stands for.
func (w *refWalker) pipeValue(p *parse.PipeNode, dot ctxPath) ctxPath {
	if p == nil {
		return ctxPath{}
	}
	var last ctxPath
	for _, c := range p.Cmds {
		last = w.command(c, dot)
	}
	if len(p.Cmds) > 1 {
		// Only a pipeline of one command keeps its operand's meaning.
		last = ctxPath{}
	}
	return last
}

// command records the references of one command; its value stands for
// a parameter when the command is a single operand, or index on one.
func (w *refWalker) command(c *parse.CommandNode, dot ctxPath) ctxPath {
	if c == nil || len(c.Args) == 0 {
		return ctxPath{}
	}
	if id, ok := c.Args[0].(*parse.IdentifierNode); ok && id.Ident == "index" && len(c.Args) >= 2 {
		base := w.operand(c.Args[1], dot)
		keys := []string{}
		for _, a := range c.Args[2:] {
			switch a := a.(type) {
			case *parse.StringNode:
				keys = append(keys, a.Text)
			case *parse.NumberNode:
				keys = append(keys, "*")
			default:
				w.operand(a, dot)
				keys = append(keys, "*")
			}
		}
		if base.kind == 2 && len(base.path) == 0 && len(keys) > 0 && keys[0] == "*" {
			// index .Params $name: any parameter.
			w.whole = true
			return ctxPath{}
		}
		v := base
		if base.kind == 2 {
			v = base.field(keys...)
		}
		w.use(v, c)
		return v
	}
	if len(c.Args) == 1 {
		v := w.operand(c.Args[0], dot)
		w.use(v, c.Args[0])
		return v
	}
	for _, a := range c.Args {
		w.use(w.operand(a, dot), a)
	}
	return ctxPath{}
}

// operand returns what an operand stands for; the references of nested
// pipelines are recorded on the way.
func (w *refWalker) operand(n parse.Node, dot ctxPath) ctxPath {
	switch n := n.(type) {
	case *parse.FieldNode:
		return dot.field(n.Ident...)
	case *parse.DotNode:
		return dot
	case *parse.VariableNode:
		if len(n.Ident) == 0 {
			return ctxPath{}
		}
		return w.lookup(n.Ident[0]).field(n.Ident[1:]...)
	case *parse.ChainNode:
		base := w.operand(n.Node, dot)
		if base.kind == 0 {
			return ctxPath{}
		}
		return base.field(n.Field...)
	case *parse.PipeNode:
		v := w.pipe(n, dot)
		return v
	}
	return ctxPath{}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
