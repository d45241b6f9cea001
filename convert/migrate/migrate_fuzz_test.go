package migrate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/paramkit/paramkit/internal/value"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// fuzzTargets are the schemas FuzzMigrate migrates documents to.
func fuzzTargets(t testing.TB) []*Migration {
	var out []*Migration
	for _, name := range []string{"kep", "nested", "maps", "types", "baremetal"} {
		s, err := parseSchemaFile(filepath.Join("testdata/migrate/pairs", name, "new.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func addInputSeeds(f *testing.F) {
	files, _ := filepath.Glob("testdata/migrate/cases/*/input.yaml")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err == nil {
			f.Add(data)
		}
	}
	for _, s := range fastYAMLSeeds {
		f.Add([]byte(s))
	}
}

// FuzzMigrate migrates any document to several schemas: no panic, every
// scalar of the input is in the output or reported dropped, and the
// output can be written as YAML.
func FuzzMigrate(f *testing.F) {
	addInputSeeds(f)
	targets := fuzzTargets(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		in, _, err := decodeForMigration(data, nil)
		for _, m := range targets {
			r := got(m.MigrateDocument(data))
			if err != nil {
				if len(r.Errors) != 1 || r.Values != nil {
					t.Fatalf("unreadable input: want one error, got %v", r.Errors)
				}
				continue
			}
			nothingDisappears(t, migResolve(nil, in), r)
			if _, err := params.MarshalYAML(m.Target(), r.Values); err != nil {
				t.Fatalf("output does not encode: %v", err)
			}
			// What MigrateDocument reuses must not be in what it returned.
			before := copyResult(r)
			for _, other := range fastYAMLSeeds[:2] {
				got(m.MigrateDocument([]byte(other)))
			}
			if !reflect.DeepEqual(before, r) {
				t.Fatalf("a later document changed this result:\nwas %#v\nnow %#v", before, r)
			}
		}
	})
}

// copyResult copies everything a Result refers to.
func copyResult(r outcome) outcome {
	c := outcome{Result{Values: value.DeepCopy(r.Values), Dropped: slices.Clone(r.Dropped), Lossy: slices.Clone(r.Lossy)}, slices.Clone(r.Errors)}
	for i := range c.Dropped {
		c.Dropped[i].Value = value.DeepCopy(c.Dropped[i].Value)
	}
	for i := range c.Lossy {
		c.Lossy[i].From, c.Lossy[i].To = value.DeepCopy(c.Lossy[i].From), value.DeepCopy(c.Lossy[i].To)
	}
	return c
}

// FuzzMigrateSchema builds migrations from any schema and migrates any
// document with them: no panic, and the accounting holds.
func FuzzMigrateSchema(f *testing.F) {
	files, _ := filepath.Glob("testdata/migrate/pairs/*/new.yaml")
	inputs, _ := filepath.Glob("testdata/migrate/cases/*/input.yaml")
	for i, file := range files {
		s, _ := os.ReadFile(file)
		d, _ := os.ReadFile(inputs[i%len(inputs)])
		f.Add(s, d)
	}
	f.Add([]byte("properties: {a: {oldName: /x/0, type: integer}, b: {items: {oldName: y}}}"), []byte("x: [1.5]\n"))
	f.Fuzz(func(t *testing.T, schemaText, data []byte) {
		s, err := schema.Parse(schemaText)
		if err != nil {
			return
		}
		m, err := New(s, AllowLossy())
		if err != nil {
			return
		}
		in, _, err := decodeForMigration(data, nil)
		r := got(m.MigrateDocument(data))
		if err == nil {
			nothingDisappears(t, migResolve(nil, in), r)
		}
	})
}

// FuzzRoundTrip: from any seed, generated values of every schema pair,
// with YAML plain scalar text under keys no node types, go down and up
// (and up and down) unchanged in lossless mode.
func FuzzRoundTrip(f *testing.F) {
	f.Add(uint64(1), uint8(0), false)
	f.Add(uint64(2), uint8(3), true)
	dirs := pairDirs(f)
	var ms []*Migration
	var olds, news []*schema.Schema
	for _, dir := range dirs {
		old, new := loadPair(f, dir)
		m, err := New(new, FromVersion(old), Lossless())
		if err != nil {
			f.Fatal(err)
		}
		ms, olds, news = append(ms, m), append(olds, old), append(news, new)
	}
	f.Fuzz(func(t *testing.T, seed uint64, pair uint8, upFirst bool) {
		i := int(pair) % len(ms)
		start, there, back := news[i], ms[i].Down, ms[i].Migrate
		if upFirst {
			start, there, back = olds[i], ms[i].Migrate, ms[i].Down
		}
		rnd := newTestRand(seed)
		x, err := randomValue(start, rnd)
		if err != nil {
			t.Fatal(err)
		}
		x = withPlainScalars(start.Root(), x, rnd)
		mid, _ := there(x)
		end, _ := back(mid.Values)
		got := end.Values
		if !identical(got, plainScalarsMeaning(x)) {
			t.Fatalf("%s: round trip changed %s into %s", dirs[i], show(x), show(got))
		}
	})
}

// fastYAMLSeeds are the documents that hold the reader's fast path to the
// YAML parser: the usual shapes of value documents and the edges of the
// fast path.
var fastYAMLSeeds = func() []string {
	var out []string
	data, err := os.ReadFile("../../internal/document/testdata/fast-seeds.json")
	if err == nil {
		err = json.Unmarshal(data, &out)
	}
	if err != nil {
		panic(err)
	}
	return out
}()
