package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// TestMigrateVersionsPlainText: a YAML plain scalar that the source
// version does not type keeps its text until a node types it: code: 007
// is "007" where the target declares code a string. Text no node types
// (an undeclared key, anything under a free-form object) is what YAML 1.2
// core rules say (007 is 7, yes is "yes", ~ is null, 1.10 the exact number
// 1.10), in the output, the property bag of a down-conversion and the
// report of what was dropped. v2 → v1 → v2 gives back the values the
// document means.
func TestMigrateVersionsPlainText(t *testing.T) {
	set := filepath.Join("testdata", "versions", "text-set")
	input := filepath.Join("testdata", "versions", "text-v2.yaml")

	code, down, report := paramctl(t, "", "migrate", "--versions", set, "--from", "v2", "--to", "v1", input)
	require.Equal(t, 0, code, report)
	assertVersionsGolden(t, "text-v1.golden.yaml", down)
	assertVersionsGolden(t, "text-v1.report.golden.txt", report)

	code, up, report := paramctl(t, down, "migrate", "--versions", set, "--from", "v1", "--to", "v2", "-")
	require.Equal(t, 0, code, report)
	assert.Empty(t, report)
	assertVersionsGolden(t, "text-v2.golden.yaml", up)
	in, err := os.ReadFile(input)
	require.NoError(t, err)
	v2 := loadTextSchema(t, "v2")
	want, err := params.Decode(v2, in)
	require.NoError(t, err)
	got, err := params.Decode(v2, []byte(up))
	require.NoError(t, err)
	assert.True(t, params.Identical(want, got), "v2 → v1 → v2 gives back what the document means\nwant: %v\ngot:  %v", want, got)
	assert.Contains(t, up, "code: \"007\"\n", "v2's string node types the text")

	// JSON gives the same values.
	code, js, report := paramctl(t, "", "migrate", "--versions", set, "--from", "v2", "--to", "v1", "-o", "json", input)
	require.Equal(t, 0, code, report)
	assertVersionsGolden(t, "text-v1.golden.json", js)

	// Up from v1, where code is not declared: v2's string node types it.
	code, up, report = paramctl(t, "", "migrate", "--versions", set, "--from", "v1", "--to", "v2", filepath.Join("testdata", "versions", "text-v1.yaml"))
	require.Equal(t, 0, code, report)
	assertVersionsGolden(t, "text-v1-up.golden.yaml", up)
	assertVersionsGolden(t, "text-v1-up.report.golden.txt", report)
}

func loadTextSchema(t testing.TB, name string) *schema.Schema {
	t.Helper()
	s, err := parseSchemaFile(filepath.Join("testdata", "versions", "text-set", name+".yaml"))
	require.NoError(t, err)
	return s
}

// FuzzMigrateVersionsText: any stream of v2 documents that migrate
// --versions converts to v1 comes back to v2 through the YAML it wrote as
// the values it meant (the property bag keeps what v1 cannot hold), when
// it was valid for v2.
func FuzzMigrateVersionsText(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "versions", "text-v2.yaml"))
	require.NoError(f, err)
	f.Add(seed)
	for _, s := range []string{"a: 007\nb: [yes, 0x1F, ~, 9007199254740993, 1.10]\n", "a: -x\nb: :x\nc: a,b\nd: x]\n",
		"a: \"a\\tb\"\nb: a\tb\n", "a:\nb: [~, '', null]\n", "a: x\n\n  y\n", "- 1\n- {a: yes}\n", "plain\n", "a: 'q'\n",
		"code: 007\nextra: {a: 1.10}\n---\nname: x\nreplicaCount: 0x1F\n", `{"code": "7", "legacy": 7}`} {
		f.Add([]byte(s))
	}
	v2 := loadTextSchema(f, "v2")
	set := filepath.Join("testdata", "versions", "text-set")
	f.Fuzz(func(t *testing.T, data []byte) {
		code, down, _ := paramctl(t, string(data), "migrate", "--versions", set, "--from", "v2", "--to", "v1", "-")
		if code != 0 {
			return
		}
		var wants []any
		valid := true
		err := params.DecodeReader(context.Background(), v2, bytes.NewReader(data), 0, func(d params.Document[any]) error {
			if unreadable(d) {
				t.Fatalf("%q converted, but does not read: %v", data, d.Err)
			}
			valid = valid && d.Err == nil
			wants = append(wants, d.Value)
			return nil
		})
		require.NoError(t, err)
		code, up, report := paramctl(t, down, "migrate", "--versions", set, "--from", "v1", "--to", "v2", "-")
		if !valid {
			return
		}
		if code != 0 {
			t.Fatalf("%q wrote %q, which does not come back: %s", data, down, report)
		}
		var docs []params.Document[any]
		require.NoError(t, params.DecodeReader(context.Background(), v2, strings.NewReader(up), 0, func(d params.Document[any]) error {
			docs = append(docs, d)
			return nil
		}))
		if len(docs) != len(wants) {
			t.Fatalf("%q: %d documents came back as %d: %q", data, len(wants), len(docs), up)
		}
		for i, doc := range docs {
			got, err := doc.Value, doc.Err
			if unreadable(doc) || !params.Identical(got, wants[i]) {
				t.Fatalf("%q → %q → %q: document %d: %#v came back as %#v (%v)", data, down, up, i, wants[i], got, err)
			}
		}
	})
}

// TestMigrateVersionsWritesAllOrNothing: migrate --versions shares the
// write rules of migrate --schema: a stream with a failing document writes
// nothing unless --continue, --dry-run writes nothing, and --continue
// writes every document, the failing one as it was.
func TestMigrateVersionsWritesAllOrNothing(t *testing.T) {
	set := filepath.Join("testdata", "versions", "text-set")
	stream := "name: a\nreplicaCount: 3\n---\nname: [unclosed\n"
	for _, c := range []struct {
		name     string
		args     []string
		written  bool
		stdout   string
		stderr   string
		inOutput []string
	}{
		{name: "failing document", stderr: "nothing written: 1 document with errors"},
		{name: "dry run", args: []string{"--dry-run", "--continue"}, stdout: "2 documents checked: 1 with errors"},
		{name: "continue", args: []string{"--continue"}, written: true, inOutput: []string{"name: a\n", "---\nname: [unclosed\n"}},
		{name: "json without continue", args: []string{"-o", "json"}, stdout: `"errors"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.yaml")
			args := append([]string{"migrate", "--versions", set, "--from", "v2", "--to", "v1", "--output", out}, c.args...)
			code, stdout, stderr := paramctl(t, stream, append(args, "-")...)
			assert.Equal(t, exitInvalid, code, stderr)
			assert.Contains(t, stdout, c.stdout)
			assert.Contains(t, stderr, c.stderr)
			data, err := os.ReadFile(out)
			if !c.written {
				assert.True(t, os.IsNotExist(err), "nothing is written: %v", err)
				return
			}
			require.NoError(t, err)
			for _, s := range c.inOutput {
				assert.Contains(t, string(data), s)
			}
		})
	}
}

// TestMigrateVersionsNamesTheLineInTheStream: a document that cannot be
// read names the line an editor shows in the whole stream.
func TestMigrateVersionsNamesTheLineInTheStream(t *testing.T) {
	code, _, report := paramctl(t, "name: a\n---\nname: [x\n", "migrate", "--versions", "demo/versions-set", "--from", "v1", "--to", "v3", "-")
	require.Equal(t, 1, code)
	assert.Contains(t, report, "doc 1: line 3: the '[' here is never closed")
}
