package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/schema/edit"
)

type addParamOptions struct {
	schema      string
	path        string
	typ         string
	title       string
	description string
	def         string
	hasDefault  bool
	required    bool
	trigger     string
	immutable   bool
	enum        multiFlag
	interactive bool
	dryRun      bool
	force       bool
}

func init() {
	register(&command{
		name:  "add-param",
		usage: "--schema FILE --path PATH --type TYPE [--default VALUE] [--title TEXT] [--description TEXT] [--enum VALUE]... [--required] [--trigger PLAN] [--immutable] [--dry-run] [--force] | --schema FILE --interactive [--force]",
		short: "add a parameter to a schema file, keeping its order, comments and layout",
		setup: func(fs *flag.FlagSet) any {
			o := &addParamOptions{}
			fs.StringVar(&o.schema, "schema", "", "the schema `FILE` to edit in place (- reads standard input and writes standard output)")
			fs.StringVar(&o.path, "path", "", "where the parameter goes, its `PATH`: a JSON pointer into the values (/backup/retentionDays) or a dotted path (backup.retentionDays)")
			fs.StringVar(&o.typ, "type", "", "JSON Schema `TYPE`: string, integer, number, boolean, object, array or null")
			fs.StringVar(&o.title, "title", "", "a user-friendly label (`TEXT`)")
			fs.StringVar(&o.description, "description", "", "what the parameter does (`TEXT`)")
			fs.Func("default", "the default `VALUE`, as text typed by --type", func(s string) error {
				o.def, o.hasDefault = s, true
				return nil
			})
			fs.BoolVar(&o.required, "required", false, "the parameter must be given")
			fs.StringVar(&o.trigger, "trigger", "", "the `PLAN` a change triggers (must match a trigger above it)")
			fs.BoolVar(&o.immutable, "immutable", false, "the parameter cannot change after installation")
			fs.Var(&o.enum, "enum", "an allowed `VALUE`, typed by --type (repeatable)")
			fs.BoolVar(&o.interactive, "interactive", false, "ask for each field, with the flags as defaults")
			fs.BoolVar(&o.force, "force", false, "replace the schema file even when it is read-only, or its owner cannot be kept")
			fs.BoolVar(&o.dryRun, "dry-run", false, "print the updated schema instead of writing the file")
			return o
		},
		run: runAddParam,
	})
}

func runAddParam(e *env, opts any, args []string) int {
	o := opts.(*addParamOptions)
	if len(args) > 0 {
		return e.fail(exitUsage, "add-param takes no arguments (got %q)\nusage: paramctl add-param %s", args[0], commands["add-param"].usage)
	}
	if o.schema == "" {
		return e.fail(exitUsage, "add-param needs --schema\nusage: paramctl add-param %s", commands["add-param"].usage)
	}
	if o.interactive && o.schema == "-" {
		return e.fail(exitUsage, "--interactive reads the answers from standard input, so --schema cannot be -")
	}
	src, err := e.readInput(o.schema)
	if err == nil {
		err = checkJSONFile(o.schema, src)
	}
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if why := notAPlainSchema(src); why != "" {
		return e.fail(exitUsage, "%s: %s", o.schema, why)
	}
	var pr *prompter
	if o.interactive {
		// The wizard reads the schema to offer what is there; without it,
		// AddProperty's own reading says whether the schema is usable (a
		// compile of a wide schema costs as much as the edit).
		s, err := schema.Parse(src)
		if err != nil {
			return e.failSchema(o.schema, err)
		}
		pr = &prompter{e: e, in: bufio.NewReader(e.stdin)}
		if err := askParam(pr, s, o); err != nil {
			return e.fail(exitUsage, "%v", err)
		}
	}
	if o.path == "" || o.typ == "" {
		return e.fail(exitUsage, "add-param needs --path and --type (or --interactive)\nusage: paramctl add-param %s", commands["add-param"].usage)
	}
	if !slices.Contains(addParamTypes, o.typ) {
		return e.fail(exitUsage, "--type %q is not a JSON Schema type: use one of %s", o.typ, strings.Join(addParamTypes, ", "))
	}
	at, err := parseParamPath(o.path)
	if err != nil {
		return e.fail(exitUsage, "--path: %v", err)
	}
	spec, err := o.spec()
	if err != nil {
		return e.fail(exitInvalid, "%s: %v", at, err)
	}
	out, err := edit.AddProperty(src, at, spec)
	if l := schema.ErrorsOf(err); len(l) > 0 && unusableSchema(l[0].Kind) {
		return e.failSchema(o.schema, err) // schema.Parse's list: no usable schema
	}
	if err != nil {
		return e.fail(exitInvalid, "%v", err)
	}
	if o.interactive && !o.dryRun {
		ok, err := pr.yesNo(fmt.Sprintf("Write %s to %s?", at, o.schema), true)
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		if !ok {
			fmt.Fprintln(e.stderr, "nothing written")
			return exitOK
		}
	}
	if o.dryRun || o.schema == "-" {
		e.stdout.Write(out)
		return exitOK
	}
	if err := writeFileAtomic(o.schema, out, e.writeOptions(o.force)...); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if o.interactive {
		fmt.Fprintf(e.stderr, "added %s to %s\n", at, o.schema)
	}
	return exitOK
}

