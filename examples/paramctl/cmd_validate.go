package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

type validateOpts struct {
	schemas         multiFlag
	output          *string
	crdVersion      *string
	versions        *string
	old             *string
	fieldValidation *string
}

func init() {
	register(&command{
		name:  "validate",
		usage: "--schema FILE [--crd-version VERSION] [--versions DIR] [--old OLD] [--field-validation Strict|Warn|Ignore] [-o text|json] FILE...",
		short: "validate each document of each values file (a --- stream) as given (no defaults applied); Kubernetes objects against their CRDs as kube-apiserver does",
		long: `With several files, every verdict names its file: text lines start with FILE: (FILE:LINE:COL:
where the place is known), and each -o json verdict carries "file". Every file is read,
whatever the verdict on the others; the exit status is the worst one.
With --versions DIR (a version set, as migrate --versions reads it), a document that is
invalid against --schema but valid against versions of the set gets a hint naming them
and the migrate command that upgrades it (its verdict and the exit status stay the same).

With CustomResourceDefinitions as --schema (repeatable, or a folder of them) and no
--crd-version, each document that is a Kubernetes object (apiVersion, kind) is judged as
kube-apiserver judges a create (an update with --old): by the CRD of its apiVersion and
kind, identity, metadata, unknown fields (--field-validation, Strict as kubectl's
default), defaults, status and the version's schema. -o json adds "field" (the
Kubernetes field path) and "type" (the cause type) to each error, and "warnings".`,
		setup: func(fs *flag.FlagSet) any {
			o := &validateOpts{
				output:          fs.String("o", "text", "output `FORMAT`: text or json"),
				crdVersion:      fs.String("crd-version", "", "with a CustomResourceDefinition as --schema, the `VERSION` whose schema validates the documents as values (default: objects are judged by their own version; documents that are no objects by the storage version)"),
				versions:        fs.String("versions", "", "a version set `DIR` (as migrate --versions reads it): an invalid document that fits one of its versions gets a hint to upgrade it"),
				old:             fs.String("old", "", "with CRDs as --schema, the stored object(s) `OLD` (a --- stream): each object is judged as an update of the stored object of its kind, namespace and name (of its kind, when OLD holds one)"),
				fieldValidation: fs.String("field-validation", "Strict", "with CRDs as --schema, what an unknown field is, as the apiserver's fieldValidation `MODE`: Strict (an error), Warn (a warning) or Ignore; it is pruned in every mode"),
			}
			fs.Var(&o.schemas, "schema", "the parameter schema `FILE` (YAML or JSON; a v1beta1 params.yaml or OperatorVersion also works); CRDs: repeatable, or a folder of them")
			return o
		},
		run: runValidate,
	})
}

// validateResult is one document's verdict in `-o json`.
type validateResult struct {
	// File is the file of the document, when several are given.
	File     string        `json:"file,omitempty"`
	Document int           `json:"document"`
	Valid    bool          `json:"valid"`
	Errors   []errorRecord `json:"errors"`
	// Warnings are an object's warnings (Kubernetes objects only).
	Warnings *[]errorRecord `json:"warnings,omitempty"`
	// Fits names the versions of --versions an invalid document is
	// valid against, oldest first.
	Fits []string `json:"fits,omitempty"`
	// unreadable: the document cannot be read at all (exit 2).
	unreadable bool
}

type errorRecord struct {
	Pointer string `json:"pointer"`
	// Field and Type are the Kubernetes field path and cause type of an
	// object's error.
	Field   string      `json:"field,omitempty"`
	Type    string      `json:"type,omitempty"`
	Message string      `json:"message"`
	Kind    schema.Kind `json:"kind,omitempty"`
	// line and column locate the error in its file where known (text
	// output of several files).
	line, column int
}

func runValidate(e *env, o any, args []string) int {
	opts := o.(*validateOpts)
	switch {
	case len(opts.schemas) == 0:
		return e.fail(exitUsage, "validate needs --schema; usage: paramctl validate %s", commands["validate"].usage)
	case len(args) == 0:
		return e.fail(exitUsage, "validate needs the FILE of values to validate (- for standard input); usage: paramctl validate %s", commands["validate"].usage)
	}
	if *opts.output != "text" && *opts.output != "json" {
		return e.fail(exitUsage, "-o must be text or json, not %q", *opts.output)
	}
	stdin := 0
	for _, a := range args {
		if a == "-" {
			stdin++
		}
	}
	if stdin > 1 {
		return e.fail(exitUsage, "validate reads standard input (-) once, not %d times", stdin)
	}
	v := &validateRun{e: e, json: *opts.output == "json", many: len(args) > 1}
	if *opts.crdVersion == "" {
		j, code := e.loadObjectJudge(opts.schemas, *opts.old, *opts.fieldValidation)
		if code != exitOK {
			return code
		}
		v.objects = j
	}
	if v.objects == nil {
		switch {
		case len(opts.schemas) > 1:
			return e.fail(exitUsage, "validate takes several --schema only as CustomResourceDefinitions (Kubernetes objects judged by the CRD of their kind)")
		case *opts.old != "":
			return e.fail(exitUsage, "--old needs CustomResourceDefinitions as --schema (and no --crd-version)")
		}
		s, code := e.schemaVersionOrFail(opts.schemas[0], *opts.crdVersion)
		if s == nil {
			return code
		}
		v.s = s
	}
	var set *migrate.VersionSet
	if *opts.versions != "" {
		var code int
		if set, code = e.versionSetOrFail(*opts.versions, false); set == nil {
			return code
		}
	}
	defer streamGC()()
	v.set, v.versions = set, *opts.versions
	worst := exitOK
	for _, name := range args {
		c := 0
		if v.objects != nil {
			c = v.fileObjects(name)
		} else {
			c = v.file(name)
		}
		if c > worst {
			worst = c
		}
	}
	if v.n > 0 {
		fmt.Fprint(e.stdout, "\n]\n")
	}
	return worst
}

