package lint

import (
	"errors"
	"io/fs"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Chart is a Helm chart as data: what Chart.Lint checks. ReadChart reads
// one from a folder.
type Chart struct {
	// SchemaFile is the schema's path relative to the chart folder
	// ("values.schema.json"); findings about it carry it as File.
	SchemaFile string
	// Schema is the text of the values schema; nil when the chart has
	// none.
	Schema []byte
	// ValuesFile is the default values' path relative to the chart
	// folder ("values.yaml"); findings about them carry it as File.
	ValuesFile string
	// Values is the text of the default values; nil when the chart has
	// none.
	Values []byte
	// ExtraValues are values files given beside the chart, as helm lint
	// takes them with -f: layered over Values in order as Helm coalesces
	// values (maps merge key by key, null removes a key, anything else
	// replaces), and the result validated.
	ExtraValues []ValuesFile
}

// ValuesFile is a values file given beside a chart: its name, as findings
// in it name it, and its text.
type ValuesFile struct {
	Name string
	Data []byte
}

// The files of a chart that Chart.Lint reads, as Helm names them.
const (
	ChartFile       = "Chart.yaml"
	ChartSchemaFile = "values.schema.json"
	ChartValuesFile = "values.yaml"
)

// ErrNotChart is wrapped by ReadChart's error (a *schema.Error of kind
// schema.KindIO) for a folder without Chart.yaml.
var ErrNotChart = errors.New("not a Helm chart folder: it holds no " + ChartFile)

// ReadChart reads a Helm chart folder: Chart.yaml (which makes it a
// chart), values.schema.json and values.yaml, either of which may be
// missing.
func ReadChart(fsys fs.FS) (*Chart, error) {
	if fsys == nil {
		return nil, schema.NewError(schema.KindUsage, "", "lint: ReadChart needs a file system")
	}
	if _, err := fs.Stat(fsys, ChartFile); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ioError(ErrNotChart)
		}
		return nil, ioError(err)
	}
	c := &Chart{SchemaFile: ChartSchemaFile, ValuesFile: ChartValuesFile}
	for _, f := range []struct {
		name string
		dst  *[]byte
	}{{ChartSchemaFile, &c.Schema}, {ChartValuesFile, &c.Values}} {
		data, err := fs.ReadFile(fsys, f.name)
		switch {
		case err == nil:
			*f.dst = data
		case !errors.Is(err, fs.ErrNotExist):
			return nil, ioError(err)
		}
	}
	return c, nil
}

// ChartValues is the check helm lint makes of a chart: the default values
// (values.yaml) satisfy the values schema. Chart.Lint runs it whatever the
// sets, each error a finding in the values file at the value's pointer;
// a chart without a schema gets one info finding saying nothing checks
// its values.
var ChartValues = &Rule{
	ID: "chart-values", Set: "chart", Severity: Error,
	Doc: "in a Helm chart, values.yaml satisfies values.schema.json (as helm lint and helm install check)",
	Run: func(*Pass) {}, // Chart.Lint reports its findings
}

// Lint lints a Helm chart: its values schema with the sets, as Document
// does, and its default values against the schema (see ChartValues).
// Every finding names its File (relative to the chart folder) and, where
// known, its Line and Column; a finding in the values file points into
// the values, not the schema.
//
// The schema file is read as JSON only, as Helm reads it: text that only
// YAML accepts (a trailing comma) is an error, a *schema.Error of kind
// schema.KindSyntax with the line. So is a values file that is not
// well-formed YAML. Both come with the file's name (see schema.ErrorIn).
func (c *Chart) Lint(sets ...*Set) ([]Finding, error) {
	if c == nil {
		return nil, schema.NewError(schema.KindUsage, "", "lint: no chart")
	}
	schemaFile, valuesFile := orDefault(c.SchemaFile, ChartSchemaFile), orDefault(c.ValuesFile, ChartValuesFile)
	if c.Schema == nil {
		return []Finding{{Rule: ChartValues.ID, Severity: Info, File: ChartFile,
			Message: "the chart has no " + ChartSchemaFile + ": nothing checks the values users give"}}, nil
	}
	if err := schema.CheckJSONFile(schemaFile, c.Schema); err != nil {
		return nil, schema.ErrorIn(schemaFile, err)
	}
	fs, err := Document(c.Schema, sets...)
	if err != nil {
		return nil, schema.ErrorIn(schemaFile, err)
	}
	// Document placed them in the schema file already.
	for i := range fs {
		fs[i].File = schemaFile
	}
	vs, err := chartValues(c, valuesFile)
	if err != nil {
		return nil, err
	}
	fs = append(fs, vs...)
	sortFindings(fs)
	return fs, nil
}

