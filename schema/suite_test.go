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

	"github.com/paramkit/paramkit/internal/jsonx"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestSuiteAgreesWithBareEngine runs every case of the official
// JSON-Schema-Test-Suite for the three dialects through paramkit's wrapper
// (schema.Parse + params.Validate) and through the bare engine, and
// requires the same verdict: the wrapper must never lose conformance.
// Cases whose schema reaches outside the document (the suite's remote refs
// on localhost:1234) are refused by design, and the test checks that they
// are refused by the wrapper rather than fetched.
func TestSuiteAgreesWithBareEngine(t *testing.T) {
	dialects := map[string]schema.Dialect{
		"draft7":       schema.Draft7,
		"draft2019-09": schema.Draft2019,
		"draft2020-12": schema.Draft2020,
	}
	engineDraft := map[string]*jsonschema.Draft{
		"draft7":       jsonschema.Draft7,
		"draft2019-09": jsonschema.Draft2019,
		"draft2020-12": jsonschema.Draft2020,
	}
	total, refused := 0, 0
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
				name := fmt.Sprintf("%s/%s/%d %s", dir, filepath.Base(file), gi, g.Description)
				bare := jsonschema.NewCompiler()
				bare.Draft = engineDraft[dir]
				bare.LoadURL = func(u string) (io.ReadCloser, error) { return nil, fmt.Errorf("no network in tests: %s", u) }
				require.NoError(t, bare.AddResource("mem:///schema.json", bytes.NewReader(g.Schema)), name)
				bareSchema, bareErr := bare.Compile("mem:///schema.json")

				ours, ourErr := schema.Parse(g.Schema, schema.DefaultDialect(dialect))
				if bareErr != nil {
					refused++
					assert.Error(t, ourErr, "%s: the bare engine refuses this schema (%v), the wrapper must too", name, bareErr)
					continue
				}
				if !assert.NoError(t, ourErr, name) {
					continue
				}
				for _, tc := range g.Tests {
					total++
					data, err := jsonx.Decode(tc.Data)
					require.NoError(t, err, "%s: %s", name, tc.Description)
					bareValid := bareSchema.Validate(data) == nil
					ourValid := params.Validate(ours, data) == nil
					assert.Equal(t, bareValid, ourValid, "%s: %s: wrapper and engine disagree", name, tc.Description)
				}
			}
		}
	}
	t.Logf("%d cases agreed; %d groups refused by both (remote references)", total, refused)
	assert.Greater(t, total, 2000)
}