// validateRun is one validate command over its files.
type validateRun struct {
	e   *env
	s   *schema.Schema
	set *migrate.VersionSet // --versions, or nil
	// versions is the folder of set.
	versions string
	json     bool
	// many is true when several files are given: verdicts name their file.
	many bool
	n    int // verdicts printed as JSON
	// objects judges Kubernetes objects (CRDs as --schema), else nil.
	objects *objectJudge
}

// file validates the documents of one file and returns its exit status.
func (v *validateRun) file(name string) int {
	e := v.e
	in, err := e.openInput(name)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	defer in.Close()
	// Each document on its own, so that one that cannot be read does not
	// hide the verdicts on the others; verdicts are printed as they come,
	// in order, through a bounded window of documents.
	var st streamVerdicts
	file := ""
	if v.many {
		file = name
	}
	err = params.DecodeReader(context.Background(), v.s, in, 0, func(d params.Document[any]) error {
		if errors.Is(d.Err, params.ErrNoDocument) {
			return nil // said below, as a usage error (exit 2)
		}
		r := verdict(d, inputName(name))
		r.File = file
		if !r.Valid && !r.unreadable && v.set != nil {
			r.Fits, _ = v.set.Fits(d.Value) // a set LoadVersionSet made: no error
		}
		v.add(&st, r, d.Index)
		return nil
	})
	return v.finish(&st, name, err)
}

// streamVerdicts is what a file's verdicts add up to as they are shown.
type streamVerdicts struct {
	first               *validateResult // held until a second document says "doc N: "
	total               int
	invalid, unreadable bool
}

// add counts r, the verdict on document index, and shows it (the first
// only once a second one comes, to say "doc N: " or not).
func (v *validateRun) add(st *streamVerdicts, r validateResult, index int) {
	st.total++
	if !r.Valid {
		if r.unreadable {
			st.unreadable = true
		} else {
			st.invalid = true
		}
	}
	if index == 0 {
		st.first = &r
		return
	}
	if st.first != nil {
		v.show(st.first, true)
		st.first = nil
	}
	v.show(&r, true)
}

// finish shows a lone first verdict and gives the file's exit status:
// 2 for a stream that could not be read or held no document, or a
// document that could not be read; 1 for an invalid one.
func (v *validateRun) finish(st *streamVerdicts, name string, err error) int {
	e := v.e
	if st.first != nil {
		v.show(st.first, false)
	}
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	if st.total == 0 {
		fmt.Fprintf(e.stderr, "%s: the input holds no document\n", name)
		return exitUsage
	}
	switch {
	case st.unreadable:
		return exitUsage
	case st.invalid:
		return exitInvalid
	}
	return exitOK
}

// show prints one verdict: a JSON element, or text lines (valid on
// standard output, errors on standard error) starting with "doc N: " in a
// stream of several documents and with the file when several are given.
func (v *validateRun) show(r *validateResult, manyDocs bool) {
	e := v.e
	if v.json {
		e.writeValidateJSON(r, v.n == 0)
		v.n++
		return
	}
	prefix := ""
	if manyDocs {
		prefix = fmt.Sprintf("doc %d: ", r.Document)
	}
	if r.Warnings != nil {
		for _, er := range *r.Warnings {
			fmt.Fprintf(e.stderr, "%s%swarning: %s: %s\n", filePrefix(r.File, er.line, er.column), prefix, displayPointer(er.Pointer), er.Message)
		}
	}
	if r.Valid {
		fmt.Fprintf(e.stdout, "%s%svalid\n", filePrefix(r.File, 0, 0), prefix)
		return
	}
	for _, er := range r.Errors {
		fmt.Fprintf(e.stderr, "%s%s%s: %s\n", filePrefix(r.File, er.line, er.column), prefix, displayPointer(er.Pointer), er.Message)
	}
	if len(r.Fits) > 0 {
		from, to := r.Fits[len(r.Fits)-1], v.set.Hub()
		upgrade := ""
		if from != to {
			upgrade = fmt.Sprintf(": upgrade it with paramctl migrate --versions %s --from %s --to %s", v.versions, from, to)
		}
		fmt.Fprintf(e.stderr, "%s%shint: this document is %s of %s (valid against it, not against --schema)%s\n",
			filePrefix(r.File, 0, 0), prefix, strings.Join(r.Fits, ", "), v.versions, upgrade)
	}
}

