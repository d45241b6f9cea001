package lint

import (
	"errors"
	"github.com/paramkit/paramkit/internal/fileread"
	"io/fs"

	"github.com/paramkit/paramkit/schema"
)

// Chart is a Helm chart as data: what Chart.Lint checks. ReadChart reads
// one from a folder.
type Chart struct {
	// Metadata is the text of Chart.yaml, checked by the rule chart-file; nil
	// leaves it unchecked.
	Metadata []byte
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
	// Overlays are values files each judged on its own on top of Values
	// and ExtraValues, as chart-testing runs a chart's ci/*.yaml (helm
	// install -f ci/X.yaml, one at a time); ReadChart fills them from
	// the chart's ci folder.
	Overlays []ValuesFile
	// Sets are Helm's --set family, applied after ExtraValues in the
	// order Helm applies them (--set-json, --set, --set-string,
	// --set-file, --set-literal; those of one flag in the order given),
	// each by Helm's own parser.
	Sets []HelmSet
	// ReadFile reads the file a --set-file assignment names; nil
	// refuses --set-file.
	ReadFile func(name string) ([]byte, error)

	// subcharts are the folders under charts/ ReadChart found.
	subcharts []*subchartFiles
}

// HelmSet is one of Helm's --set family given beside a chart: Flag is
// the flag's name without dashes ("set", "set-string", "set-json",
// "set-file", "set-literal"), Value what follows it on the command line.
type HelmSet struct {
	Flag, Value string
}

// ValuesFile is a values file given beside a chart: its name, as findings
// in it name it, and its text.
type ValuesFile struct {
	Name string
	Data []byte
}

// The files of a chart that Chart.Lint reads, as Helm names them.
const (
	chartFile       = "Chart.yaml"
	chartSchemaFile = "values.schema.json"
	chartValuesFile = "values.yaml"
	// chartOverlays are the values files chart-testing installs the
	// chart with, one at a time.
	chartOverlays = "ci/*.yaml"
)

// errNotChart is ReadChart's error (wrapped in a *schema.Error of kind
// schema.KindIO) for a folder without Chart.yaml: errors.Is(err,
// fs.ErrNotExist) tells it.
var errNotChart = notFound("not a Helm chart folder: it holds no " + chartFile)

// ReadChart reads a Helm chart folder: Chart.yaml (which makes it a
// chart), values.schema.json and values.yaml, either of which may be
// missing, and the overlays ci/*.yaml. A folder without Chart.yaml is an
// error of kind schema.KindIO for which errors.Is(err, fs.ErrNotExist)
// holds.
func ReadChart(fsys fs.FS) (*Chart, error) {
	if fsys == nil {
		return nil, schema.NewError(schema.KindUsage, "", "lint: ReadChart needs a file system")
	}
	meta, err := readChartFile(fsys, chartFile)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ioError(errNotChart)
		}
		return nil, ioError(err)
	}
	c := &Chart{Metadata: meta, SchemaFile: chartSchemaFile, ValuesFile: chartValuesFile}
	if c.subcharts, err = readSubcharts(fsys, "."); err != nil {
		return nil, err
	}
	overlays, err := fs.Glob(fsys, chartOverlays)
	if err != nil {
		return nil, ioError(err)
	}
	for _, name := range overlays { // fs.Glob sorts them
		data, err := readChartFile(fsys, name)
		if err != nil {
			return nil, ioError(err)
		}
		c.Overlays = append(c.Overlays, ValuesFile{Name: name, Data: data})
	}
	for _, f := range []struct {
		name string
		dst  *[]byte
	}{{chartSchemaFile, &c.Schema}, {chartValuesFile, &c.Values}} {
		data, err := readChartFile(fsys, f.name)
		switch {
		case err == nil:
			*f.dst = data
		case !errors.Is(err, fs.ErrNotExist):
			return nil, ioError(err)
		}
	}
	return c, nil
}

// readChartFile reads a file of a chart folder as Helm's loader does:
// a regular file (after symbolic links) of at most Helm's limit on a chart
// file (5 MiB); a symbolic link out of a folder opened with os.OpenRoot
// is refused, saying so.
func readChartFile(fsys fs.FS, name string) ([]byte, error) {
	return fileread.ReadFS(fsys, name, fileread.ChartFileLimit, true)
}

// chartValuesRule is the check helm lint makes of a chart: the default values
// (values.yaml) satisfy the values schema. Chart.Lint runs it whatever the
// sets, each error a finding in the values file at the value's pointer;
// a chart without a schema gets one info finding saying nothing checks
// its values.
var chartValuesRule = &Rule{
	ID: "chart-values", Set: "chart", Severity: Error,
	Doc: "in a Helm chart, values.yaml satisfies values.schema.json (as helm lint and helm install check)",
	Run: func(*Pass) {}, // Chart.Lint reports its findings
}

// Lint lints a Helm chart: its Chart.yaml as helm lint does (see
// chart-file), its values schema with the sets, as Document does, and
// its values against the schema (the rule chart-values).
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
	schemaFile, valuesFile := orDefault(c.SchemaFile, chartSchemaFile), orDefault(c.ValuesFile, chartValuesFile)
	var meta []Finding
	if c.Metadata != nil {
		meta = chartFileFindings(c.Metadata)
	}
	if c.Schema == nil {
		fs := append(meta, Finding{Rule: chartValuesRule.ID, Severity: Info, File: chartFile,
			Message: "the chart has no " + chartSchemaFile + ": nothing checks the values users give"})
		if len(c.subcharts) > 0 { // Helm still checks each subchart's values against its schema
			vs, err := chartValues(c, valuesFile)
			if err != nil {
				return nil, err
			}
			fs = append(fs, vs...)
		}
		sortFindings(fs)
		return fs, nil
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
	fs = append(append(fs, vs...), meta...)
	sortFindings(fs)
	return fs, nil
}

// Rules returns the rules Lint reports whatever the sets: chart-values,
// chart-values-drift and chart-file, each a rule of its own (changing
// one changes nothing else); for a SARIF log's list of rules, or to know
// every id a run can report. c may be nil.
func (c *Chart) Rules() []*Rule {
	return copySet(&Set{Rules: []*Rule{chartValuesRule, chartValuesDriftRule, chartMetadataRule}}).Rules
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
