package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
)

// TestMigrateVersionsKeepsPlainText: a YAML plain scalar that no schema
// types (an undeclared key, or anything under a free-form object) keeps
// the text its author wrote through migrate --versions: in the output, in
// the property bag of a down-conversion and in the report of what was
// dropped. Where a schema node types it (code is a string in v2), that
// node decides, as always. Back up again, the bag gives every text back.
func TestMigrateVersionsKeepsPlainText(t *testing.T) {
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
	// The only change is the one v2's schema asks for: code is a string.
	assert.Equal(t, strings.Replace(string(in), "code: 007", `code: "007"`, 1), up, "v2 → v1 → v2 gives back what was written")

	// JSON has no plain scalars: -o json gives what each text means (YAML
	// 1.2 core rules), in the values, the bag and the report alike.
	code, js, report := paramctl(t, "", "migrate", "--versions", set, "--from", "v2", "--to", "v1", "-o", "json", input)
	require.Equal(t, 0, code, report)
	assertVersionsGolden(t, "text-v1.golden.json", js)
}

// FuzzPlainScalarsAsWritten: values that hold text no node types, written
// as YAML by migrate --versions, read back as the same values: each text
// as written, or, where YAML cannot write it plain, quoted as the string
// it means anyway; other values as what they mean.
func FuzzPlainScalarsAsWritten(f *testing.F) {
	for _, s := range []string{"a: 007\nb: [yes, 0x1F, ~, 9007199254740993, 1.10]\n", "a: -x\nb: :x\nc: a,b\nd: x]\n",
		"a: \"a\\tb\"\nb: a\tb\n", "a:\nb: [~, '', null]\n", "a: x\n\n  y\n", "- 1\n- {a: yes}\n", "plain\n", "a: 'q'\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := convert.Decode(nil, data)
		if err != nil {
			return
		}
		y, err := params.MarshalYAML(nil, plainScalarsAsWritten(v, nil))
		if err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		back, err := convert.Decode(nil, y)
		if err != nil {
			t.Fatalf("%q wrote %q, which does not read back: %v", data, y, err)
		}
		var walk func(w, g any, p string)
		walk = func(w, g any, p string) {
			switch x := w.(type) {
			case convert.PlainScalar:
				if p == "" && value.Equal(x.Value(), g) {
					return // a whole document that reads as JSON (-0) means what JSON says
				}
				if g != x && g != x.Value() {
					t.Fatalf("%q wrote %q: %s: %#v came back as %#v", data, y, p, x, g)
				}
			case map[string]any:
				gm, ok := g.(map[string]any)
				if !ok || len(gm) != len(x) {
					t.Fatalf("%q wrote %q: %s: %#v came back as %#v", data, y, p, w, g)
				}
				for k, e := range x {
					walk(e, gm[k], p+"/"+k)
				}
			case []any:
				ga, ok := g.([]any)
				if !ok || len(ga) != len(x) {
					t.Fatalf("%q wrote %q: %s: %#v came back as %#v", data, y, p, w, g)
				}
				for i, e := range x {
					walk(e, ga[i], fmt.Sprintf("%s/%d", p, i))
				}
			default:
				// A plain value written plain reads back as text meaning it.
				if gs, ok := g.(convert.PlainScalar); ok {
					g = gs.Value()
				}
				if !value.Equal(w, g) {
					t.Fatalf("%q wrote %q: %s: %#v came back as %#v", data, y, p, w, g)
				}
			}
		}
		walk(v, back, "")
	})
}
