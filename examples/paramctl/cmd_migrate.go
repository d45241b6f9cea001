package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/paramkit/paramkit/convert/migrate"
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
	force      bool
}

func init() {
	register(&command{
		name:  "migrate",
		usage: "(--schema FILE [--via FILE]... | --versions DIR --from VERSION --to VERSION [--api-version GROUP/VERSION [--kind KIND]] [--ignore-case]) [--allow-lossy] [--dry-run] [--continue] [--output FILE [--force]] [-o yaml|json] FILE",
		short: "migrate a stream of value documents to a new version by oldName",
		long: "Progress: when standard error is a terminal and the stream holds 4000 documents\n" +
			"or more, migrate shows \"migrated N of M documents\" there while it works; never\n" +
			"in pipes or CI, so redirected output stays clean. For standard input, where M\n" +
			"is not known, it shows \"migrated N documents\" once N reaches 4000.",
		setup: func(fs *flag.FlagSet) any {
			o := &migrateOptions{}
			fs.StringVar(&o.schema, "schema", "", "the schema `FILE` of the new version")
			fs.Var(&o.via, "via", "the schema `FILE` of an intermediate version, oldest first (repeatable)")
			fs.BoolVar(&o.allowLossy, "allow-lossy", false, "apply lossy type changes (number to integer) instead of refusing them")
			fs.BoolVar(&o.dryRun, "dry-run", false, "check every document and print the report; write nothing")
			fs.BoolVar(&o.cont, "continue", false, "write the documents even when some have errors")
			fs.StringVar(&o.output, "output", "", "write the documents to `FILE` (whole or not at all) instead of standard output")
			fs.BoolVar(&o.force, "force", false, "with --output: replace FILE even when it is read-only, or its owner cannot be kept")
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
	opts := []migrate.Option{}
	if o.allowLossy {
		opts = append(opts, migrate.AllowLossy())
	}
	for _, path := range o.via {
		s, code := e.schemaOrFail(path)
		if s == nil {
			return code
		}
		opts = append(opts, migrate.ThroughVersions(s))
	}
	m, err := migrate.New(target, opts...)
	if err != nil {
		// A schema with semantic faults (an old name claimed twice): refuse.
		return e.migrateSchemaFailure(o.schema, err)
	}
	// paramctl gives the migration no schema of the input's own version:
	// a value that the first schema on the way does not declare has no
	// known schema, so it may be a secret and is not shown.
	var first *schema.Schema
	if len(o.via) > 0 {
		first, _ = e.schemaOrFail(o.via[0])
	}
	return e.migrateStreamed(o, target, args[0], func(doc []byte) (migrate.Result, schema.ErrorList, error) {
		r, err := m.MigrateDocument(doc)
		hideUnknownDrops(&r, first)
		return r, schema.ErrorsOf(err), nil
	})
}

// notShown stands as the Value of a dropped value whose schema is
// unknown: no schema of the version it comes from was given, so nothing
// says whether it is a secret, and it is not printed.
type notShown struct{}

// hideUnknownDrops marks the dropped values of r whose schema is unknown:
// every one when first (the oldest schema given, --via's first) is nil,
// else those first does not declare (dropped before reaching it).
func hideUnknownDrops(r *migrate.Result, first *schema.Schema) {
	for i := range r.Dropped {
		d := &r.Dropped[i]
		if d.Hidden || first != nil && first.Lookup(d.Pointer) != nil {
			continue
		}
		d.Value = notShown{}
	}
}

// unknownDropNote says how to see dropped values that were not shown.
const unknownDropNote = "note: a dropped value is not shown when its schema is unknown (it may be a secret); give the schema the values were written for as the first --via FILE to see it"

// migrated is one document's result with its output, made by a worker:
// the documents as YAML, or the `-o json` line.
type migrated struct {
	res  migrate.Result
	errs schema.ErrorList // the document's errors (res as migrate.Result says)
	out  []byte
	err  error // the run cannot go on (exit 2)
}

// migrateStreamed migrates the stream in file with conv (a document's
// Result, its errors, and an error that stops the run), on all cores
// through a bounded window of documents, then reports and writes as
// migrateFinish says: nothing when a document failed (unless --continue)
// or on --dry-run, else all of it, to --output whole or not at all.
// Reports go out as documents come; documents held back until every one
// passed are spooled to a temporary file (beside --output, renamed into
// place at the end).
func (e *env) migrateStreamed(o *migrateOptions, target *schema.Schema, file string, conv func([]byte) (migrate.Result, schema.ErrorList, error)) int {
	defer streamGC()()
	in, err := e.openInput(file)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	defer in.Close()
	total := -1 // documents in the stream, where known (progress)
	if e.stderrIsTerminal && file != "-" {
		total = countDocuments(file)
	}

	// Where the documents (or JSON lines) go: straight out when the
	// contract prints them whatever happens, else to a spool.
	var out io.Writer
	var sp *spool
	switch {
	case o.format == "json" && (o.dryRun || o.output == ""):
		out = e.stdout
	case o.dryRun:
	default:
		if sp, err = newSpool(o.output, e.writeOptions(o.force)...); err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		defer sp.discard() // after commit or copyTo: nothing left to remove
	}
	var buf *bufio.Writer
	if sp != nil {
		buf = bufio.NewWriterSize(sp, 256<<10)
		out = buf
	}
	report := e.stderr
	if o.dryRun {
		report = e.stdout
	}

	var st migrateStats
	var first *migrated // held until a second document says "doc N: "
	put := func(i int, r *migrated, many bool) {
		st.add(&r.res, r.errs)
		if o.format != "json" {
			migrateWriteReport(report, i, many, &r.res, r.errs)
		}
		if out != nil && r.out != nil {
			if o.format != "json" && i > 0 {
				_, _ = io.WriteString(out, "---\n")
			}
			_, _ = out.Write(r.out)
		}
	}
	err = params.MapStream(context.Background(), in, 0, func(d params.Document[migrated]) (migrated, error) {
		res, errs, err := conv(d.Text)
		if err != nil {
			return migrated{err: err}, nil
		}
		d.Locate(errs.Err())
		r := migrated{res: res, errs: errs}
		switch {
		case o.format == "json":
			var b bytes.Buffer
			migrateWriteJSON(&b, target, &r.res, r.errs, !o.dryRun)
			r.out = b.Bytes()
		case o.dryRun:
		case res.Values == nil && len(errs) > 0:
			// Not migrated (unreadable, say): written as it was, so that
			// nothing disappears from the stream.
			r.out = d.Text
			if len(r.out) > 0 && r.out[len(r.out)-1] != '\n' {
				r.out = append(r.out, '\n')
			}
		default:
			y, err := params.MarshalYAML(target, res.Values)
			if err != nil {
				return migrated{err: fmt.Errorf("doc %d: %v", d.Index, err)}, nil
			}
			r.out = y
		}
		return r, nil
	}, func(d params.Document[migrated]) error {
		r := d.Value
		if r.err != nil {
			return r.err
		}
		if d.Index == 0 {
			first = &r
			return nil
		}
		if first != nil {
			put(0, first, true)
			first = nil
		}
		put(d.Index, &r, true)
		if e.stderrIsTerminal && (d.Index+1)%2000 == 0 && (total < 0 && d.Index+1 >= 4000 || total >= 4000) {
			e.migrateProgress(d.Index+1, total)
		}
		return nil
	})
	if first != nil {
		put(0, first, false)
	}
	if e.stderrIsTerminal && (total >= 4000 || total < 0 && st.docs >= 4000) {
		e.migrateProgress(st.docs, total)
		fmt.Fprint(e.stderr, "\r\033[K")
	}
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if st.unknown > 0 {
		fmt.Fprintln(e.stderr, unknownDropNote)
	}
	if st.docs == 0 {
		return e.fail(exitUsage, "%s: the input holds no document", file)
	}
	status := exitOK
	if st.failed > 0 {
		status = exitInvalid
	}
	write := !o.dryRun && (st.failed == 0 || o.cont)
	if o.format != "json" && o.dryRun {
		st.printSummary(e.stdout)
		return status
	}
	if o.format != "json" && !write {
		fmt.Fprintf(e.stderr, "nothing written: %s with errors (use --continue to write anyway)\n", migrateCountNoun(st.failed, "document"))
		return status
	}
	if sp == nil {
		return status
	}
	if err := buf.Flush(); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if o.output != "" && write {
		err = sp.commit()
	} else {
		err = sp.copyTo(e.stdout)
	}
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	return status
}

// migrateProgress shows how far a long run is, on a terminal.
func (e *env) migrateProgress(done, total int) {
	if total < 0 {
		fmt.Fprintf(e.stderr, "\rmigrated %d documents", done)
		return
	}
	fmt.Fprintf(e.stderr, "\rmigrated %d of %d documents", done, total)
}

// countDocuments counts the documents of a file, reading it as a stream
// (for progress; -1 when it cannot be read).
func countDocuments(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return -1
	}
	defer f.Close()
	n := 0
	err = params.MapStream(context.Background(), newDocLimit(f, maxInputSize), 1, func(params.Document[struct{}]) (struct{}, error) {
		return struct{}{}, nil
	}, func(params.Document[struct{}]) error {
		n++
		return nil
	})
	if err != nil {
		return -1
	}
	return n
}

// migrateStats counts what the reports said.
type migrateStats struct {
	docs, failed, dropped, lossy int
	unknown                      int // dropped values not shown (notShown)
}

func (st *migrateStats) add(r *migrate.Result, errs schema.ErrorList) {
	st.docs++
	if len(errs) > 0 {
		st.failed++
	}
	st.dropped += len(r.Dropped)
	for _, d := range r.Dropped {
		if _, ok := d.Value.(notShown); ok {
			st.unknown++
		}
	}
	st.lossy += len(r.Lossy)
}

func (st *migrateStats) printSummary(w io.Writer) {
	fmt.Fprintf(w, "%s checked: %d with errors, %s dropped, %s\n", migrateCountNoun(st.docs, "document"),
		st.failed, migrateCountNoun(st.dropped, "value"), migrateCountNoun(st.lossy, "lossy change"))
}

// migrateSchemaFailure refuses a schema with semantic faults (exit 2), one
// error a line with its pointer, as schemaOrFail reports unusable ones.
func (e *env) migrateSchemaFailure(path string, err error) int {
	var list schema.ErrorList
	if asList(err, &list) {
		for _, se := range list {
			fmt.Fprintf(e.stderr, "%s: %s\n", path, se.Error())
		}
		return exitUsage
	}
	return e.fail(exitUsage, "%s: %v", path, err)
}

// migrateWriteReport writes a document's report as text lines:
// POINTER: dropped VALUE, POINTER: lossy FROM -> TO, POINTER: message.
func migrateWriteReport(w io.Writer, i int, many bool, r *migrate.Result, errs schema.ErrorList) {
	prefix := ""
	if many {
		prefix = fmt.Sprintf("doc %d: ", i)
	}
	for _, d := range r.Dropped {
		if _, ok := d.Value.(notShown); ok {
			fmt.Fprintf(w, "%s%s: dropped (value not shown: its schema is unknown)\n", prefix, migrateShowPtr(d.Pointer))
			continue
		}
		fmt.Fprintf(w, "%s%s: dropped %s\n", prefix, migrateShowPtr(d.Pointer), migrateShowValue(d.Value, d.Hidden))
	}
	// A refused lossy change is also one of the errors: one line says
	// both.
	refused := map[string]bool{}
	for _, l := range r.Lossy {
		note := ""
		if l.Refused {
			note = " (refused; --allow-lossy applies it)"
			refused[l.Pointer] = true
		}
		fmt.Fprintf(w, "%s%s: lossy %s -> %s%s\n", prefix, migrateShowPtr(l.Pointer), migrateShowValue(l.From, l.Hidden), migrateShowValue(l.To, l.Hidden), note)
	}
	for _, err := range errs {
		if refused[err.Pointer] && strings.Contains(err.Message, "loses information; refused") {
			continue
		}
		fmt.Fprintf(w, "%s%s\n", prefix, err.Error())
	}
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
	return mustBytes(params.MarshalJSON(nil, v, ""))
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
func migrateWriteJSON(b *bytes.Buffer, target *schema.Schema, r *migrate.Result, errs schema.ErrorList, withValues bool) {
	b.WriteByte('{')
	if withValues {
		b.WriteString(`"values":`)
		b.Write(mustBytes(params.MarshalJSON(target, r.Values, "")))
		b.WriteByte(',')
	}
	b.WriteString(`"dropped":[`)
	for i, d := range r.Dropped {
		if i > 0 {
			b.WriteByte(',')
		}
		if _, unknown := d.Value.(notShown); d.Hidden || unknown { // a secret, or maybe one: no "value", "hidden": true
			fmt.Fprintf(b, `{"pointer":%s,"hidden":true}`, mustBytes(params.MarshalJSON(nil, d.Pointer, "")))
			continue
		}
		fmt.Fprintf(b, `{"pointer":%s,"value":%s}`, mustBytes(params.MarshalJSON(nil, d.Pointer, "")), mustBytes(params.MarshalJSON(nil, d.Value, "")))
	}
	b.WriteString(`],"lossy":[`)
	for i, l := range r.Lossy {
		if i > 0 {
			b.WriteByte(',')
		}
		if l.Hidden { // a secret: no "from" or "to", "hidden": true
			fmt.Fprintf(b, `{"pointer":%s,"hidden":true,"refused":%t}`, mustBytes(params.MarshalJSON(nil, l.Pointer, "")), l.Refused)
			continue
		}
		fmt.Fprintf(b, `{"pointer":%s,"from":%s,"to":%s,"refused":%t}`, mustBytes(params.MarshalJSON(nil, l.Pointer, "")),
			mustBytes(params.MarshalJSON(nil, l.From, "")), mustBytes(params.MarshalJSON(nil, l.To, "")), l.Refused)
	}
	b.WriteString(`],"errors":[`)
	for i, err := range errs {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, `{"pointer":%s,"message":%s`, mustBytes(params.MarshalJSON(nil, err.Pointer, "")), mustBytes(params.MarshalJSON(nil, err.Message, "")))
		if err.Line > 0 {
			fmt.Fprintf(b, `,"line":%d`, err.Line)
		}
		if err.Kind != "" {
			fmt.Fprintf(b, `,"kind":%s`, mustBytes(params.MarshalJSON(nil, string(err.Kind), "")))
		}
		b.WriteByte('}')
	}
	b.WriteString("]}\n")
}
