package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// The files of a chart paramctl schema reads and writes.
const (
	chartValuesName = "values.yaml"
	chartSchemaName = "values.schema.json"
)

type schemaOptions struct {
	schema   string
	write    bool
	check    bool
	fresh    bool
	closed   bool
	ci       bool
	overlays multiFlag
}

func init() {
	register(&command{
		name:  "schema",
		usage: "CHART|VALUES [-f FILE]... [--ci=false] [--closed] [--schema FILE] [--write | --check] [--fresh]",
		short: "write values.schema.json from a chart's values.yaml, or add to it the keys values.yaml gained",
		long: `The schema never refuses what the chart accepts. Types are the ones Helm gives the values
(values.yaml read as Helm reads it: yes and on are booleans, 1.10 is the number 1.1), joined
with the evidence of every source: keys values.yaml declares in comments ("# key: value",
helm-docs' "# key -- text"), helm-docs' "# -- (int)" types, each -f FILE and the chart's
ci/*.yaml (--ci=false leaves them out). A key whose only values are "", [], {} or null
gets no type; beside other evidence, its empty value stays allowed. Each property gets a
title made from its key, a description from helm-docs' "# --" comment above it (else
bitnami's "## @param PATH text", else the first paragraph of a plain comment above it),
and its value as default (not the empty values cluster-app R18 forbids, and not the value
of a key that reads as a secret: that property is writeOnly, and standard error says so).
The schema is draft 2020-12, open at the root; --closed closes it (global stays allowed:
Helm adds it to a subchart's values).

When the schema file exists (CHART/values.schema.json, or --schema FILE), it is updated in
place: keys new in values.yaml, its comments or the overlays are added by the same rules
(a null one too), every other byte of the file stays; keys the schema declares and
values.yaml lacks are kept. Nothing is printed for what did not change. --fresh ignores
the existing file.

Prints the schema; --write writes it (atomically); --check writes nothing and exits 1
when --write would change the file. Exit 1 also when a key could not be added; 2 when
values.yaml, an overlay or the schema cannot be read.`,
		setup: func(fs *flag.FlagSet) any {
			o := &schemaOptions{ci: true}
			fs.StringVar(&o.schema, "schema", "", "the schema `FILE` to update or write (default: values.schema.json beside values.yaml)")
			fs.BoolVar(&o.write, "write", false, "write the schema file instead of printing it")
			fs.BoolVar(&o.check, "check", false, "exit 1 when the schema file is missing keys of values.yaml (writes nothing)")
			fs.BoolVar(&o.fresh, "fresh", false, "generate from values.yaml alone, ignoring an existing schema file")
			fs.BoolVar(&o.closed, "closed", false, "close the root (additionalProperties: false), global still allowed")
			fs.BoolVar(&o.ci, "ci", true, "read the chart's ci/*.yaml as evidence of keys and types (--ci=false: not)")
			fs.Var(&o.overlays, "f", "a values `FILE` Helm may be given (-f): evidence of keys and types (repeatable)")
			fs.Var(&o.overlays, "values", "the same as -f")
			return o
		},
		run: runSchema,
	})
}

func runSchema(e *env, opts any, args []string) int {
	o := opts.(*schemaOptions)
	usage := "\nusage: paramctl schema " + commands["schema"].usage
	if len(args) != 1 {
		return e.fail(exitUsage, "schema takes one chart folder or values file"+usage)
	}
	if o.write && o.check {
		return e.fail(exitUsage, "--write and --check exclude each other: --write updates the file, --check only compares")
	}
	valuesPath := args[0]
	if fi, err := os.Stat(valuesPath); err == nil && fi.IsDir() {
		valuesPath = filepath.Join(valuesPath, chartValuesName)
	}
	schemaPath := o.schema
	if schemaPath == "" && valuesPath != "-" {
		schemaPath = filepath.Join(filepath.Dir(valuesPath), chartSchemaName)
	}
	if schemaPath == "" && (o.write || o.check) {
		return e.fail(exitUsage, "values from standard input: name the schema file with --schema")
	}
	data, err := e.readInput(valuesPath)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	src := schemaSources{closed: o.closed}
	if o.closed && valuesPath != "-" {
		src.rootKeys = dependencyKeys(filepath.Dir(valuesPath))
	}
	overlays := slices.Clone(o.overlays)
	if o.ci && valuesPath != "-" {
		ci, _ := filepath.Glob(filepath.Join(filepath.Dir(valuesPath), "ci", "*.yaml"))
		overlays = append(overlays, ci...)
	}
	for _, f := range overlays {
		od, err := e.readInput(f)
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		ov, err := readHelmValues(od)
		if err != nil {
			return e.fail(exitUsage, "%s: Helm cannot read the values: %v", f, err)
		}
		src.overlays = append(src.overlays, overlayValues{name: f, values: ov})
	}
	gen, err := generateSchemaFrom(data, src)
	if err != nil {
		return e.fail(exitUsage, "%s: Helm cannot read the values: %v", valuesPath, err)
	}
	fresh, err := renderSchema(gen.root)
	if err != nil {
		return e.fail(exitUsage, "%s: %v", valuesPath, err)
	}

	var existing []byte
	if schemaPath != "" && !o.fresh {
		existing, err = e.readInput(schemaPath)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return e.fail(exitUsage, "%v", err)
		}
		if err != nil {
			existing = nil
		}
	}
	out, code := fresh, exitOK
	secrets := gen.secrets
	if existing != nil {
		up, err := updateSchema(existing, gen.root)
		if err != nil {
			return e.fail(exitUsage, "%s: %v", schemaPath, err)
		}
		for _, p := range up.added {
			fmt.Fprintf(e.stderr, "%s: %s: added\n", schemaPath, p)
		}
		secrets = up.secrets
		for _, f := range up.failed {
			fmt.Fprintf(e.stderr, "%s: %s\n", schemaPath, f)
		}
		if len(up.failed) > 0 {
			return e.fail(exitInvalid, "%s: nothing written: %d key(s) could not be added", schemaPath, len(up.failed))
		}
		out = up.out
	}

	name := schemaPath
	if name == "" {
		name = "schema"
	}
	for _, p := range secrets {
		fmt.Fprintf(e.stderr, "%s: %s: reads as a secret: its value is not written as default (writeOnly: true)\n", name, p)
	}

	switch {
	case o.check:
		if existing == nil && !o.fresh {
			return e.fail(exitInvalid, "%s: missing: paramctl schema --write creates it", schemaPath)
		}
		var cur []byte
		if o.fresh {
			if cur, err = e.readInput(schemaPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return e.fail(exitUsage, "%v", err)
			}
		} else {
			cur = existing
		}
		if !bytes.Equal(cur, out) {
			return e.fail(exitInvalid, "%s: stale: paramctl schema --write updates it", schemaPath)
		}
		return exitOK
	case o.write:
		if existing != nil && bytes.Equal(existing, out) {
			fmt.Fprintf(e.stderr, "%s: up to date\n", schemaPath)
			return code
		}
		if err := writeFileAtomic(schemaPath, out); err != nil {
			return e.fail(exitUsage, "%s: %v", schemaPath, err)
		}
		fmt.Fprintf(e.stderr, "%s: written\n", schemaPath)
		return code
	}
	if _, err := e.stdout.Write(out); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	return code
}