// notAPlainSchema says why add-param cannot edit a document in place: a
// v1beta1 params.yaml or OperatorVersion (convert it first), or a schema
// inside an OperatorVersion manifest. "" for a plain v1beta2 schema.
func notAPlainSchema(src []byte) string {
	c, err := convert.FromV1beta1(src)
	if err != nil {
		return "" // schema.Parse says what is wrong
	}
	if c.Changed {
		return "a v1beta1 parameter file: convert it to a v1beta2 schema first (paramctl convert), then add the parameter there"
	}
	if m, ok := c.Document.(map[string]any); ok && m["kind"] == "OperatorVersion" {
		return "an OperatorVersion manifest: add-param edits the schema file the operator package ships (params.yaml), not the manifest"
	}
	return ""
}

// unusableSchema reports whether an error of edit.AddProperty of this
// kind is schema.Parse's: the file is no usable schema.
func unusableSchema(k schema.Kind) bool {
	switch k {
	case schema.KindSyntax, schema.KindLimit, schema.KindSchema, schema.KindNotSchema, schema.KindRefused:
		return true
	}
	return false
}

// failSchema prints why a schema cannot be edited; 2: it is unusable.
func (e *env) failSchema(path string, err error) int {
	var list schema.ErrorList
	if asList(err, &list) {
		for _, le := range list {
			fmt.Fprintf(e.stderr, "%s: %s\n", path, le.Error())
		}
		return exitUsage
	}
	return e.fail(exitUsage, "%s: %v", path, err)
}

// spec turns the options into a property spec, typing the default and
// the enum values by the type.
// addParamTypes are the values --type takes.
var addParamTypes = []string{"string", "integer", "number", "boolean", "object", "array", "null"}

func (o *addParamOptions) spec() (edit.Property, error) {
	p := edit.Property{
		Type: o.typ, Title: o.title, Description: o.description,
		Required: o.required, Trigger: o.trigger, Immutable: o.immutable,
	}
	node, err := typeNode(o.typ)
	if err != nil {
		return p, err
	}
	if o.hasDefault {
		if p.Default, err = params.ParseText(node, o.def); err != nil {
			return p, fmt.Errorf("--default: %v", err)
		}
		p.HasDefault = true
	}
	for _, t := range o.enum {
		v, err := params.ParseText(node, t)
		if err != nil {
			return p, fmt.Errorf("--enum %q: %v", t, err)
		}
		p.Enum = append(p.Enum, v)
	}
	return p, nil
}

// checkDefault checks the default text against the type and the enum.
func (o *addParamOptions) checkDefault() error {
	p, err := o.spec()
	if err != nil || !p.HasDefault {
		return err
	}
	doc := map[string]any{"type": p.Type}
	if len(p.Enum) > 0 {
		doc["enum"] = p.Enum
	}
	return checkValue(doc, p.Default, "default", o.def)
}

// checkEnum checks each allowed value against the type, then the default
// against the allowed values.
func (o *addParamOptions) checkEnum() error {
	p, err := o.spec()
	if err != nil {
		return err
	}
	for i, v := range p.Enum {
		if err := checkValue(map[string]any{"type": p.Type}, v, "allowed value", o.enum[i]); err != nil {
			return err
		}
	}
	return o.checkDefault()
}

// checkValue validates v against the schema doc; the error names what v
// is and the text it was typed from.
func checkValue(doc map[string]any, v any, what, text string) error {
	s, err := schema.FromValue(doc)
	if err != nil {
		return err
	}
	if err := s.Validate(v); err != nil {
		var ve schema.ErrorList
		if asList(err, &ve) && len(ve) > 0 {
			return fmt.Errorf("%s %q: %s", what, text, ve[0].Message)
		}
		return err
	}
	return nil
}

