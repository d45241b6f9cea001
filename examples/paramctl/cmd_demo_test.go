package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoGolden keeps the demo honest: its whole output is the golden
// file (go test ./examples/paramctl -run TestDemoGolden -update rewrites
// it), it fits the 250 lines of the contract, and it names no temporary
// path.
func TestDemoGolden(t *testing.T) {
	code, out, errs := paramctl(t, "", "demo")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out, errs)
	assert.Empty(t, errs)
	golden(t, "testdata/demo.golden", out)
	assert.LessOrEqual(t, strings.Count(out, "\n"), 250, "the demo is read in two minutes")
	assert.NotContains(t, out, os.TempDir())
	assert.NotContains(t, out, "paramctl-demo-")
	// The core value comes first: types, errors, an update, immutability, oldName.
	first := strings.Index(out, "## 1. Types come from the schema")
	kudo := strings.Index(out, "KUDO")
	require.Positive(t, first)
	assert.Less(t, first, kudo)
	for _, s := range []string{"## 2. Every error at once", "## 3. An update", "## 4. An immutable", "## 5. A migration"} {
		assert.Less(t, strings.Index(out, s), kudo, s)
	}
}

func TestDemoListAndStep(t *testing.T) {
	code, out, _ := paramctl(t, "", "demo", "--list")
	assert.Equal(t, 0, code)
	assert.Equal(t, len(demoSteps), strings.Count(out, "\n"))
	assert.True(t, strings.HasPrefix(out, " 1. Types come from the schema"), out)
	assert.NotContains(t, out, "$ paramctl")

	code, out, _ = paramctl(t, "", "demo", "--step", "4")
	assert.Equal(t, 0, code)
	assert.True(t, strings.HasPrefix(out, "\n## 4. An immutable field cannot change\n"), out)
	assert.Equal(t, 1, strings.Count(out, "## "), "one step only")
	assert.Contains(t, out, "(exit 1)\n")

	for _, bad := range [][]string{{"--step", "0x"}, {"--step", "99"}, {"--step", "-1"}, {"extra"}} {
		code, _, errs := paramctl(t, "", append([]string{"demo"}, bad...)...)
		assert.Equal(t, 2, code, "%v", bad)
		assert.NotEmpty(t, errs)
	}
	_, _, errs := paramctl(t, "", "demo", "--step", "99")
	assert.Contains(t, errs, "--step 99: expected a step from 1 to 11")
}

// TestDemoCommandsWorkWhenPasted is the demo's promise: each `$ paramctl`
// line, read back as a shell would (quotes, \ continuations) and run from
// the repository root, prints exactly what the demo shows after it, and
// the (exit N) line matches.
func TestDemoCommandsWorkWhenPasted(t *testing.T) {
	var steps []string
	for n := 1; n <= len(demoSteps); n++ {
		code, out, errs := paramctl(t, "", "demo", "--step", fmt.Sprint(n))
		require.Equal(t, 0, code, errs)
		steps = append(steps, out)
	}
	t.Chdir(filepath.Join("..", ".."))
	for i, out := range steps {
		t.Run(fmt.Sprint("step ", i+1), func(t *testing.T) {
			cmd := shownCommand(t, out)
			words, err := shellSplit(cmd)
			require.NoError(t, err, cmd)
			require.Equal(t, "paramctl", words[0])
			var buf bytes.Buffer
			code := run(words[1:], strings.NewReader(""), &buf, &buf)
			want := cmd + "\n" + buf.String()
			if code != 0 {
				want += fmt.Sprintf("(exit %d)\n", code)
			}
			want += "Notice: "
			assert.Contains(t, out, want, "pasted from the repository root: %q", words)
			assert.Equal(t, demoSteps[i].wantExit, code)
		})
	}
}

// shownCommand returns the `$ paramctl …` line of a step with its
// continuation lines.
func shownCommand(t *testing.T, out string) string {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "$ paramctl ") {
			continue
		}
		j := i
		for strings.HasSuffix(lines[j], " \\") {
			j++
		}
		return strings.Join(lines[i:j+1], "\n")
	}
	t.Fatalf("no $ paramctl line in\n%s", out)
	return ""
}

// shellSplit reads a command line as a POSIX shell does for the forms the
// demo prints: "$ " prompt, words split on blanks, '…' and "…" quoting,
// \ escapes and \ line continuations.
func shellSplit(s string) ([]string, error) {
	s = strings.TrimPrefix(s, "$ ")
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i++ // continuation
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unclosed ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				} else if strings.IndexByte("$`", s[i]) >= 0 {
					return nil, fmt.Errorf("expansion in %q", s)
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unclosed \" in %q", s)
			}
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.IndexByte("$`|&;<>(){}*?[~#", c) >= 0 && !inWord || strings.IndexByte("$`|&;<>()*?[", c) >= 0:
			return nil, fmt.Errorf("unquoted shell character %q in %q", c, s)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

func TestShellQuoteRoundTrip(t *testing.T) {
	for _, args := range [][]string{
		{"update", "-p", `topology/0/labels/0={ key: "Usage", value: "newValue" }`},
		{"update", "-p", "it's=a value", "-p", "x=$HOME", "-p", "glob=*", "-p", "a=b"},
		{"lint", "examples/paramctl/demo/kep-lint-example.yaml", "--rules", "kudo,structural"},
		{"update", "--schema", strings.Repeat("long/", 20) + "s.yaml", "--values", strings.Repeat("v", 80), "-p", "", "-o", "json"},
	} {
		cmd := shellCommand(args)
		for _, l := range strings.Split(cmd, "\n") {
			assert.LessOrEqual(t, len(strings.TrimSuffix(l, " \\")), 78+len(strings.Repeat("v", 80)), l)
		}
		got, err := shellSplit(cmd)
		require.NoError(t, err, cmd)
		assert.Equal(t, append([]string{"paramctl"}, args...), got, cmd)
	}
	assert.Equal(t, "$ paramctl convert a.yaml", shellCommand([]string{"convert", "a.yaml"}))
	assert.Equal(t, `'it'\''s'`, shellQuote("it's"))
	assert.Equal(t, `''`, shellQuote(""))
}
