package migrate

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// Golden files are rewritten with `go test ./convert -update`. The flag is
// registered only if no other test file of the package did.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files under testdata")
	}
}

func migUpdating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func migGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if migUpdating() {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden file missing: run go test ./convert -update")
	require.Equal(t, string(want), string(got), "output differs from %s (go test ./convert -update rewrites it)", path)
}

// migCase is one directory under testdata/migrate/cases: schema.yaml (the
// target), optional from.yaml (the oldest version) and via-N.yaml (the
// intermediate versions, oldest first), input.yaml (a stream of value
// documents), an optional flags file (allow-lossy, lossless, down: one a
// line) and the golden want.txt.
type migCase struct {
	dir    string
	target *schema.Schema
	from   *schema.Schema
	via    []*schema.Schema
	flags  map[string]bool
}

func loadMigCase(t *testing.T, dir string) *migCase {
	c := &migCase{dir: dir, flags: map[string]bool{}}
	var err error
	c.target, err = parseSchemaFile(filepath.Join(dir, "schema.yaml"))
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(dir, "from.yaml")); err == nil {
		c.from, err = parseSchemaFile(filepath.Join(dir, "from.yaml"))
		require.NoError(t, err)
	}
	vias, _ := filepath.Glob(filepath.Join(dir, "via-*.yaml"))
	sort.Strings(vias)
	for _, v := range vias {
		s, err := parseSchemaFile(v)
		require.NoError(t, err)
		c.via = append(c.via, s)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "flags")); err == nil {
		for _, f := range strings.Fields(string(data)) {
			c.flags[f] = true
		}
	}
	return c
}

func (c *migCase) options() []Option {
	var opts []Option
	if c.from != nil {
		opts = append(opts, FromVersion(c.from))
	}
	if len(c.via) > 0 {
		opts = append(opts, ThroughVersions(c.via...))
	}
	if c.flags["allow-lossy"] {
		opts = append(opts, AllowLossy())
	}
	if c.flags["lossless"] {
		opts = append(opts, Lossless())
	}
	return opts
}

// renderResult writes a Result the way the golden files show it: the
// values as YAML in the schema's order, then one comment line per report
// entry.
func renderResult(t *testing.T, out *schema.Schema, r outcome) string {
	var b strings.Builder
	y, err := params.MarshalYAML(out, r.Values)
	require.NoError(t, err)
	b.Write(y)
	for _, d := range r.Dropped {
		fmt.Fprintf(&b, "# dropped %s: %s\n", showPointer(d.Pointer), encode.JSON(d.Value, nil, ""))
	}
	for _, l := range r.Lossy {
		refused := ""
		if l.Refused {
			refused = " (refused)"
		}
		fmt.Fprintf(&b, "# lossy %s: %s -> %s%s\n", showPointer(l.Pointer), encode.JSON(l.From, nil, ""), encode.JSON(l.To, nil, ""), refused)
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "# error %s\n", e.Error())
	}
	return b.String()
}

func TestMigrateGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/migrate/cases/*")
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			c := loadMigCase(t, dir)
			var b strings.Builder
			m, err := New(c.target, c.options()...)
			if err != nil {
				fmt.Fprintf(&b, "schema refused:\n%s\n", err)
				migGolden(t, filepath.Join(dir, "want.txt"), []byte(b.String()))
				return
			}
			input, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
			require.NoError(t, err)
			for i, doc := range document.Texts(input) {
				fmt.Fprintf(&b, "--- # doc %d\n", i)
				if c.flags["down"] {
					v, err := params.Decode(c.target, doc)
					require.NoError(t, err)
					b.WriteString(renderResult(t, c.from, got(m.Down(v))))
					continue
				}
				b.WriteString(renderResult(t, c.target, got(m.MigrateDocument(doc))))
			}
			migGolden(t, filepath.Join(dir, "want.txt"), []byte(b.String()))
		})
	}
}
