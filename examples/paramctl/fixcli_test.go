package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHelpHelp: `paramctl help help` is the general help, not an unknown
// command.
func TestHelpHelp(t *testing.T) {
	code, out, errs := paramctl(t, "", "help", "help")
	assert.Equal(t, exitOK, code, errs)
	assert.Empty(t, errs)
	assert.Contains(t, out, "Commands:")
	_, general, _ := paramctl(t, "", "help")
	assert.Equal(t, general, out)
}

// TestDemoStepZero: --step 0 is out of range like --step 12 (the whole
// tour is run by leaving --step out, as the help says).
func TestDemoStepZero(t *testing.T) {
	code, out, errs := paramctl(t, "", "demo", "--step", "0")
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Contains(t, errs, "--step 0: expected a step from 1 to 11")
	_, help, _ := paramctl(t, "", "help", "demo")
	assert.Contains(t, help, "--step N\n    \trun step N only, 1 to 11 (without it, the whole tour)\n")
}

// TestMistypedLongFlagSuggests: a mistyped --output is offered -o where -o
// is the command's output flag, and --output where the command has one.
func TestMistypedLongFlagSuggests(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"validate", "--outptu", "json"}, "unknown flag --outptu: did you mean -o?"},
		{[]string{"validate", "--output", "json"}, "unknown flag --output: did you mean -o?"},
		{[]string{"lint", "--ouput", "json"}, "unknown flag --ouput: did you mean -o?"},
		{[]string{"migrate", "--outptu", "x"}, "unknown flag --outptu: did you mean --output?"},
		{[]string{"webhook", "--verbos"}, "unknown flag --verbos: did you mean -v?"},
		{[]string{"update", "--patch", "x"}, "unknown flag --patch: did you mean -P?"},
		{[]string{"validate", "--schem", "x"}, "unknown flag --schem: did you mean --schema?"},
	}
	for _, tt := range tests {
		code, _, errs := paramctl(t, "", tt.args...)
		assert.Equal(t, exitUsage, code, "%v", tt.args)
		assert.Contains(t, errs, tt.want, "%v", tt.args)
	}
}

// TestRootNoteHasNoPointer: a note about the whole document (convert's
// "KUDO's first params format") is printed without the `"": ` of the root
// pointer, which errors keep.
func TestRootNoteHasNoPointer(t *testing.T) {
	code, _, errs := paramctl(t, "", "convert", "testdata/packages/first-format/params.yaml")
	assert.Equal(t, exitOK, code, errs)
	assert.Contains(t, "\n"+errs, "\nKUDO's first params format")
	assert.NotContains(t, errs, `"": `)
}

// TestFailedUpdateWarningsFirst: on a failed update the undeclared keys of
// a -P file are warnings, marked `warning:` and printed before the errors;
// with --strict they are the errors themselves.
func TestFailedUpdateWarningsFirst(t *testing.T) {
	dir := t.TempDir()
	patch := filepath.Join(dir, "patch.yaml")
	require.NoError(t, os.WriteFile(patch, []byte("nodeCnt: 3\nnodeCount: x\n"), 0o600))
	args := []string{"update", "--schema", "demo/update-schema.yaml", "--values", "demo/update-values.yaml", "-P", patch}
	code, out, errs := paramctl(t, "", args...)
	assert.Equal(t, exitInvalid, code)
	assert.Empty(t, out)
	assert.Equal(t, []string{
		`warning: /nodeCnt: "nodeCnt" is not declared by the schema; did you mean "nodeCount"?`,
		`/nodeCount: expected integer, but got string "x"`,
	}, strings.Split(strings.TrimSpace(errs), "\n"))

	code, _, errs = paramctl(t, "", append(args, "--strict")...)
	assert.Equal(t, exitInvalid, code)
	assert.NotContains(t, errs, "warning:")
	assert.Contains(t, errs, `/nodeCnt: "nodeCnt" is not declared by the schema`)
}

// TestDemoMigrationShowsADroppedValue: step 5's notice says a value whose
// name maps nowhere is reported; its input has one, and the output shows
// the report.
func TestDemoMigrationShowsADroppedValue(t *testing.T) {
	code, out, errs := paramctl(t, "", "demo", "--step", "5")
	require.Equal(t, exitOK, code, errs)
	assert.Contains(t, out, "  | NODE_COUNT: \"3\"\n")
	assert.Contains(t, out, "\ndoc 1: /NODE_COUNT: dropped (value not shown: its schema is unknown)\n")
	assert.Contains(t, out, "Notice: every document of the stream moves; NODE_COUNT maps to no parameter")
}

