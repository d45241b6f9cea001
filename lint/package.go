package lint

import (
	"errors"
	"fmt"
	"github.com/paramkit/paramkit/internal/fileread"
	"io/fs"
	"regexp"
	"sort"
	"strings"

	"github.com/paramkit/paramkit/internal/kudoparams"
	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/schema"
)

// Package is a KUDO operator package as data: what Package.Lint checks
// the parameters against. ReadPackage reads one from a folder.
type Package struct {
	// ParamsFile is the params file's path relative to the package
	// folder ("params.yaml"); findings about it carry it as File.
	ParamsFile string
	// Params is the params file: a v1beta1 list, KUDO's first format (a
	// map from name to parameter) or a v1beta2 schema.
	Params []byte
	// OperatorFile is the operator file's path ("operator.yaml"), "" when
	// the package has none.
	OperatorFile string
	// Plans are the plans the operator declares; nil when not known (no
	// operator file), which turns the plan check off.
	Plans []string
	// toggles are the parameters the operator's Toggle tasks read (a
	// use of the parameter that no template shows).
	toggles []toggle
	// Templates maps each template's path relative to the folder
	// ("templates/statefulset.yaml") to its text.
	Templates map[string][]byte
}

// toggle is a task of the operator that a parameter switches on and off
// (KUDO's toggle task, spec.parameter).
type toggle struct {
	// Task is the task's name; Parameter the parameter it reads.
	Task, Parameter string
	// Line is the line of spec.parameter in the operator file, 0 when
	// not known.
	Line int
}

// errNotPackage is ReadPackage's error (wrapped in a *schema.Error of
// kind schema.KindIO) for a folder without params.yaml or operator.yaml:
// errors.Is(err, fs.ErrNotExist) tells it.
var errNotPackage = notFound("not a KUDO package folder: it holds neither params.yaml nor operator.yaml")

// notFound is a missing file a reader needs: its message, and
// fs.ErrNotExist for errors.Is.
type notFound string

func (e notFound) Error() string { return string(e) }
func (notFound) Unwrap() error   { return fs.ErrNotExist }

// ReadPackage reads a KUDO package folder: params.yaml, operator.yaml (for
// its plans) and every file below templates/. A folder with an
// operator.yaml but no params.yaml has no parameters (as for
// convert.ReadSchema, which reads only the schema of a folder). A folder
// with neither is an error of kind schema.KindIO for which
// errors.Is(err, fs.ErrNotExist) holds.
func ReadPackage(fsys fs.FS) (*Package, error) {
	if fsys == nil {
		return nil, schema.NewError(schema.KindUsage, "", "lint: ReadPackage needs a file system")
	}
	p := &Package{ParamsFile: kudoparams.ParamsFile, Templates: map[string][]byte{}}
	params, perr := fileread.ReadFS(fsys, kudoparams.ParamsFile, fileread.Limit, false)
	op, oerr := fileread.ReadFS(fsys, kudoparams.OperatorFile, fileread.Limit, false)
	if perr != nil && oerr != nil {
		if !errors.Is(perr, fs.ErrNotExist) {
			return nil, ioError(perr)
		}
		if !errors.Is(oerr, fs.ErrNotExist) {
			return nil, ioError(oerr)
		}
		return nil, ioError(errNotPackage)
	}
	if perr == nil {
		p.Params = params
	} else if !errors.Is(perr, fs.ErrNotExist) {
		return nil, ioError(perr)
	} else {
		p.Params = kudoparams.NoParameters()
	}
	if oerr == nil {
		p.OperatorFile = kudoparams.OperatorFile
		plans, err := operatorPlans(op)
		if err != nil {
			return nil, schema.ErrorIn(kudoparams.OperatorFile, err)
		}
		p.Plans = plans
		p.toggles = operatorToggles(op)
	}
	err := fs.WalkDir(fsys, "templates", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && name == "templates" {
				return fs.SkipDir
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		data, err := fileread.ReadFS(fsys, name, fileread.Limit, false)
		if err != nil {
			return err
		}
		p.Templates[name] = data
		return nil
	})
	if err != nil {
		return nil, ioError(err)
	}
	return p, nil
}

