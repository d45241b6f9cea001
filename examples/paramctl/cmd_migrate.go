package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

type migrateOptions struct {
	schema     string
	via        multiFlag
	allowLossy bool
	dryRun     bool
	cont       bool
	output     string
	format     string
	// A version set instead of --schema/--via (cmd_migrate_versions.go).
	versions   string
	from, to   string
	apiVersion string
	kind       string
	ignoreCase bool
}

func init() {
	register(&command{
		name:  "migrate",
		usage: "(--schema FILE [--via FILE]... | --versions DIR --from VERSION --to VERSION [--api-version GROUP/VERSION [--kind KIND]] [--ignore-case]) [--allow-lossy] [--dry-run] [--continue] [--output FILE] [-o yaml|json] FILE",
		short: "migrate a stream of value documents to a new version by oldName",
		long: "Progress: when standard error is a terminal and the stream holds 4000 documents\n" +
			"or more, migrate shows \"migrated N of M documents\" there while it works; never\n" +
			"in pipes or CI, so redirected output stays clean.",
		setup: func(fs *flag.FlagSet) any {
			o := &migrateOptions{}
			fs.StringVar(&o.schema, "schema", "", "the schema `FILE` of the new version")
			fs.Var(&o.via, "via", "the schema `FILE` of an intermediate version, oldest first (repeatable)")
			fs.BoolVar(&o.allowLossy, "allow-lossy", false, "apply lossy type changes (number to integer) instead of refusing them")
			fs.BoolVar(&o.dryRun, "dry-run", false, "check every document and print the report; write nothing")
			fs.BoolVar(&o.cont, "continue", false, "write the documents even when some have errors")
			fs.StringVar(&o.output, "output", "", "write the documents to `FILE` (whole or not at all) instead of standard output")
			fs.StringVar(&o.versions, "versions", "", "a version set folder `DIR` (one schema per version, versions.yaml); convert --from A --to B through its hub")
			fs.StringVar(&o.from, "from", "", "with --versions: the `VERSION` of the documents")
			fs.StringVar(&o.to, "to", "", "with --versions: the `VERSION` to convert them to")
			fs.StringVar(&o.apiVersion, "api-version", "", "with --versions: the documents are Kubernetes objects; their new apiVersion (`GROUP/VERSION`)")
			fs.StringVar(&o.kind, "kind", "", "with --api-version: the objects' new `KIND`, when it changes")
			fs.BoolVar(&o.ignoreCase, "ignore-case", false, "with --versions: match property names that differ only in case")
			fs.StringVar(&o.format, "o", "yaml", "output `FORMAT`: yaml (documents; reports on standard error) or json (one report line per document)")
			return o
		},
		run: runMigrate,
	})
}

func runMigrate(e *env, raw any, args []string) int {
	o := raw.(*migrateOptions)
	if len(args) != 1 {
		return e.fail(exitUsage, "migrate needs exactly one FILE of value documents (- for standard input)")
	}
	if o.versions != "" || o.from != "" || o.to != "" || o.apiVersion != "" || o.kind != "" {
		return runMigrateVersions(e, o, args[0])
	}
	if o.schema == "" {
		return e.fail(exitUsage, "migrate needs --schema NEW")
	}
	if o.format != "yaml" && o.format != "json" {
		return e.fail(exitUsage, "-o must be yaml or json, not %q", o.format)
	}
	target, code := e.schemaOrFail(o.schema)
	if target == nil {
		return code
	}
	opts := []convert.Option{}
	if o.allowLossy {
		opts = append(opts, convert.AllowLossy())
	}
	for _, path := range o.via {
		s, code := e.schemaOrFail(path)
		if s == nil {
			return code
		}
		opts = append(opts, convert.ThroughVersions(s))
	}
	m, err := convert.NewMigration(target, opts...)
	if err != nil {
		// A schema with semantic faults (an old name claimed twice): refuse.
		return e.migrateSchemaFailure(o.schema, err)
	}
	data, err := e.readInput(args[0])
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	parts := params.SplitDocuments(data)
	if len(parts) == 0 {
		return e.fail(exitUsage, "%s: the input holds no document", args[0])
	}
	docs := make([][]byte, len(parts))
	for i, p := range parts {
		docs[i] = p.Text
	}
	results := e.migrateWithProgress(m, docs)
	for i := range results {
		for _, me := range results[i].Errors {
			if me.Line > 0 {
				me.Line += parts[i].Line - 1 // the line in the stream
			}
		}
	}
	return e.migrateFinish(o, target, docs, results)
}