// typeNode returns a schema node of one type, to type text values by.
func typeNode(typ string) (*schema.Node, error) {
	s, err := schema.FromValue(map[string]any{"type": typ})
	if err != nil {
		return nil, fmt.Errorf("type %q is not a JSON Schema type (use string, integer, number, boolean, object, array or null)", typ)
	}
	return s.Root(), nil
}

// parseParamPath reads a path in the forms of -p keys and returns it as
// a JSON pointer: a JSON pointer when it holds a "/" (the leading /
// optional, ~0 and ~1 the only escapes), else a dotted path in which \.
// is a literal dot (\\, \[ and \] a backslash and brackets) and a name
// may be followed by Helm's indexes, name[i]. (paramctl's own copy of the
// KEY forms params.Update reads in Set.)
func parseParamPath(p string) (string, error) {
	if p == "" {
		return "", fmt.Errorf("empty path")
	}
	if strings.Contains(p, "/") {
		if p[0] != '/' {
			p = "/" + p
		}
		for i := 0; i < len(p); i++ {
			if p[i] == '~' && (i+1 == len(p) || p[i+1] != '0' && p[i+1] != '1') {
				return "", fmt.Errorf("JSON pointer %q: invalid escape at %q (want ~0 or ~1)", p, p[i:])
			}
		}
		return p, nil
	}
	var toks []string
	var b strings.Builder
	indexed := false // after a name's first [i]: only [i], a dot or the end
	for i := 0; i < len(p); i++ {
		c := p[i]
		if indexed && c != '[' && c != '.' {
			return "", fmt.Errorf("dotted path %q: %q after an index: write `\\[` for a literal bracket", p, p[i:])
		}
		switch {
		case c == '\\' && i+1 < len(p) && strings.IndexByte(`.\[]`, p[i+1]) >= 0:
			b.WriteByte(p[i+1])
			i++
		case c == '.':
			if !indexed {
				toks = append(toks, b.String())
			}
			b.Reset()
			indexed = false
		case c == '[':
			if !indexed {
				if b.Len() == 0 {
					return "", fmt.Errorf("dotted path %q: an index needs a name before it (name[i])", p)
				}
				toks = append(toks, b.String())
				b.Reset()
			}
			end := strings.IndexByte(p[i:], ']')
			if end < 0 {
				return "", fmt.Errorf("dotted path %q: %q has no closing ]", p, p[i:])
			}
			n, err := strconv.Atoi(p[i+1 : i+end])
			if err != nil || n < 0 || n > 65536 || strings.ContainsAny(p[i+1:i+end], "+-") {
				return "", fmt.Errorf("dotted path %q: %q is no index", p, p[i:i+end+1])
			}
			toks = append(toks, strconv.Itoa(n))
			indexed = true
			i += end
		default:
			b.WriteByte(c)
		}
	}
	if !indexed {
		toks = append(toks, b.String())
	}
	var ptr strings.Builder
	for _, t := range toks {
		if t == "" {
			return "", fmt.Errorf("dotted path %q has an empty name (write a JSON pointer, such as /a//b, for an empty key)", p)
		}
		ptr.WriteByte('/')
		ptr.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return ptr.String(), nil
}

// The wizard: KEP-33's `kudo package add parameter`, one question a line
// on standard error, answers read line by line from standard input. An
// empty answer takes the value in brackets.

type prompter struct {
	e  *env
	in *bufio.Reader
}

var errNoAnswer = errors.New("no answer (standard input ended)")

func (pr *prompter) ask(question, def string) (string, error) {
	if def != "" {
		fmt.Fprintf(pr.e.stderr, "%s [%s]: ", question, def)
	} else {
		fmt.Fprintf(pr.e.stderr, "%s: ", question)
	}
	line, err := pr.in.ReadString('\n')
	if err != nil && (err != io.EOF || line == "") {
		fmt.Fprintln(pr.e.stderr)
		return "", errNoAnswer
	}
	line = strings.TrimRight(line, "\r\n")
	if strings.TrimSpace(line) == "" {
		return def, nil
	}
	return strings.TrimSpace(line), nil
}

func (pr *prompter) yesNo(question string, def bool) (bool, error) {
	hint := "y/N"
	if def {
		hint = "Y/n"
	}
	for {
		a, err := pr.ask(question+" ("+hint+")", "")
		if err != nil {
			return false, err
		}
		switch strings.ToLower(a) {
		case "":
			return def, nil
		case "y", "yes":
			return true, nil
		case "n", "no":
			return false, nil
		}
		fmt.Fprintln(pr.e.stderr, "  please answer y or n")
	}
}

// askParam asks for each field, offering the flags (or sensible guesses)
// as defaults, and checks each answer before the next question.
func askParam(pr *prompter, s *schema.Schema, o *addParamOptions) error {
	e := pr.e
	fmt.Fprintln(e.stderr, "Add a parameter (press Enter to take the value in brackets).")
	for {
		a, err := pr.ask("Path (a JSON pointer such as /backup/retentionDays, or backup.retentionDays)", o.path)
		if err != nil {
			return err
		}
		at, err := parseParamPath(a)
		if err == nil && declared(s, at) {
			err = fmt.Errorf("%s already exists", at)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "  %v\n", err)
			o.path = ""
			continue
		}
		o.path = a
		break
	}
	at, _ := parseParamPath(o.path)
	toks := tokens(at)
	name := toks[len(toks)-1]
	if o.typ == "" {
		o.typ = "string"
	}
	for {
		a, err := pr.ask("Type (string, integer, number, boolean, object, array)", o.typ)
		if err != nil {
			return err
		}
		if _, err := typeNode(a); err != nil {
			fmt.Fprintf(e.stderr, "  %v\n", err)
			continue
		}
		o.typ = a
		break
	}
	if o.title == "" {
		o.title = titleFromName(name)
	}
	var err error
	if o.title, err = pr.ask("Title", o.title); err != nil {
		return err
	}
	if o.description, err = pr.ask("Description", o.description); err != nil {
		return err
	}
	for {
		def := o.def
		if !o.hasDefault {
			def = ""
		}
		a, err := pr.ask("Default (empty for none)", def)
		if err != nil {
			return err
		}
		o.def, o.hasDefault = a, a != ""
		if err := o.checkDefault(); err != nil {
			fmt.Fprintf(e.stderr, "  %v\n", err)
			continue
		}
		break
	}
	for {
		a, err := pr.ask("Allowed values, comma-separated (empty for any)", strings.Join(o.enum, ","))
		if err != nil {
			return err
		}
		o.enum = nil
		for _, v := range strings.Split(a, ",") {
			if v = strings.TrimSpace(v); v != "" {
				o.enum = append(o.enum, v)
			}
		}
		if err := o.checkEnum(); err != nil {
			fmt.Fprintf(e.stderr, "  %v\n", err)
			o.enum = nil // asked again with nothing offered: Enter means any
			continue
		}
		break
	}
	if o.required, err = pr.yesNo("Required", o.required); err != nil {
		return err
	}
	inherited := inheritedPlan(s, toks[:len(toks)-1])
	trig := o.trigger
	if trig == "" {
		trig = inherited
	}
	if o.trigger, err = pr.ask("Trigger (the plan a change runs)", trig); err != nil {
		return err
	}
	if o.trigger == inherited {
		o.trigger = "" // inherited: no need to repeat it
	}
	if o.immutable, err = pr.yesNo("Immutable after installation", o.immutable); err != nil {
		return err
	}
	return nil
}

