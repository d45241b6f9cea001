package lint

// What the readings of one chart share: Chart.Lint reads the values once
// for values.yaml and once more for each overlay, and each reading of a
// chart with vendored subcharts reads every subchart's values.yaml and
// compiles every subchart's schema. The memo keeps them (values.yaml too)
// for the run.

import (
	"github.com/paramkit/paramkit/schema"
)

// chartMemo holds the compiled schemas and read values files of one
// run; a nil memo keeps nothing. It is used by one goroutine.
type chartMemo struct {
	schemas map[string]schemaOrError
	values  map[string]memoValues
	// keepOwn says that the chart's own values file is read again in
	// the run (overlays on top of it), so its reading is kept: a copy
	// kept for nothing would double the heap of a large values file.
	keepOwn bool
}

type schemaOrError struct {
	s   *schema.Schema
	err error
}

// memoValues is a values file (a subchart's, or the chart's own) as
// read once: its values (copied out on each use: coalescing changes
// them), its source and warnings.
type memoValues struct {
	values   map[string]any
	source   valuesSource
	warnings []Finding
}

func newChartMemo() *chartMemo {
	return &chartMemo{schemas: map[string]schemaOrError{}, values: map[string]memoValues{}}
}

// parse is schema.Parse, once for each schema text.
func (m *chartMemo) parse(doc []byte) (*schema.Schema, error) {
	if m == nil {
		return schema.Parse(doc)
	}
	if r, ok := m.schemas[string(doc)]; ok {
		return r.s, r.err
	}
	s, err := schema.Parse(doc)
	m.schemas[string(doc)] = schemaOrError{s, err}
	return s, err
}

func (m *chartMemo) subValues(name string, data []byte) (memoValues, bool) {
	if m == nil {
		return memoValues{}, false
	}
	r, ok := m.values[name+"\x00"+string(data)]
	return r, ok
}

func (m *chartMemo) keepSubValues(name string, data []byte, r memoValues) {
	if m != nil {
		m.values[name+"\x00"+string(data)] = r
	}
}