// migrateFinish reports on the results of both kinds of migration and
// writes the output: nothing when a document failed (unless --continue)
// or on --dry-run, else all of it, to --output whole or not at all.
func (e *env) migrateFinish(o *migrateOptions, target *schema.Schema, docs [][]byte, results []convert.Result) int {
	status := exitOK
	failed := migrateCountFailed(results) > 0
	if failed {
		status = exitInvalid
	}
	write := !o.dryRun && (!failed || o.cont)

	if o.format == "json" {
		// Every line carries the values as migrated, errors or not; only
		// a dry run leaves them out. --output gets them only when written.
		var b bytes.Buffer
		for i := range results {
			migrateWriteJSON(&b, target, &results[i], !o.dryRun)
		}
		return e.migrateEmit(o, b.Bytes(), status, write)
	}

	report := e.stderr
	if o.dryRun {
		report = e.stdout
	}
	for i := range results {
		migrateWriteReport(report, i, len(docs) > 1, &results[i])
	}
	if o.dryRun {
		migratePrintSummary(e.stdout, results)
		return status
	}
	if !write {
		fmt.Fprintf(e.stderr, "nothing written: %s with errors (use --continue to write anyway)\n", migrateCountNoun(migrateCountFailed(results), "document"))
		return status
	}
	var b bytes.Buffer
	for i := range results {
		if i > 0 {
			b.WriteString("---\n")
		}
		r := &results[i]
		if r.Values == nil && !r.OK() {
			// Not migrated (unreadable, say): written as it was, so that
			// nothing disappears from the stream.
			b.Write(docs[i])
			if len(docs[i]) > 0 && docs[i][len(docs[i])-1] != '\n' {
				b.WriteByte('\n')
			}
			continue
		}
		y, err := params.MarshalYAML(target, r.Values)
		if err != nil {
			return e.fail(exitUsage, "doc %d: %v", i, err)
		}
		b.Write(y)
	}
	return e.migrateEmit(o, b.Bytes(), status, write)
}

// migrateEmit writes the output to --output (whole or not at all) or to
// standard output.
func (e *env) migrateEmit(o *migrateOptions, out []byte, status int, write bool) int {
	if o.output != "" && write {
		if err := migrateWriteFile(o.output, out); err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		return status
	}
	_, _ = e.stdout.Write(out)
	return status
}

// migrateWithProgress migrates on all cores; on a terminal, long runs
// show how far they are on standard error.
func (e *env) migrateWithProgress(m *convert.Migration, docs [][]byte) []convert.Result {
	const step = 2000
	if !e.stderrIsTerminal || len(docs) < 2*step {
		return convert.MigrateStream(context.Background(), m, docs, 0)
	}
	out := make([]convert.Result, 0, len(docs))
	for start := 0; start < len(docs); start += step {
		end := min(start+step, len(docs))
		out = append(out, convert.MigrateStream(context.Background(), m, docs[start:end], 0)...)
		fmt.Fprintf(e.stderr, "\rmigrated %d of %d documents", end, len(docs))
	}
	fmt.Fprint(e.stderr, "\r\033[K")
	return out
}

// migrateSchemaFailure refuses a schema with semantic faults (exit 2), one
// error a line with its pointer, as schemaOrFail reports unusable ones.
func (e *env) migrateSchemaFailure(path string, err error) int {
	var list schema.ErrorList
	if errors.As(err, &list) {
		for _, se := range list {
			fmt.Fprintf(e.stderr, "%s: %s\n", path, se.Error())
		}
		return exitUsage
	}
	return e.fail(exitUsage, "%s: %v", path, err)
}

// migrateWriteReport writes a document's report as text lines:
// POINTER: dropped VALUE, POINTER: lossy FROM -> TO, POINTER: message.
func migrateWriteReport(w io.Writer, i int, many bool, r *convert.Result) {
	prefix := ""
	if many {
		prefix = fmt.Sprintf("doc %d: ", i)
	}
	for _, d := range r.Dropped {
		fmt.Fprintf(w, "%s%s: dropped %s\n", prefix, migrateShowPtr(d.Pointer), migrateShowValue(d.Value, d.Hidden))
	}
	// A refused lossy change is also an error of the Result: one line
	// says both.
	refused := map[string]bool{}
	for _, l := range r.Lossy {
		note := ""
		if l.Refused {
			note = " (refused; --allow-lossy applies it)"
			refused[l.Pointer] = true
		}
		fmt.Fprintf(w, "%s%s: lossy %s -> %s%s\n", prefix, migrateShowPtr(l.Pointer), migrateShowValue(l.From, l.Hidden), migrateShowValue(l.To, l.Hidden), note)
	}
	for _, err := range r.Errors {
		if refused[err.Pointer] && strings.Contains(err.Message, "loses information; refused") {
			continue
		}
		fmt.Fprintf(w, "%s%s\n", prefix, err.Error())
	}
}

