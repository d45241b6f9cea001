package schema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestSuiteAgreesWithBareEngine runs every case of the official
// JSON-Schema-Test-Suite for the five dialects (draft-04, draft-06,
// draft-07, 2019-09, 2020-12) through paramkit's wrapper
// (schema.Parse + params.Validate) and through the bare engine, and
// requires the same verdict: the wrapper must never lose conformance.
// Cases whose schema reaches outside the document (the suite's remote refs
// on localhost:1234) are refused by design, and the test checks that they
// are refused by the wrapper rather than fetched.
// suiteGroup is one schema of the official JSON-Schema-Test-Suite with
// its test values.
type suiteGroup struct {
	name    string
	dialect string
	draft   *jsonschema.Draft
	schema  json.RawMessage
	tests   []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	}
}

func suiteGroups(t testing.TB) []suiteGroup {
	dialects := map[string]string{
		"draft4":       "http://json-schema.org/draft-04/schema#",
		"draft6":       "http://json-schema.org/draft-06/schema#",
		"draft7":       "http://json-schema.org/draft-07/schema#",
		"draft2019-09": "https://json-schema.org/draft/2019-09/schema",
		"draft2020-12": "https://json-schema.org/draft/2020-12/schema",
	}
	engineDraft := map[string]*jsonschema.Draft{
		"draft4":       jsonschema.Draft4,
		"draft6":       jsonschema.Draft6,
		"draft7":       jsonschema.Draft7,
		"draft2019-09": jsonschema.Draft2019,
		"draft2020-12": jsonschema.Draft2020,
	}
	var out []suiteGroup
	for dir, dialect := range dialects {
		files, err := filepath.Glob(filepath.Join("testdata", "JSON-Schema-Test-Suite", "tests", dir, "*.json"))
		require.NoError(t, err)
		require.NotEmpty(t, files, "the suite's %s files are missing", dir)
		for _, file := range files {
			raw, err := os.ReadFile(file)
			require.NoError(t, err)
			var groups []struct {
				Description string          `json:"description"`
				Schema      json.RawMessage `json:"schema"`
				Tests       []struct {
					Description string          `json:"description"`
					Data        json.RawMessage `json:"data"`
					Valid       bool            `json:"valid"`
				} `json:"tests"`
			}
			require.NoError(t, json.Unmarshal(raw, &groups), file)
			for gi, g := range groups {
				out = append(out, suiteGroup{
					name:    fmt.Sprintf("%s/%s/%d %s", dir, filepath.Base(file), gi, g.Description),
					dialect: dialect, draft: engineDraft[dir], schema: g.Schema, tests: g.Tests,
				})
			}
		}
	}
	return out
}

// TestSuiteAgreesWithBareEngine runs every case of the official
// JSON-Schema-Test-Suite for the five dialects (draft-04, draft-06,
// draft-07, 2019-09, 2020-12) through paramkit's wrapper
// (schema.Parse + params.Validate) and through the bare engine, and
// requires the same verdict: the wrapper must never lose conformance.
// Cases whose schema reaches outside the document (the suite's remote refs
// on localhost:1234) are refused by design, and the test checks that they
// are refused by the wrapper rather than fetched.
//
// It also checks the allocation-free fast check on its own, without the
// engine behind it: on every case whose schema it handles it must give
// the suite's verdict, and it must handle most of the suite, so that this
// test covers it broadly.
func TestSuiteAgreesWithBareEngine(t *testing.T) {
	total, refused, fast := 0, 0, 0
	for _, g := range suiteGroups(t) {
		name := g.name
		bare := jsonschema.NewCompiler()
		bare.Draft = g.draft
		bare.LoadURL = func(u string) (io.ReadCloser, error) { return nil, fmt.Errorf("no network in tests: %s", u) }
		require.NoError(t, bare.AddResource("mem:///schema.json", bytes.NewReader(g.schema)), name)
		bareSchema, bareErr := bare.Compile("mem:///schema.json")

		ours, ourErr := schema.Parse(g.schema, schema.DefaultDialect(g.dialect))
		if bareErr != nil {
			refused++
			assert.Error(t, ourErr, "%s: the bare engine refuses this schema (%v), the wrapper must too", name, bareErr)
			continue
		}
		if !assert.NoError(t, ourErr, name) {
			continue
		}
		for _, tc := range g.tests {
			total++
			data, err := document.DecodeJSON(tc.Data)
			require.NoError(t, err, "%s: %s", name, tc.Description)
			bareValid := bareSchema.Validate(data) == nil
			ourValid := params.Validate(ours, data) == nil
			assert.Equal(t, bareValid, ourValid, "%s: %s: wrapper and engine disagree", name, tc.Description)
			if ok, sure, has := schema.FastVerdict(ours, data); has {
				fast++
				require.True(t, sure, "%s: %s: plain JSON values are always decided", name, tc.Description)
				assert.Equal(t, tc.Valid, ok, "%s: %s: the fast check disagrees with the suite", name, tc.Description)
			}
		}
	}
	t.Logf("%d cases agreed; %d groups refused by both (remote references); the fast check decided %d cases", total, refused, fast)
	assert.Greater(t, total, 2000)
	assert.Greater(t, fast, total*6/10)
}

// FuzzFastValid compares the fast check with the engine on arbitrary
// schemas and values: where the fast check decides, it must agree.
func FuzzFastValid(f *testing.F) {
	for i, g := range suiteGroups(f) {
		if i%5 == 0 && len(g.tests) > 0 { // a spread of the suite keeps the seed corpus small
			f.Add([]byte(g.schema), []byte(g.tests[0].Data))
		}
	}
	f.Fuzz(func(t *testing.T, schemaDoc, data []byte) {
		s, err := schema.Parse(schemaDoc)
		if err != nil {
			return
		}
		v, err := document.DecodeJSON(data)
		if err != nil {
			return
		}
		ok, sure, has := schema.FastVerdict(s, v)
		if !has || !sure {
			return
		}
		engineOK := ok
		func() {
			defer func() { _ = recover() }() // the engine gave up: nothing to compare
			engineOK = schema.EngineValid(s, v)
		}()
		if ok != engineOK {
			t.Fatalf("fast check says %v, engine says %v\nschema: %s\nvalue: %s", ok, engineOK, schemaDoc, data)
		}
	})
}
