package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

type validateOpts struct {
	schema     *string
	output     *string
	crdVersion *string
}

func init() {
	register(&command{
		name:  "validate",
		usage: "--schema FILE [--crd-version VERSION] [-o text|json] FILE",
		short: "validate each document of a values stream as given (no defaults applied)",
		setup: func(fs *flag.FlagSet) any {
			return &validateOpts{
				schema:     fs.String("schema", "", "the parameter schema `FILE` (YAML or JSON; a v1beta1 params.yaml or OperatorVersion also works)"),
				output:     fs.String("o", "text", "output `FORMAT`: text or json"),
				crdVersion: fs.String("crd-version", "", "with a CustomResourceDefinition as --schema, the `VERSION` whose schema validates (default: the storage version)"),
			}
		},
		run: runValidate,
	})
}

// validateResult is one document's verdict in `-o json`.
type validateResult struct {
	Document int           `json:"document"`
	Valid    bool          `json:"valid"`
	Errors   []errorRecord `json:"errors"`
	// unreadable: the document cannot be read at all (exit 2).
	unreadable bool
}

type errorRecord struct {
	Pointer string      `json:"pointer"`
	Message string      `json:"message"`
	Kind    schema.Kind `json:"kind,omitempty"`
}

func runValidate(e *env, o any, args []string) int {
	opts := o.(*validateOpts)
	switch {
	case *opts.schema == "":
		return e.fail(exitUsage, "validate needs --schema; usage: paramctl validate %s", commands["validate"].usage)
	case len(args) == 0:
		return e.fail(exitUsage, "validate needs the FILE of values to validate (- for standard input); usage: paramctl validate %s", commands["validate"].usage)
	case len(args) > 1:
		return e.fail(exitUsage, "validate takes one FILE, got %d (%s); a --- stream in one file holds many documents", len(args), strings.Join(args, " "))
	}
	if *opts.output != "text" && *opts.output != "json" {
		return e.fail(exitUsage, "-o must be text or json, not %q", *opts.output)
	}
	s, code := e.schemaVersionOrFail(*opts.schema, *opts.crdVersion)
	if s == nil {
		return code
	}
	defer streamGC()()
	in, err := e.openInput(args[0])
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	defer in.Close()
	// Each document on its own, so that one that cannot be read does not
	// hide the verdicts on the others; verdicts are printed as they come,
	// in order, through a bounded window of documents.
	invalid, unreadable := false, false
	var first *validateResult // held until a second document says "doc N: "
	n, total := 0, 0          // verdicts printed as JSON, documents
	show := func(r *validateResult, many bool) {
		if *opts.output == "json" {
			e.writeValidateJSON(r, n == 0)
			n++
			return
		}
		prefix := ""
		if many {
			prefix = fmt.Sprintf("doc %d: ", r.Document)
		}
		if r.Valid {
			fmt.Fprintf(e.stdout, "%svalid\n", prefix)
			return
		}
		for _, er := range r.Errors {
			fmt.Fprintf(e.stderr, "%s%s: %s\n", prefix, displayPointer(er.Pointer), er.Message)
		}
	}
	err = params.MapStream(context.Background(), in, 0, func(d params.RawDocument) validateResult {
		return validateOne(s, d, inputName(args[0]))
	}, func(d params.RawDocument, r validateResult) error {
		total++
		if !r.Valid {
			if r.unreadable {
				unreadable = true
			} else {
				invalid = true
			}
		}
		if d.Index == 0 {
			first = &r
			return nil
		}
		if first != nil {
			show(first, true)
			first = nil
		}
		show(&r, true)
		return nil
	})
	if first != nil {
		show(first, false)
	}
	if n > 0 {
		fmt.Fprint(e.stdout, "\n]\n")
	}
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	if total == 0 {
		fmt.Fprintf(e.stderr, "%s: the input holds no document\n", args[0])
		return exitUsage
	}
	switch {
	case unreadable:
		return exitUsage
	case invalid:
		return exitInvalid
	}
	return exitOK
}

// validateOne decodes and validates one document of a stream; the lines
// of its errors are lines of the stream.
func validateOne(s *schema.Schema, d params.RawDocument, file string) validateResult {
	r := validateResult{Document: d.Index, Valid: true, Errors: []errorRecord{}}
	_, invalid, err := params.DecodeValidate(s, d.Text)
	switch {
	case err != nil:
		r.Valid, r.unreadable = false, true
		d.Locate(err)
		if de, ok := readFailure(err); ok {
			r.Errors = []errorRecord{{Pointer: de.Pointer, Message: decodeMessage(de, file), Kind: de.Kind}}
		} else {
			r.Errors = errorRecords(err)
		}
	case invalid != nil:
		r.Valid = false
		r.Errors = errorRecords(d.Locate(invalid))
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
	if errors.As(err, &list) {
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
	if errors.As(err, &list) {
		out := make([]errorRecord, 0, len(list))
		for _, v := range list {
			out = append(out, errorRecord{Pointer: v.Pointer, Message: v.Message, Kind: v.Kind})
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
