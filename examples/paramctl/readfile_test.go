package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// paramctlLimited runs paramctl with a smaller input limit than
// maxInputSize, so that the tests need no 32 MiB files.
func paramctlLimited(t *testing.T, limit int64, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := newEnv(strings.NewReader(stdin), &out, &errb)
	e.maxInput = limit
	code = e.dispatch(args)
	return code, out.String(), errb.String()
}

// boundChart writes a chart folder whose values.yaml is what values
// says: a file's text, or a symbolic link when it starts with "->".
func boundChart(t *testing.T, values string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "chart")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "charts", "sub"), 0o755))
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("Chart.yaml", "apiVersion: v2\nname: demo\nversion: 0.1.0\n")
	write("values.schema.json", `{"type":"object","properties":{"replicas":{"type":"integer"}}}`)
	write("charts/sub/Chart.yaml", "apiVersion: v2\nname: sub\nversion: 0.1.0\n")
	write("charts/sub/values.yaml", "size: 1\n")
	if target, ok := strings.CutPrefix(values, "->"); ok {
		require.NoError(t, os.Symlink(target, filepath.Join(dir, "values.yaml")))
	} else {
		write("values.yaml", values)
	}
	return dir
}

// TestInputsAreBounded: every command refuses an input over the limit
// quickly, naming the file and the limit, with exit 2, and /dev/zero is
// never read to its end (a run would not end).
func TestInputsAreBounded(t *testing.T) {
	tmp := t.TempDir()
	big := filepath.Join(tmp, "big.yaml")
	require.NoError(t, os.WriteFile(big, []byte("replicas: 1\n"+strings.Repeat("# padding\n", 200)), 0o644))
	schemaFile := filepath.Join(tmp, "schema.yaml")
	require.NoError(t, os.WriteFile(schemaFile, []byte("type: object\nproperties:\n  replicas: {type: integer}\n"), 0o644))
	stream := filepath.Join(tmp, "stream.yaml")
	// Three small documents: the stream is larger than the limit, none
	// of its documents is.
	doc := "replicas: 1\n" + strings.Repeat("# x\n", 100)
	require.NoError(t, os.WriteFile(stream, []byte(doc+"---\n"+doc+"...\n"+doc), 0o644))
	bigDoc := filepath.Join(tmp, "bigdoc.yaml")
	require.NoError(t, os.WriteFile(bigDoc, []byte(doc+"---\n"+doc+doc+doc+"---\n"+doc), 0o644))
	zeroChart := boundChart(t, "->/dev/zero")
	okChart := boundChart(t, "replicas: 2\n")
	const limit = 1 << 10

	for _, tc := range []struct {
		name string
		args []string
		code int
		err  string
	}{
		{name: "values: values.yaml linked to /dev/zero", args: []string{"values", zeroChart}, code: exitUsage,
			err: "values.yaml: a symbolic link leads outside the folder; refused"},
		{name: "lint: values.yaml linked to /dev/zero", args: []string{"lint", zeroChart}, code: exitUsage,
			err: "values.yaml: a symbolic link leads outside the folder; refused"},
		{name: "schema: values.yaml linked to /dev/zero", args: []string{"schema", zeroChart}, code: exitUsage,
			err: "values.yaml: larger than the limit of 1 KiB; refused"},
		{name: "values --set-file /dev/zero", args: []string{"values", okChart, "--set-file", "k=/dev/zero"}, code: exitUsage,
			err: "/dev/zero: larger than the limit of 1 KiB; refused"},
		{name: "values -f /dev/zero", args: []string{"values", okChart, "-f", "/dev/zero"}, code: exitUsage,
			err: "/dev/zero: larger than the limit of 1 KiB; refused"},
		{name: "values -f oversized", args: []string{"values", okChart, "-f", big}, code: exitUsage,
			err: big + ": larger than the limit of 1 KiB; refused"},
		{name: "lint --values oversized", args: []string{"lint", okChart, "--values", big}, code: exitUsage,
			err: big + ": larger than the limit of 1 KiB; refused"},
		{name: "--schema /dev/zero", args: []string{"defaults", "--schema", "/dev/zero"}, code: exitUsage,
			err: "larger than the limit of 1 KiB; refused"},
		{name: "lint a schema from /dev/zero", args: []string{"lint", "/dev/zero"}, code: exitUsage,
			err: "/dev/zero: larger than the limit of 1 KiB; refused"},
		{name: "update --values /dev/zero", args: []string{"update", "--schema", schemaFile, "--values", "/dev/zero"}, code: exitUsage,
			err: "/dev/zero: larger than the limit of 1 KiB; refused"},
		{name: "validate a stream of /dev/zero", args: []string{"validate", "--schema", schemaFile, "/dev/zero"}, code: exitUsage,
			err: "/dev/zero: holds a document larger than the limit of 1 KiB; refused"},
		{name: "validate: a stream longer than the limit, each document under it", args: []string{"validate", "--schema", schemaFile, stream}, code: exitOK},
		{name: "validate: one document over the limit", args: []string{"validate", "--schema", schemaFile, bigDoc}, code: exitUsage,
			err: bigDoc + ": holds a document larger than the limit of 1 KiB; refused"},
		{name: "migrate: a stream of /dev/zero", args: []string{"migrate", "--schema", schemaFile, "/dev/zero"}, code: exitUsage,
			err: "/dev/zero: holds a document larger than the limit of 1 KiB; refused"},
		{name: "lint --config /dev/zero", args: []string{"lint", schemaFile, "--config", "/dev/zero"}, code: exitUsage,
			err: "/dev/zero: larger than the limit of 1 KiB; refused"},
		{name: "lint --baseline /dev/zero", args: []string{"lint", schemaFile, "--baseline", "/dev/zero"}, code: exitUsage,
			err: "/dev/zero: larger than the limit of 1 KiB; refused"},
		{name: "crd --versions /dev/zero", args: []string{"crd", "--versions", "/dev/zero"}, code: exitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := paramctlLimited(t, limit, "", tc.args...)
			assert.Equal(t, tc.code, code, "stdout:\n%s\nstderr:\n%s", out, errs)
			assert.Contains(t, errs, tc.err)
			assert.Less(t, len(out)+len(errs), 4096, "the error is short")
		})
	}
}