// filePrefix is "FILE:LINE:COL: " (as far as known) for a named file, ""
// for none.
func filePrefix(file string, line, col int) string {
	if file == "" {
		return ""
	}
	if line > 0 {
		file += fmt.Sprintf(":%d", line)
		if col > 0 {
			file += fmt.Sprintf(":%d", col)
		}
	}
	return file + ": "
}

// verdict is a document's verdict as DecodeReader gave it; the lines of
// its errors are lines of the stream.
func verdict(d params.Document[any], file string) validateResult {
	r := validateResult{Document: d.Index, Valid: d.Err == nil, Errors: []errorRecord{}}
	if d.Err == nil {
		return r
	}
	// The entries as they are, without the "doc N: " DecodeReader puts
	// before their text: show says which document it is.
	var list schema.ErrorList
	var one *schema.Error
	if !asList(d.Err, &list) && errors.As(d.Err, &one) {
		list = schema.ErrorList{one}
	}
	r.unreadable = unreadable(d)
	if de := list[0]; r.unreadable && len(list) == 1 && (de.Kind == schema.KindSyntax || de.Kind == schema.KindLimit) {
		r.Errors = []errorRecord{{Pointer: de.Pointer, Message: decodeMessage(de, file), Kind: de.Kind, line: de.Line, column: de.Column}}
		return r
	}
	for _, e := range list {
		rec := errorRecord{Pointer: e.Pointer, Message: e.Message, Kind: e.Kind, line: e.Line, column: e.Column}
		if rec.line == 0 && !r.unreadable {
			rec.line, rec.column = d.Line, 1 // the root: where the document starts
		}
		r.Errors = append(r.Errors, rec)
	}
	return r
}

// writeValidateJSON prints one verdict as an element of the `-o json`
// array, opening the array before the first: the same text as printing
// the whole array with writeJSON.
func (e *env) writeValidateJSON(r *validateResult, first bool) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	_ = enc.Encode(r) // plain strings, ints and bools: cannot fail
	if first {
		e.stdout.Write([]byte("[\n  "))
	} else {
		e.stdout.Write([]byte(",\n  "))
	}
	e.stdout.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// readFailure returns the error that says the input cannot be read at all
// (one error of kind syntax or limit, maybe wrapped), as opposed to a
// list of problems with what was read.
func readFailure(err error) (*schema.Error, bool) {
	var list schema.ErrorList
	if asList(err, &list) {
		return nil, false
	}
	var de *schema.Error
	if errors.As(err, &de) && (de.Kind == schema.KindSyntax || de.Kind == schema.KindLimit) {
		return de, true
	}
	return nil, false
}

// decodeMessage is a read error's text without the pointer, which the
// record carries on its own: the file, then the line and column an editor
// shows, then what is wrong.
func decodeMessage(de *schema.Error, file string) string {
	msg := "cannot read " + file
	if de.Line > 0 {
		msg += fmt.Sprintf(": line %d", de.Line)
		if de.Column > 0 {
			msg += fmt.Sprintf(", column %d", de.Column)
		}
	}
	return msg + ": " + de.Message
}

// inputName is how messages name an input: its path, or standard input.
func inputName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

// errorRecords flattens any error into pointer/message records.
func errorRecords(err error) []errorRecord {
	var list schema.ErrorList
	if asList(err, &list) {
		out := make([]errorRecord, 0, len(list))
		for _, v := range list {
			out = append(out, errorRecord{Pointer: v.Pointer, Message: v.Message, Kind: v.Kind, line: v.Line, column: v.Column})
		}
		return out
	}
	return []errorRecord{{Pointer: "", Message: err.Error()}}
}

// displayPointer shows the root pointer "" visibly in text output.
func displayPointer(p string) string {
	if p == "" {
		return `""`
	}
	return p
}

// schemaOrFail loads --schema; on failure it prints every error and
// returns the exit code (2: the schema is unusable).
func (e *env) schemaOrFail(path string) (*schema.Schema, int) {
	return e.schemaVersionOrFail(path, "")
}

// insideSchema tells faults inside a well-formed schema or params file
// (a keyword of the wrong type, a refused $ref, a v1beta1 parameter that
// does not convert: kinds schema.KindSchema and KindRefused), which lint
// reports as findings, from what lint refuses too (a syntax error, a
// document that is no schema, a CRD version that does not exist).
func insideSchema(list schema.ErrorList) bool {
	for _, le := range list {
		if le.Kind == schema.KindSchema || le.Kind == schema.KindRefused {
			return true
		}
	}
	return false
}

// unreadable reports that DecodeReader could not read the document at
// all (rather than found it invalid): its Err is of kind
// schema.KindSyntax or schema.KindLimit, which validation never gives.
func unreadable(d params.Document[any]) bool {
	if d.Err == nil {
		return false
	}
	l := schema.ErrorsOf(d.Err)
	return len(l) > 0 && (l[0].Kind == schema.KindSyntax || l[0].Kind == schema.KindLimit)
}
