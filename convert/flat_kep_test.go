package convert

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/pointer"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/schema"
)

// Every example of KEP-33 that involves conversion or unwrapping, with the
// KEP's own text as the expected result where it gives one.

func propertyNames(t *testing.T, schemaDoc []byte) []string {
	t.Helper()
	s, err := schema.Parse(schemaDoc)
	require.NoError(t, err)
	var names []string
	for _, p := range s.Root().Properties() {
		names = append(names, p.Name())
	}
	return names
}

func TestKEPOperatorVersionConvertsAsTheKEPShows(t *testing.T) {
	c, err := FromV1beta1(testdata(t, "kep/operatorversion-node-count.v1beta1.yaml"))
	require.NoError(t, err)
	require.True(t, c.Changed)
	out, err := c.YAML()
	require.NoError(t, err)
	golden(t, "kep/operatorversion-node-count.v1beta2.golden.yaml", out)

	want := plainDoc(t, testdata(t, "kep/operatorversion-node-count.kep-schema.yaml"))
	got, _ := pointer.Get(c.Document, "/spec/parameters")
	assert.True(t, value.Equal(want, got), "converted schema differs from the KEP's:\n%s", out)
	assert.True(t, value.Equal(want, c.Schema))
	assert.Equal(t, apiV1beta2, c.Document.(map[string]any)["apiVersion"])
	assert.Equal(t, []string{"NODE_COUNT", "BACKUP_ENABLED"}, propertyNames(t, c.schemaJSON()))
	assert.Empty(t, c.Notes)
}

func TestKEPParamsFileConverts(t *testing.T) {
	c, err := FromV1beta1(testdata(t, "kep/params-zookeeper.v1beta1.yaml"))
	require.NoError(t, err)
	out, err := c.YAML()
	require.NoError(t, err)
	golden(t, "kep/params-zookeeper.v1beta2.golden.yaml", out)

	want := map[string]any{
		"apiVersion": apiV1beta2,
		"title":      "Parameter Schema",
		"$schema":    "https://json-schema.org/draft/2019-09/schema",
		"type":       "object",
		"required":   []any{"ZOOKEEPER_URI"},
		"properties": map[string]any{
			"ZOOKEEPER_URI": map[string]any{
				"type":        "string",
				"title":       "zookeeper cluster URI",
				"description": "host and port information for Zookeeper connection. e.g. zk:2181,zk2:2181,zk3:2181",
				"default":     "zookeeper-instance-zookeeper-0.zookeeper-instance-hs:2181",
			},
		},
	}
	assert.True(t, value.Equal(want, c.Document), "got %s", mustBytes(c.JSON("")))
}

func TestKEPV1beta2DocumentsComeBackUnchanged(t *testing.T) {
	for _, name := range []string{
		"kep/params-zookeeper.kep-v1beta2.yaml",
		"kep/schema-upgrade.v1beta2.yaml",
		"kep/operatorversion-node-count.kep-schema.yaml",
		"kep/operatorversion-node-count.v1beta2.golden.yaml",
		"kep/operatorversion-upgrade.v1beta2.golden.yaml",
		"kep/params-zookeeper.v1beta2.golden.yaml",
	} {
		t.Run(name, func(t *testing.T) {
			in := testdata(t, name)
			c, err := FromV1beta1(in)
			require.NoError(t, err)
			assert.False(t, c.Changed)
			out, err := c.YAML()
			require.NoError(t, err)
			assert.Equal(t, string(in), string(out))
			assert.True(t, value.Equal(plainDoc(t, in), c.Document))
		})
	}
}

func TestKEPUpgradeExampleConverts(t *testing.T) {
	c, err := FromV1beta1(testdata(t, "kep/operatorversion-upgrade.v1beta1.yaml"))
	require.NoError(t, err)
	out, err := c.YAML()
	require.NoError(t, err)
	golden(t, "kep/operatorversion-upgrade.v1beta2.golden.yaml", out)

	// The KEP's converted object, read for its evident intent: it is the
	// v1beta2 object, and `description: TODO` is a placeholder.
	kep := plainDoc(t, testdata(t, "kep/operatorversion-upgrade.kep-converted.yaml")).(map[string]any)
	kep["apiVersion"] = apiV1beta2
	delete(kep["spec"].(map[string]any)["parameters"].(map[string]any), "description")
	assert.True(t, value.Equal(kep, c.Document), "got\n%s", out)
	assert.Equal(t, []string{"CLUSTER_NAME", "BACKUP_ENABLED", "BACKUP_CREDENTIALS_USERNAME", "BACKUP_CREDENTIALS_PASSWORD"}, propertyNames(t, c.schemaJSON()))
}