// TestStandardInputBounded: standard input is bounded as a file is (a
// document at a time when it is a stream).
func TestStandardInputBounded(t *testing.T) {
	big := "replicas: 1\n" + strings.Repeat("# padding\n", 200)
	code, _, errs := paramctlLimited(t, 1<<10, big, "values", boundChart(t, "replicas: 2\n"), "-f", "-")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, "standard input: larger than the limit of 1 KiB; refused")

	schemaFile := filepath.Join(t.TempDir(), "schema.yaml")
	require.NoError(t, os.WriteFile(schemaFile, []byte("type: object\n"), 0o644))
	code, _, errs = paramctlLimited(t, 1<<10, big, "validate", "--schema", schemaFile, "-")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, "standard input: holds a document larger than the limit of 1 KiB; refused")
}

// TestChartSymlinkOutsideRefused: a file of a chart (or a subchart)
// reached through a symbolic link out of the chart folder is refused,
// saying which, and its text never shows; a link inside the chart is
// followed.
func TestChartSymlinkOutsideRefused(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "shadow")
	require.NoError(t, os.WriteFile(outside, []byte("root:$6$secret-hash:19000:0:99999:7:::\n"), 0o600))

	sub := boundChart(t, "replicas: 2\n")
	require.NoError(t, os.Remove(filepath.Join(sub, "charts", "sub", "values.yaml")))
	require.NoError(t, os.Symlink(outside, filepath.Join(sub, "charts", "sub", "values.yaml")))
	top := boundChart(t, "->"+outside)
	inside := boundChart(t, "replicas: 2\n")
	require.NoError(t, os.Rename(filepath.Join(inside, "values.yaml"), filepath.Join(inside, "defaults.yaml")))
	require.NoError(t, os.Symlink("defaults.yaml", filepath.Join(inside, "values.yaml")))

	for _, tc := range []struct {
		name, dir, file string
	}{
		{"a subchart's values.yaml", sub, filepath.Join("charts", "sub", "values.yaml")},
		{"the chart's values.yaml", top, "values.yaml"},
	} {
		for _, cmd := range []string{"values", "lint"} {
			t.Run(cmd+" "+tc.name, func(t *testing.T) {
				code, out, errs := paramctl(t, "", cmd, tc.dir)
				assert.Equal(t, exitUsage, code, "stdout:\n%s\nstderr:\n%s", out, errs)
				assert.Contains(t, errs, tc.file+": a symbolic link leads outside the folder; refused")
				assert.NotContains(t, out+errs, "secret-hash")
			})
		}
	}
	code, out, errs := paramctl(t, "", "values", inside)
	assert.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "replicas: 2")
}

// TestDocLimit: the per-document bound counts from the last line that
// starts or ends a document, exactly as the stream readers split them.
func TestDocLimit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		limit int64
		ok    bool
	}{
		{"under", "a: 1\n", 10, true},
		{"over, no line break", strings.Repeat("x", 11), 10, false},
		{"two documents each under", "a: 12345\n---\nb: 12345\n", 10, true},
		{"--- with content resets", "a: 12345\n--- b\nc: 1234\n", 10, true},
		{"... ends a document", "a: 12345\n...  \nb: 12345\n", 10, true},
		{"...x is no marker", "a: 12345\n...x\nb: 12345\n", 10, false},
		{"---x is no marker", "a: 12345\n---x\nb: 12345\n", 10, false},
		{"--- with content over the limit", "a: 1\n--- " + strings.Repeat("x", 11), 10, false},
		{"--- with content just under", "a: 12345\n--- 123456789\n", 10, true},
		{"a long blank ... line", "..." + strings.Repeat(" ", 20), 10, false},
		{"CRLF markers", "a: 1234\r\n---\r\nb: 1234\r\n", 10, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One byte at a time and all at once read the same.
			for _, r := range []io.Reader{strings.NewReader(tc.in), &oneByte{s: tc.in}} {
				_, err := io.ReadAll(newDocLimit(r, tc.limit))
				if tc.ok {
					assert.NoError(t, err)
				} else {
					assert.EqualError(t, err, "holds a document larger than the limit of 10 bytes; refused")
				}
			}
		})
	}
}

type oneByte struct{ s string }

func (o *oneByte) Read(p []byte) (int, error) {
	if o.s == "" {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = o.s[0]
	o.s = o.s[1:]
	return 1, nil
}