// ioError is a folder or file that cannot be read (schema.KindIO),
// wrapping the error that says why.
func ioError(err error) *schema.Error { return schema.NewError(schema.KindIO, "", "%w", err) }

// operatorPlans returns the names of the plans a KUDO operator.yaml (or
// an OperatorVersion manifest) declares, sorted. The error is for a file
// that cannot be read or is no operator file.
func operatorPlans(data []byte) ([]string, error) {
	doc, _, err := decode(data)
	if err != nil {
		return nil, err
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, schema.NewError(schema.KindNotSchema, "", "expected a KUDO operator file (a mapping with plans)")
	}
	if spec, ok := m["spec"].(map[string]any); ok && m["kind"] == "OperatorVersion" {
		m = spec
	}
	plans, ok := m["plans"].(map[string]any)
	if !ok {
		if _, has := m["plans"]; has {
			return nil, schema.NewError(schema.KindType, "/plans", "expected a mapping from plan name to plan")
		}
		return []string{}, nil
	}
	out := make([]string, 0, len(plans))
	for k := range plans {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, nil
}

// operatorToggles returns the Toggle tasks of a KUDO operator.yaml, in
// file order, each with the parameter it reads and its line.
func operatorToggles(data []byte) []toggle {
	doc, _, err := decode(data)
	if err != nil {
		return nil
	}
	m, _ := doc.(map[string]any)
	tasks, _ := m["tasks"].([]any)
	var out []toggle
	for i, t := range tasks {
		tm, _ := t.(map[string]any)
		if kind, _ := tm["kind"].(string); kind != "Toggle" {
			continue
		}
		spec, _ := tm["spec"].(map[string]any)
		param, _ := spec["parameter"].(string)
		if param == "" {
			continue
		}
		name, _ := tm["name"].(string)
		fs := []Finding{{Pointer: pointer.Join("tasks", fmt.Sprint(i), "spec", "parameter")}}
		locate(data, fs)
		out = append(out, toggle{Task: name, Parameter: param, Line: fs[0].Line})
	}
	return out
}

// isOperatorFile reports whether data looks like a KUDO operator.yaml.
func isOperatorFile(data []byte) bool {
	doc, _, err := decode(data)
	return err == nil && kudoparams.IsOperatorFile(doc)
}

// pkgInfo is what the package rules see of a package.
type pkgInfo struct {
	pkg        *Package
	refs       map[string][]templateRef // by template path
	whole      bool                     // some template uses .Params as a whole
	parseErrs  map[string]error
	templates  []string // sorted
	paramsFile string
}

// Lint lints a KUDO package: its params file with the sets (a
// v1beta1 file as the schema it converts to, each finding placed on the
// parameter it is about) and, where the kudo set runs, the parameters
// against the rest of the package: triggers naming plans the operator
// lacks, names equal but for case, names templates cannot reach as
// .Params.NAME, parameters no template uses, templates using parameters
// that do not exist (with a v1beta2 schema, nested references such as
// .Params.backup.enabled against the schema's tree). Every finding names
// its File (relative to the folder) and, where known, its Line; every
// finding about a parameter, of any rule, names the parameter, as KUDO's
// verifier does (`parameter "backup.enabled": …`). A v1beta1
// params file that cannot be converted gives findings of the rule
// kudo-params of the Kudo set. The error is for a params file that
// cannot be read or is no schema at all.
func (pkg *Package) Lint(sets ...*Set) ([]Finding, error) {
	if pkg == nil {
		return nil, schema.NewError(schema.KindUsage, "", "lint: no package")
	}
	info := &pkgInfo{pkg: pkg, refs: map[string][]templateRef{}, parseErrs: map[string]error{}, paramsFile: pkg.ParamsFile}
	if info.paramsFile == "" {
		info.paramsFile = kudoparams.ParamsFile
	}
	for name, text := range pkg.Templates {
		info.templates = append(info.templates, name)
		refs, whole, err := templateRefs(name, string(text))
		if err != nil {
			info.parseErrs[name] = err
			continue
		}
		info.refs[name] = refs
		info.whole = info.whole || whole
	}
	sort.Strings(info.templates)

	fs, err := lintParams(pkg.Params, info, sets)
	if err != nil {
		return nil, err
	}
	// Findings about the params file get its name and their lines.
	var at []int
	var inParams []Finding
	for i := range fs {
		if fs[i].File == "" {
			fs[i].File = info.paramsFile
			at = append(at, i)
			inParams = append(inParams, fs[i])
		}
	}
	locate(pkg.Params, inParams)
	for k, i := range at {
		fs[i].Line, fs[i].Column = inParams[k].Line, inParams[k].Column
	}
	sortFindings(fs)
	return fs, nil
}

func displayPtr(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// nameParameters makes every finding in the params file that is about a
// parameter name it, as KUDO's own verifier does (`parameter "NAME" ...`):
// in a v1beta1 list the pointer names only an index, and a nested
// parameter deserves its name too. A message that does not start with
// `parameter "NAME"` gets `parameter "NAME": ` in front. It runs on the
// schema's pointers, before they are placed on the file.
func nameParameters(fs []Finding) {
	for i, f := range fs {
		if f.File != "" {
			continue
		}
		name := parameterOf(f.Pointer)
		if name == "" {
			continue
		}
		who := fmt.Sprintf("parameter %q", name)
		if !strings.HasPrefix(f.Message, who) {
			fs[i].Message = who + ": " + f.Message
		}
	}
}

// parameterOf names the parameter a schema pointer is about, as a path
// of the value from the root: "replicas", "backup.enabled",
// "listeners[].protocol", "labels.*", "pair[0]". A pointer not below a
// root property (the root, $defs) is about no parameter: "".
func parameterOf(ptr string) string {
	toks, err := pointer.Split(ptr)
	if err != nil || len(toks) < 2 || toks[0] != "properties" {
		return ""
	}
	name := toks[1]
	index := func(i int) bool {
		if i >= len(toks) || toks[i] == "" {
			return false
		}
		for _, r := range toks[i] {
			if r < '0' || r > '9' {
				return false
			}
		}
		return true
	}
	for i := 2; i < len(toks); {
		switch toks[i] {
		case "properties":
			if i+1 >= len(toks) {
				return name
			}
			name += "." + toks[i+1]
			i += 2
		case "patternProperties":
			name += ".*"
			i += 2
		case "additionalProperties":
			name += ".*"
			i++
		case "items", "prefixItems":
			if index(i + 1) {
				name += "[" + toks[i+1] + "]"
				i += 2
				continue
			}
			name += "[]"
			i++
		case "allOf", "anyOf", "oneOf":
			// The same value, described once more.
			if !index(i + 1) {
				return name
			}
			i += 2
		default:
			return name
		}
	}
	return name
}

// paramsPlacer maps a pointer into the schema a v1beta1 params file
// converts to onto the file: a finding about a parameter points at its
// entry (the list item, or the first format's key) and the field there.
func paramsPlacer(data []byte) func(string) (string, bool) {
	doc, _, _ := decode(data)
	m, _ := doc.(map[string]any)
	at := map[string]string{}
	if _, ok := m["parameters"]; !ok && (m["properties"] != nil || m["type"] != nil) {
		// A schema (labelled v1beta1, the KEP's typo): pointers stay.
		return func(ptr string) (string, bool) { return resolvable(doc, ptr), false }
	}
	if list, ok := m["parameters"].([]any); ok {
		for i, p := range list {
			if pm, ok := p.(map[string]any); ok {
				if name, ok := pm["name"].(string); ok {
					at[name] = pointer.AppendIndex("/parameters", i)
				}
			}
		}
	} else {
		for name := range m {
			at[name] = pointer.Append("", name)
		}
	}
	fields := map[string]string{"title": "displayName", "description": "description", "default": "default", "enum": "enum", "trigger": "trigger", "immutable": "immutable", "type": "type"}
	return func(ptr string) (string, bool) {
		toks, err := pointer.Split(ptr)
		if err != nil || len(toks) < 2 || toks[0] != "properties" {
			return "", ptr != ""
		}
		entry, ok := at[toks[1]]
		if !ok {
			return "", true
		}
		if len(toks) >= 3 {
			if f, ok := fields[toks[2]]; ok {
				if v, ok := pointer.Get(doc, pointer.Append(entry, f)); ok && v != nil {
					return pointer.Append(entry, f), len(toks) > 3 || f != toks[2]
				}
			}
		}
		return entry, len(toks) > 2
	}
}

// ReportAt records a finding in another file of the package than the
// schema (a template), at a line.
func (p *Pass) ReportAt(file string, line int, sev Severity, message string) {
	p.record(Finding{Severity: sev, File: file, Line: line, Message: message})
}

// The package rules; in the kudo set, they run only in Package.Lint.
var packageRules = []*Rule{
	{ID: "kudo-package-plan", Severity: Error, Run: pkgPlan,
		Doc: "in a package, every trigger names a plan operator.yaml declares"},
	{ID: "kudo-package-name-case", Severity: Error, Run: pkgNameCase,
		Doc: "in a package, no two parameter names are equal but for case (Cpus, cpus)"},
	{ID: "kudo-package-name-reachable", Severity: Error, Run: pkgNameReachable,
		Doc: "in a package, every parameter name can be reached in a template as .Params.NAME (letters, digits, _; not starting with a digit)"},
	{ID: "kudo-package-unused", Severity: Warning, Run: pkgUnused,
		Doc: "in a package, every parameter without a trigger is used by some template (.Params.X, index .Params \"X\", range, with, $.Params.X) or Toggle task"},
	{ID: "kudo-package-undefined", Severity: Error, Run: pkgUndefined,
		Doc: "in a package, templates and Toggle tasks use only parameters the schema declares, nested ones (.Params.backup.enabled) checked against the schema's tree"},
	{ID: "kudo-package-template", Severity: Error, Run: pkgTemplateParse,
		Doc: "in a package, every template parses as a Go template"},
}

// topParams returns the root properties of the schema in source order.
func topParams(p *Pass) ([]string, map[string]any) {
	m, _ := p.Doc.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	var names []string
	if ks, ok := p.st.order["/properties"]; ok && len(ks) == len(props) {
		names = append(names, ks...)
	} else {
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
	}
	return names, props
}

func pkgPlan(p *Pass) {
	if p.st.pkg == nil || p.st.pkg.pkg.Plans == nil {
		return
	}
	plans := map[string]bool{}
	for _, pl := range p.st.pkg.pkg.Plans {
		plans[pl] = true
	}
	var walk func(v any, ptr string, depth int)
	walk = func(v any, ptr string, depth int) {
		if depth > 200 {
			return
		}
		switch t := v.(type) {
		case map[string]any:
			if tr, ok := t["trigger"].(string); ok && !plans[tr] {
				p.Report(pointer.Append(ptr, "trigger"), fmt.Sprintf("trigger %q names a plan %s does not declare (it declares %s)", tr, p.st.pkg.pkg.OperatorFile, listOr(p.st.pkg.pkg.Plans)))
			}
			for k, x := range t {
				if k == "default" || k == "enum" || k == "const" || k == "examples" {
					continue
				}
				walk(x, pointer.Append(ptr, k), depth+1)
			}
		case []any:
			for i, x := range t {
				walk(x, pointer.AppendIndex(ptr, i), depth+1)
			}
		}
	}
	walk(p.Doc, "", 0)
}

func listOr(s []string) string {
	if len(s) == 0 {
		return "no plans"
	}
	return strings.Join(s, ", ")
}

func pkgNameCase(p *Pass) {
	if p.st.pkg == nil {
		return
	}
	names, _ := topParams(p)
	first := map[string]string{}
	for _, n := range names {
		low := strings.ToLower(n)
		if f, ok := first[low]; ok {
			p.Report(pointer.Join("properties", n), fmt.Sprintf("parameter %q differs from %q only by case: one is easily taken for the other", n, f))
			continue
		}
		first[low] = n
	}
}

var reachableName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func pkgNameReachable(p *Pass) {
	if p.st.pkg == nil {
		return
	}
	names, _ := topParams(p)
	for _, n := range names {
		if !reachableName.MatchString(n) {
			p.Report(pointer.Join("properties", n), fmt.Sprintf("parameter %q cannot be reached in a template as .Params.%s: use letters, digits and _ only, not starting with a digit", n, n))
		}
	}
}

func pkgUnused(p *Pass) {
	if p.st.pkg == nil || p.st.pkg.whole || len(p.st.pkg.parseErrs) > 0 {
		return
	}
	used := map[string]bool{}
	for _, refs := range p.st.pkg.refs {
		for _, r := range refs {
			used[r.Path[0]] = true
		}
	}
	for _, t := range p.st.pkg.pkg.toggles {
		used[t.Parameter] = true
	}
	names, props := topParams(p)
	for _, n := range names {
		if pm, ok := props[n].(map[string]any); ok && pm["trigger"] != nil {
			// A parameter may be there only to trigger its plan (KUDO's rule).
			continue
		}
		if !used[n] {
			p.Report(pointer.Join("properties", n), fmt.Sprintf("parameter %q is used by no template and no Toggle task", n))
		}
	}
}

func pkgTemplateParse(p *Pass) {
	if p.st.pkg == nil {
		return
	}
	for _, name := range p.st.pkg.templates {
		if err, ok := p.st.pkg.parseErrs[name]; ok {
			p.ReportAt(name, templateErrLine(err), p.Rule.Severity, fmt.Sprintf("the template does not parse: %v", err))
		}
	}
}

var errLine = regexp.MustCompile(`:(\d+):`)

func templateErrLine(err error) int {
	m := errLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n := 0
	fmt.Sscan(m[1], &n)
	return n
}

func pkgUndefined(p *Pass) {
	if p.st.pkg == nil {
		return
	}
	_, props := topParams(p)
	type seenKey struct {
		file string
		line int
		path string
	}
	seen := map[seenKey]bool{}
	for _, t := range p.st.pkg.pkg.toggles {
		if _, ok := props[t.Parameter]; !ok {
			p.ReportAt(p.st.pkg.pkg.OperatorFile, t.Line, p.Rule.Severity, fmt.Sprintf("Toggle task %q reads parameter %q, which is not declared", t.Task, t.Parameter))
		}
	}
	for _, name := range p.st.pkg.templates {
		for _, r := range p.st.pkg.refs[name] {
			msg := undefinedRef(props, r.Path)
			if msg == "" {
				continue
			}
			k := seenKey{name, r.Line, strings.Join(r.Path, ".")}
			if seen[k] {
				continue
			}
			seen[k] = true
			p.ReportAt(name, r.Line, p.Rule.Severity, msg)
		}
	}
}

// undefinedRef says what is wrong with a reference, "" when the schema's
// tree has room for it.
func undefinedRef(props map[string]any, path []string) string {
	if path[0] == "*" {
		return ""
	}
	node, ok := props[path[0]]
	if !ok {
		return fmt.Sprintf(".Params.%s: no parameter %q is declared", path[0], path[0])
	}
	shown := path[0]
	for _, seg := range path[1:] {
		m, ok := node.(map[string]any)
		if !ok {
			return ""
		}
		for _, k := range []string{"$ref", "allOf", "anyOf", "oneOf", "$dynamicRef", "x-kubernetes-preserve-unknown-fields"} {
			if _, has := m[k]; has {
				return ""
			}
		}
		if seg == "*" {
			if it, ok := m["items"].(map[string]any); ok {
				node = it
			} else if ap, ok := m["additionalProperties"].(map[string]any); ok {
				node = ap
			} else {
				return ""
			}
			shown += "[]"
			continue
		}
		if sub, ok := m["properties"].(map[string]any); ok {
			if x, ok := sub[seg]; ok {
				node = x
				shown += "." + seg
				continue
			}
		}
		if _, ok := m["patternProperties"]; ok {
			return ""
		}
		if ap, ok := m["additionalProperties"].(map[string]any); ok {
			node = ap
			shown += "." + seg
			continue
		}
		if t, ok := m["type"].(string); ok && t != "object" {
			return fmt.Sprintf(".Params.%s.%s: %s is %s, it has no field %q", shown, seg, shown, article(t), seg)
		}
		if _, ok := m["properties"]; ok {
			return fmt.Sprintf(".Params.%s.%s: %s declares no property %q", shown, seg, shown, seg)
		}
		return ""
	}
	return ""
}

func article(t string) string {
	switch t {
	case "integer", "array", "object":
		return "an " + t
	}
	return "a " + t
}