// chartValues validates the chart's values, with the extra values files
// layered over them, against its schema; nothing when the schema does not
// compile (its findings say why). Each error is placed in the last file
// that writes the value it is about, else in the one that comes closest.
func chartValues(c *Chart, valuesFile string) ([]Finding, error) {
	s, err := schema.Parse(c.Schema)
	if err != nil {
		return nil, nil
	}
	files := append([]ValuesFile{{Name: valuesFile, Data: c.Values}}, c.ExtraValues...)
	var merged any = map[string]any{}
	for i, f := range files {
		d, err := document.Read(f.Data, document.Options{})
		if err != nil || d.Empty {
			if err == nil {
				continue // Helm starts from an empty map
			}
			return nil, schema.ErrorIn(f.Name, err)
		}
		v, err := params.Decode(s, f.Data)
		if err != nil {
			return nil, schema.ErrorIn(f.Name, err)
		}
		v = helmNulls(f.Data, v)
		if i == 0 {
			merged = v
			continue
		}
		merged = params.MergePatch(merged, v)
	}
	var out []Finding
	for _, e := range schema.ErrorsOf(params.Validate(s, merged)) {
		out = append(out, Finding{Rule: ChartValues.ID, Severity: Error, Pointer: e.Pointer, Message: e.Message, Kind: e.Kind})
	}
	placeValues(files, out)
	return out, nil
}

// placeValues gives each finding the file, line and column of its value:
// the last file where its pointer resolves, else the one where the
// longest part of it does (the object a required property is missing
// from), the first file when none.
func placeValues(files []ValuesFile, fs []Finding) {
	type parsed struct {
		name string
		node *yaml.Node
	}
	var ps []parsed
	for _, f := range files {
		if n, err := document.ParseNode(f.Data); err == nil && n != nil {
			ps = append(ps, parsed{f.Name, n})
		}
	}
	for i := range fs {
		fs[i].File = files[0].Name
		best := -1
		for j := len(ps) - 1; j >= 0; j-- {
			line, col, ok := document.Locate(ps[j].node, fs[i].Pointer)
			if ok {
				fs[i].File, fs[i].Line, fs[i].Column = ps[j].name, line, col
				break
			}
			if depth := resolvedDepth(ps[j].node, fs[i].Pointer); depth > best {
				best = depth
				fs[i].File, fs[i].Line, fs[i].Column = ps[j].name, line, col
			}
		}
	}
}

// resolvedDepth is the length of the longest prefix of ptr that resolves
// in the parsed document.
func resolvedDepth(n *yaml.Node, ptr string) int {
	for p := ptr; ; {
		if _, _, ok := document.Locate(n, p); ok {
			return len(p)
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return -1
		}
		p = p[:i]
	}
}

// helmNulls sets to null, in v (data as the schema typed it), the values
// data writes as a plain null scalar (null, ~, nothing). The schema types
// every other scalar, but Helm reads values files with YAML's own types,
// so a null there is null whatever the node's type: in an extra values
// file it removes the key, in values.yaml it is a null value.
func helmNulls(data []byte, v any) any {
	d, err := document.Read(data, document.Options{KeepText: true})
	if err != nil {
		return v
	}
	var walk func(text, typed any) any
	walk = func(text, typed any) any {
		switch t := text.(type) {
		case document.Text:
			if document.Core(string(t)) == nil {
				return nil
			}
		case map[string]any:
			if m, ok := typed.(map[string]any); ok {
				for k, x := range t {
					if y, ok := m[k]; ok {
						m[k] = walk(x, y)
					}
				}
			}
		case []any:
			if a, ok := typed.([]any); ok && len(a) == len(t) {
				for i := range t {
					a[i] = walk(t[i], a[i])
				}
			}
		}
		return typed
	}
	return walk(d.Value, v)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