// TestHelpPlaceholders: every command's help names each flag's argument
// (--schema FILE, -o FORMAT, -p KEY=VALUE), never the flag package's type
// names.
func TestHelpPlaceholders(t *testing.T) {
	flagLine := regexp.MustCompile(`^  (--?[A-Za-z][A-Za-z0-9-]*)(?: (\S+))?$`)
	want := map[string]string{"--schema": "FILE", "-o": "FORMAT", "-p": "KEY=VALUE", "-P": "FILE", "--values": "FILE", "--crd-version": "VERSION"}
	for name := range commands {
		code, out, errs := paramctl(t, "", "help", name)
		require.Equal(t, exitOK, code, errs)
		for _, line := range strings.Split(out, "\n") {
			m := flagLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			switch m[2] {
			case "string", "value", "int", "int64", "uint", "uint64", "float", "duration":
				t.Errorf("paramctl help %s: %q names no placeholder", name, line)
			}
			if w, ok := want[m[1]]; ok {
				assert.Equal(t, w, m[2], "paramctl help %s: %s", name, m[1])
			}
		}
	}
}

// TestUsageLineListsEveryFlag: the one-line usage that errors print lists
// every flag the help lists, with the same placeholder (or a list of
// choices such as yaml|json), and no flag the command lacks.
func TestUsageLineListsEveryFlag(t *testing.T) {
	named := regexp.MustCompile(`(?:^|[\s\[(])(--?[A-Za-z][A-Za-z0-9-]*)( [^\s\[\]()]+)?`)
	for name, c := range commands {
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		if c.setup != nil {
			c.setup(fs)
		}
		seen := map[string]bool{}
		for _, m := range named.FindAllStringSubmatch(c.usage, -1) {
			f := fs.Lookup(strings.TrimLeft(m[1], "-"))
			if !assert.NotNil(t, f, "paramctl %s usage names %s, which it does not have: %s", name, m[1], c.usage) {
				continue
			}
			seen[f.Name] = true
			arg := strings.TrimPrefix(m[2], " ")
			if want := flagArg(f); want != "" && !strings.Contains(arg, "|") {
				assert.Equal(t, want, arg, "paramctl %s usage: %s", name, c.usage)
			}
		}
		fs.VisitAll(func(f *flag.Flag) {
			assert.True(t, seen[f.Name], "paramctl %s usage lacks %s: %s", name, flagName(f.Name), c.usage)
		})
	}
	// What the issue saw: the usage after "validate needs --schema".
	code, _, errs := paramctl(t, "", "validate", "x.yaml")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, "validate needs --schema; usage: paramctl validate --schema FILE [--crd-version VERSION] [--old OLD] [--field-validation Strict|Warn|Ignore] [-o text|json] FILE")
	_, _, errs = paramctl(t, "", "lint")
	assert.Contains(t, errs, "[--list-rules]")
}

// TestCompleteUsage: a placeholder is the help's, choices stay, a flag
// left out is added.
func TestCompleteUsage(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.String("schema", "", "the schema `FILE`")
	fs.String("o", "yaml", "output format")
	fs.Bool("strict", false, "strict")
	fs.Bool("list", false, "list")
	fs.String("gates", "", "the gates `FILE`")
	assert.Equal(t, "--schema FILE [-o yaml|json] [--strict] FILE  |  --list --gates FILE",
		completeUsage("--schema S [-o yaml|json] [--strict] FILE  |  --list --gates GATES", fs))
	assert.Equal(t, "FILE [--gates FILE] [--list] [-o FORMAT] [--schema FILE] [--strict]", completeUsage("FILE", fs))
}

// TestRefusedUpdateKeepsWarnings: an update refused for an immutable
// change still warns about the undeclared key of its -P file (a typo the
// user would otherwise never hear about), before the refusal.
func TestRefusedUpdateKeepsWarnings(t *testing.T) {
	patch := filepath.Join(t.TempDir(), "patch.yaml")
	require.NoError(t, os.WriteFile(patch, []byte("nodeCnt: 3\n"), 0o600))
	code, out, errs := paramctl(t, "", "update", "--schema", "demo/update-schema.yaml", "--values", "demo/update-values.yaml",
		"-P", patch, "-p", "storage.size=20Gi")
	assert.Equal(t, exitInvalid, code)
	assert.Empty(t, out)
	assert.Equal(t, []string{
		`warning: /nodeCnt: "nodeCnt" is not declared by the schema; did you mean "nodeCount"?`,
		`/storage/size: cannot be changed: /storage is immutable (schema /properties/storage)`,
	}, strings.Split(strings.TrimSpace(errs), "\n"))
}