// declared reports whether the schema declares a property at a values
// pointer, through properties all the way.
func declared(s *schema.Schema, at string) bool {
	toks := tokens(at)
	if len(toks) == 0 {
		return false
	}
	n := s.Root()
	for _, t := range toks {
		var next *schema.Node
		for _, m := range n.Scope() {
			if next = m.Property(t); next != nil {
				break
			}
		}
		if next == nil {
			return false
		}
		n = next
	}
	return true
}

// inheritedPlan returns the plan a new parameter under the given parent
// path would inherit: the nearest trigger above, else deploy.
func inheritedPlan(s *schema.Schema, parent []string) string {
	plan := ""
	n := s.Root()
	check := func(n *schema.Node) {
		for _, m := range n.Scope() {
			if m.Trigger() != "" {
				plan = m.Trigger()
				return
			}
		}
	}
	check(n)
	for _, t := range parent {
		if n = n.Child(t); n == nil {
			break
		}
		check(n)
	}
	if plan == "" {
		return "deploy"
	}
	return plan
}

// titleFromName suggests a sentence-case title: retentionDays gives
// "Retention days", BACKUP_ENABLED "Backup enabled".
func titleFromName(name string) string {
	var words []string
	var cur []rune
	rs := []rune(name)
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = nil
		}
	}
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			flush()
			continue
		case i > 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	for i, w := range words {
		if len(w) > 1 && strings.ToUpper(w) == w && strings.ContainsFunc(name, unicode.IsLower) {
			continue // an acronym inside a camelCase name
		}
		w = strings.ToLower(w)
		if i == 0 {
			r := []rune(w)
			r[0] = unicode.ToUpper(r[0])
			w = string(r)
		}
		words[i] = w
	}
	return strings.Join(words, " ")
}