func migratePrintSummary(w io.Writer, results []convert.Result) {
	dropped, lossy := 0, 0
	for _, r := range results {
		dropped += len(r.Dropped)
		lossy += len(r.Lossy)
	}
	fmt.Fprintf(w, "%s checked: %d with errors, %s dropped, %s\n", migrateCountNoun(len(results), "document"),
		migrateCountFailed(results), migrateCountNoun(dropped, "value"), migrateCountNoun(lossy, "lossy change"))
}

func migrateCountFailed(results []convert.Result) int {
	n := 0
	for _, r := range results {
		if !r.OK() {
			n++
		}
	}
	return n
}

func migrateCountNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// migrateShowValue is a reported value as JSON text, or "(value hidden)"
// for a secret (writeOnly or format: password in a schema on its way).
func migrateShowValue(v any, hidden bool) []byte {
	if hidden {
		return []byte(schema.Hidden)
	}
	return params.MarshalJSON(nil, v, "")
}

func migrateShowPtr(p string) string {
	if p == "" {
		return `""`
	}
	return p
}

// migrateWriteJSON writes one JSON line:
// {"values":…,"dropped":[{"pointer","value"}],"lossy":[{"pointer","from","to","refused"}],"errors":[{"pointer","message"}]},
// without "values" when nothing is written; a secret value is left out of
// its entry, which says "hidden": true instead.
func migrateWriteJSON(b *bytes.Buffer, target *schema.Schema, r *convert.Result, withValues bool) {
	b.WriteByte('{')
	if withValues {
		b.WriteString(`"values":`)
		b.Write(params.MarshalJSON(target, r.Values, ""))
		b.WriteByte(',')
	}
	b.WriteString(`"dropped":[`)
	for i, d := range r.Dropped {
		if i > 0 {
			b.WriteByte(',')
		}
		if d.Hidden { // a secret: no "value", "hidden": true
			fmt.Fprintf(b, `{"pointer":%s,"hidden":true}`, params.MarshalJSON(nil, d.Pointer, ""))
			continue
		}
		fmt.Fprintf(b, `{"pointer":%s,"value":%s}`, params.MarshalJSON(nil, d.Pointer, ""), params.MarshalJSON(nil, d.Value, ""))
	}
	b.WriteString(`],"lossy":[`)
	for i, l := range r.Lossy {
		if i > 0 {
			b.WriteByte(',')
		}
		if l.Hidden { // a secret: no "from" or "to", "hidden": true
			fmt.Fprintf(b, `{"pointer":%s,"hidden":true,"refused":%t}`, params.MarshalJSON(nil, l.Pointer, ""), l.Refused)
			continue
		}
		fmt.Fprintf(b, `{"pointer":%s,"from":%s,"to":%s,"refused":%t}`, params.MarshalJSON(nil, l.Pointer, ""),
			params.MarshalJSON(nil, l.From, ""), params.MarshalJSON(nil, l.To, ""), l.Refused)
	}
	b.WriteString(`],"errors":[`)
	for i, err := range r.Errors {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, `{"pointer":%s,"message":%s`, params.MarshalJSON(nil, err.Pointer, ""), params.MarshalJSON(nil, err.Message, ""))
		if err.Line > 0 {
			fmt.Fprintf(b, `,"line":%d`, err.Line)
		}
		if err.Kind != "" {
			fmt.Fprintf(b, `,"kind":%s`, params.MarshalJSON(nil, string(err.Kind), ""))
		}
		b.WriteByte('}')
	}
	b.WriteString("]}\n")
}

// migrateWriteFile writes a file whole or not at all: a temporary file in
// the same directory, synced, then renamed over the target.
func migrateWriteFile(path string, data []byte) (err error) {
	mode := os.FileMode(0o644)
	if fi, statErr := os.Stat(path); statErr == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err = f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp, mode); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