func TestKEPConvertedObjectStillSayingV1beta1IsReadAsV1beta2(t *testing.T) {
	in := testdata(t, "kep/operatorversion-upgrade.kep-converted.yaml")
	c, err := FromV1beta1(in)
	require.NoError(t, err)
	assert.True(t, c.Changed)
	doc := c.Document.(map[string]any)
	assert.Equal(t, apiV1beta2, doc["apiVersion"])
	want := plainDoc(t, in).(map[string]any)
	assert.True(t, value.Equal(want["spec"], doc["spec"]))
	require.Len(t, c.Notes, 1)
	assert.Equal(t, "/apiVersion", c.Notes[0].Pointer)

	// and it loads as a schema
	s, err := LoadSchema(in)
	require.NoError(t, err)
	assert.Equal(t, "boolean", s.Lookup("/BACKUP_ENABLED").Type()[0])
}

func TestKEPInstanceUnwraps(t *testing.T) {
	want := plainDoc(t, testdata(t, "kep/instance-unwrap.kep-v1beta2.yaml")).(map[string]any)
	want["apiVersion"] = apiV1beta2
	in := testdata(t, "kep/instance-unwrap.v1beta1.yaml")
	for _, tc := range []struct{ name, schema string }{
		// the KEP's operator version: ARRAY_PARAM and MAP_PARAM are not
		// declared, so YAML 1.2 core rules read their flows
		{"kep operator version", "kep/operatorversion-node-count.v1beta1.yaml"},
		// all four declared with their types
		{"declared params", "kep/instance-unwrap.params.v1beta1.yaml"},
		// no schema at all: guessed
		{"guess", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s *schema.Schema
			if tc.schema != "" {
				var err error
				s, err = LoadSchema(testdata(t, tc.schema))
				require.NoError(t, err)
			}
			c, err := Unwrap(s, in)
			require.NoError(t, err)
			out, err := c.YAML()
			require.NoError(t, err)
			assert.True(t, value.Equal(want, c.Document), "got\n%s", out)
			golden(t, "kep/instance-unwrap.v1beta2.golden.yaml", out)
			if s == nil {
				assert.Len(t, c.Notes, 4, "every guess is reported")
			} else {
				assert.Empty(t, c.Notes)
			}
		})
	}
}

func TestKEPUpgradeInstanceUnwraps(t *testing.T) {
	s, err := LoadSchema(testdata(t, "kep/operatorversion-upgrade.v1beta1.yaml"))
	require.NoError(t, err)
	c, err := Unwrap(s, testdata(t, "kep/instance-upgrade.v1beta1.yaml"))
	require.NoError(t, err)
	out, err := c.YAML()
	require.NoError(t, err)
	golden(t, "kep/instance-upgrade.v1beta2.golden.yaml", out)
	want := map[string]any{
		"apiVersion": apiV1beta2,
		"kind":       "Instance",
		"spec": map[string]any{"parameters": map[string]any{
			"CLUSTER_NAME":                "my-cluster",
			"BACKUP_ENABLED":              false, // the KEP's boolean in a string map, read for its intent
			"BACKUP_CREDENTIALS_USERNAME": "some value",
			"BACKUP_CREDENTIALS_PASSWORD": "some password",
		}},
	}
	assert.True(t, value.Equal(want, c.Document), "got\n%s", out)

	// the flat map of the upgrade section, likewise
	c, err = Unwrap(s, testdata(t, "kep/values-upgrade.v1beta1.yaml"))
	require.NoError(t, err)
	out, err = c.YAML()
	require.NoError(t, err)
	golden(t, "kep/values-upgrade.v1beta2.golden.yaml", out)
	assert.True(t, value.Equal(want["spec"].(map[string]any)["parameters"], c.Document))
}
