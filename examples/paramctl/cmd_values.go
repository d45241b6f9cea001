package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/paramkit/paramkit/lint"
	"github.com/paramkit/paramkit/params"
)

type valuesOptions struct {
	files  multiFlag
	sets   map[string]*multiFlag
	output string
}

// helmSetFlags are Helm's --set family, as paramctl values takes them.
var helmSetFlags = []string{"set", "set-string", "set-json", "set-file", "set-literal"}

func init() {
	register(&command{
		name:  "values",
		usage: "CHART [-f FILE]... [--set K=V]... [--set-string K=V]... [--set-json K=JSON]... [--set-file K=PATH]... [--set-literal K=V]... [-o yaml|json]",
		short: "print the values Helm computes for a chart and judge them as helm template does; exit 1 on a schema error",
		long: `The values are read, merged and checked exactly as Helm v4 does: values.yaml, then each
-f FILE in order, then --set-json, --set, --set-string, --set-file and --set-literal (Helm's
order, whatever the order on the command line), each by Helm's own --set parser; a null
removes a key values.yaml has. YAML is read as Helm reads it (yes and on are booleans,
1.10 is the number 1.1), not typed by the schema as -p values are.

Exit 0: the values pass values.schema.json (printed on standard output, keys sorted, as
Helm's toYaml writes them). Exit 1: they do not; each error on standard error as
FILE:LINE:COL: POINTER: message, in the file (or --set) that wrote the value. Exit 2: the
chart, a file or a --set cannot be read. Warnings (a duplicate key) go to standard error.`,
		setup: func(fs *flag.FlagSet) any {
			o := &valuesOptions{sets: map[string]*multiFlag{}}
			fs.Var(&o.files, "f", "a values `FILE` layered over values.yaml, as helm -f takes it (repeatable; - is standard input)")
			fs.Var(&o.files, "values", "the same as -f")
			for _, name := range helmSetFlags {
				m := &multiFlag{}
				o.sets[name] = m
				placeholder := map[string]string{"set": "K=V", "set-string": "K=V", "set-json": "K=JSON", "set-file": "K=PATH", "set-literal": "K=V"}[name]
				fs.Var(m, name, "`"+placeholder+"`: as helm --"+name+" (repeatable; Helm applies --set-json, --set, --set-string, --set-file, --set-literal in that order)")
			}
			fs.StringVar(&o.output, "o", "yaml", "output `FORMAT`: yaml or json")
			return o
		},
		run: runValues,
	})
}

func runValues(e *env, opts any, args []string) int {
	o := opts.(*valuesOptions)
	if len(args) != 1 {
		return e.fail(exitUsage, "values needs one CHART folder\nusage: paramctl values %s", commands["values"].usage)
	}
	if o.output != "yaml" && o.output != "json" {
		return e.fail(exitUsage, "-o must be yaml or json, not %q", o.output)
	}
	dir := chartDir(args[0])
	if dir == "" {
		return e.fail(exitUsage, "%s: not a Helm chart folder (it holds no %s)", args[0], chartFile)
	}
	chart, err := readChart(dir)
	if err != nil {
		return e.fail(exitUsage, "%s: %v", dir, err)
	}
	chart.ValuesFile = filepath.Join(dir, chartValuesFile)
	chart.SchemaFile = filepath.Join(dir, chartSchemaFile)
	for _, f := range o.files {
		data, err := e.readInput(f)
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		narrowGCHeadroom(len(data))
		chart.ExtraValues = append(chart.ExtraValues, lint.ValuesFile{Name: f, Data: data})
	}
	for _, name := range helmSetFlags {
		for _, v := range *o.sets[name] {
			chart.Sets = append(chart.Sets, lint.HelmSet{Flag: name, Value: v})
		}
	}
	chart.ReadFile = e.readInput
	values, findings, err := chart.HelmValues()
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	failed := writeValuesFindings(e.stderr, findings)
	if failed {
		return exitInvalid
	}
	if o.output == "json" {
		_, err = e.stdout.Write(append(mustBytes(params.MarshalJSON(nil, values, "  ")), '\n'))
	} else {
		// Written a part at a time: a large values file's text is never
		// held whole beside its values.
		err = params.WriteYAML(nil, e.stdout, values)
	}
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	return exitOK
}

// writeValuesFindings writes each finding as FILE:LINE:COL: POINTER:
// severity: message and reports whether any is an error.
func writeValuesFindings(w io.Writer, fs []lint.Finding) bool {
	failed := false
	for _, f := range fs {
		where := f.File
		if f.Line > 0 {
			where += fmt.Sprintf(":%d", f.Line)
			if f.Column > 0 {
				where += fmt.Sprintf(":%d", f.Column)
			}
		}
		fmt.Fprintf(w, "%s: %s: %s: %s\n", where, displayPointer(f.Pointer), f.Severity, strings.TrimSpace(f.Message))
		if f.Severity == lint.Error {
			failed = true
		}
	}
	return failed
}
