package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const pkgs = "testdata/packages"

// TestLintPackageGolden lints whole KUDO package folders: a v1beta1 one
// modelled on KUDO's own invalid test package (trigger on a missing plan,
// Cpus/cpus, comma,, an unused and two undefined parameters; its integer
// default 1 is fine) and a v1beta2 one with nested references through
// range, with, index and $.Params.
func TestLintPackageGolden(t *testing.T) {
	for _, name := range []string{"zk-invalid", "kafka-v1beta2"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(pkgs, name)
			code, out, errOut := paramctl(t, "", "lint", dir, "-o", "json")
			assert.Equal(t, 1, code, errOut)
			golden(t, filepath.Join(pkgs, name+".lint.golden.json"), unroot(out))

			// operator.yaml given alone stands for its folder.
			code2, out2, _ := paramctl(t, "", "lint", filepath.Join(dir, "operator.yaml"), "-o", "json")
			assert.Equal(t, code, code2)
			assert.Equal(t, out, out2)

			// Text names the file below the folder, and the line.
			_, text, _ := paramctl(t, "", "lint", dir)
			text = unroot(text)
			assert.Contains(t, text, filepath.Join(dir, "params.yaml")+":")
			assert.Contains(t, text, filepath.Join(dir, "templates")+"/")
		})
	}
	_, out, _ := paramctl(t, "", "lint", filepath.Join(pkgs, "zk-invalid"), "-o", "json")
	assert.NotContains(t, out, `"replicas`, "an integer parameter with default 1 is fine")

	// Several inputs: each finding's file is named below its folder.
	_, out, _ = paramctl(t, "", "lint", filepath.Join(pkgs, "zk-invalid"), "testdata/crd/widgets.yaml", "-o", "json")
	out = unroot(out)
	assert.Contains(t, out, `"file": "testdata/packages/zk-invalid/templates/services.yaml"`)
	assert.Contains(t, out, `"file": "testdata/crd/widgets.yaml"`)
	_, out, _ = paramctl(t, "", "lint", filepath.Join(pkgs, "kafka-v1beta2"), "-o", "sarif")
	out = unroot(out)
	assert.Contains(t, out, `"uri": "testdata/packages/kafka-v1beta2/templates/backup.yaml"`)
}

func TestPackageAsSchema(t *testing.T) {
	code, out, errOut := paramctl(t, "", "list", "--schema", filepath.Join(pkgs, "zk-invalid"), "-o", "json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"name": "comma,"`)
	code, out, errOut = paramctl(t, "", "triggers", "--schema", filepath.Join(pkgs, "kafka-v1beta2", "operator.yaml"))
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "/backup/enabled\tbackup\n")
	code, _, errOut = paramctl(t, "memory: 2Gi\nreplicas: 4\n", "validate", "--schema", filepath.Join(pkgs, "first-format"), "-")
	assert.Equal(t, 0, code, errOut)
	code, _, errOut = paramctl(t, "replicas: many\n", "validate", "--schema", filepath.Join(pkgs, "first-format"), "-")
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, "/replicas")
	code, _, errOut = paramctl(t, "", "list", "--schema", "testdata")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "neither params.yaml nor operator.yaml")
}

// TestConvertFirstFormatGolden converts KUDO's first params format, in
// file order; the folder converts its params.yaml.
func TestConvertFirstFormatGolden(t *testing.T) {
	file := filepath.Join(pkgs, "first-format", "params.yaml")
	code, out, errOut := paramctl(t, "", "convert", file)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "first params format")
	golden(t, filepath.Join(pkgs, "first-format.convert.golden.yaml"), out)
	code, out2, _ := paramctl(t, "", "convert", filepath.Join(pkgs, "first-format"))
	require.Equal(t, 0, code)
	assert.Equal(t, out, out2)
}

// TestFirstFormatWithFieldsKUDOIgnored: velodrome's package
// (kudobuilder/operators@57a40d3, repository/velodrome/operator, as
// published) documents its parameters with `example`, a field KUDO
// ignored. Its params.yaml is read as KUDO's first format, `example`
// kept as x-kudo-example; the folder lints clean and serves as a schema.
func TestFirstFormatWithFieldsKUDOIgnored(t *testing.T) {
	dir := filepath.Join(pkgs, "velodrome")
	code, out, errOut := paramctl(t, "", "convert", filepath.Join(dir, "params.yaml"))
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "first params format")
	golden(t, filepath.Join(pkgs, "velodrome.convert.golden.yaml"), out)
	assert.Contains(t, out, "x-kudo-example: kudobuilder/operators,kudobuilder/kudo")

	code, out, errOut = paramctl(t, "", "lint", dir, "-o", "json")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "[]\n", out)
	code, _, errOut = paramctl(t, "REPOSITORIES: a/b\nMYSQL_SECRET: s\nINFLUX_HOSTNAME: h\nINFLUX_SECRET: i\nGITHUB_SECRET: g\nGCS_SERVICE_ACCOUNT_SECRET: c\n",
		"validate", "--schema", dir, "-")
	assert.Equal(t, 0, code, errOut)
	code, _, errOut = paramctl(t, "REPOSITORIES: a/b\n", "validate", "--schema", dir, "-")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "MYSQL_SECRET")
}

// TestValueMapRefused: a flat map of values is no schema: convert, lint
// and --schema refuse it with exit 2 and say what was expected; nothing
// is echoed. {} and true stay schemas.
func TestValueMapRefused(t *testing.T) {
	values := "replicas: 3\nimage: nginx:1.25\ndebug: true\n"
	for _, args := range [][]string{
		{"convert", "-"}, {"lint", "-"}, {"list", "--schema", "-"}, {"validate", "--schema", "-", "/dev/null"},
	} {
		t.Run(args[0], func(t *testing.T) {
			code, out, errOut := paramctl(t, values, args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, "expected a parameter schema")
			assert.Contains(t, errOut, "found a flat map of values (keys debug, image, replicas)")
		})
	}
	// Values whose nested maps carry a parameter field or two are values
	// still: a service's type is no v1beta1 type, an image has no
	// parameter field.
	nested := "service:\n  type: ClusterIP\n  port: 80\nimage:\n  repository: nginx\n  description: web server\n"
	code, out, errOut := paramctl(t, nested, "convert", "-")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "found a map of values (keys image, service)")
	for _, doc := range []string{"{}\n", "true\n"} {
		code, out, errOut := paramctl(t, doc, "convert", "-")
		assert.Equal(t, 0, code, errOut)
		assert.Equal(t, doc, out)
	}
}

// TestCRDGolden: a CRD with two versions; lint checks each version with
// pointers into the manifest and the version named; list and triggers
// take the storage version unless --crd-version picks another.
func TestCRDGolden(t *testing.T) {
	crd := "testdata/crd/widgets.yaml"
	code, out, errOut := paramctl(t, "", "lint", "--rules", "kudo,structural", crd, "-o", "json")
	assert.Equal(t, 1, code, errOut)
	golden(t, "testdata/crd/widgets.lint.golden.json", unroot(out))
	assert.Contains(t, out, `"pointer": "/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/color/default"`)
	assert.Contains(t, out, "version v1alpha1: ")
	assert.NotContains(t, out, "unknown keyword")
	code, out, _ = paramctl(t, "", "lint", "--rules", "cluster-app", crd)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, ": /spec/versions/0/schema/openAPIV3Schema: error R1-dialect: version v1alpha1: ")
	assert.True(t, strings.HasPrefix(unroot(out), crd+":"), "FILE:LINE:COL first:\n%s", out)

	code, out, _ = paramctl(t, "", "lint", "--rules", "kudo", "--crd-version", "v1alpha1", crd, "-o", "json")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "version v1alpha1: ")
	assert.NotContains(t, out, "version v1: ")
	code, out, _ = paramctl(t, "", "lint", "--rules", "kudo", "--disable", "kudo-enum-default", "--crd-version", "v1", crd, "-o", "json")
	assert.Equal(t, 0, code)
	assert.Equal(t, "[]\n", out)

	code, out, errOut = paramctl(t, "", "list", "--schema", crd)
	require.Equal(t, 0, code, errOut)
	golden(t, "testdata/crd/widgets.list.golden.txt", out)
	code, out, _ = paramctl(t, "", "list", "--schema", crd, "--crd-version", "v1alpha1")
	require.Equal(t, 0, code)
	assert.NotContains(t, out, "color")
	assert.Contains(t, out, "size")

	// validate and defaults read the storage version unless told.
	code, _, _ = paramctl(t, "spec: {size: 0}\n", "validate", "--schema", crd, "-")
	assert.Equal(t, 1, code, "v1 has minimum 1")
	code, _, errOut = paramctl(t, "spec: {size: 0}\n", "validate", "--schema", crd, "--crd-version", "v1alpha1", "-")
	assert.Equal(t, 0, code, errOut)
	code, out, errOut = paramctl(t, "spec: {color: red}\n", "defaults", "--structural", "--schema", crd, "-")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "size: 1")

	code, _, errOut = paramctl(t, "", "list", "--schema", crd, "--crd-version", "v2")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `no version "v2"`)
	assert.True(t, strings.Contains(errOut, "v1alpha1, v1"), errOut)
}
