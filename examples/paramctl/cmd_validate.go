package main

import (
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
		usage: "--schema S [--crd-version V] [-o text|json] FILE",
		short: "validate each document of a values stream as given (no defaults applied)",
		setup: func(fs *flag.FlagSet) any {
			return &validateOpts{
				schema:     fs.String("schema", "", "the parameter schema (YAML or JSON; a v1beta1 params.yaml or OperatorVersion also works)"),
				output:     fs.String("o", "text", "output format: text or json"),
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
		return e.fail(exitUsage, "validate needs --schema; usage: paramctl validate --schema S [-o text|json] FILE")
	case len(args) == 0:
		return e.fail(exitUsage, "validate needs the FILE of values to validate (- for standard input); usage: paramctl validate --schema S [-o text|json] FILE")
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
	data, err := e.readInput(args[0])
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	parts := params.SplitDocuments(data)
	if len(parts) == 0 {
		fmt.Fprintf(e.stderr, "%s: the input holds no document\n", args[0])
		return exitUsage
	}
	// Each document on its own, so that one that cannot be read does not
	// hide the verdicts on the others.
	results := make([]validateResult, 0, len(parts))
	invalid, unreadable := false, false
	for i, part := range parts {
		r := validateResult{Document: i, Valid: true, Errors: []errorRecord{}}
		v, err := params.Decode(s, part.Text)
		switch {
		case err != nil:
			r.Valid, unreadable = false, true
			if de, ok := readFailure(err); ok {
				if de.Line > 0 {
					de.Line += part.Line - 1 // the line in the stream
				}
				r.Errors = []errorRecord{{Pointer: de.Pointer, Message: decodeMessage(de, inputName(args[0])), Kind: de.Kind}}
			} else {
				r.Errors = errorRecords(err)
			}
		default:
			if err := params.Validate(s, v); err != nil {
				r.Valid, invalid = false, true
				r.Errors = errorRecords(err)
			}
		}
		results = append(results, r)
	}
	if *opts.output == "json" {
		e.writeJSON(results)
	} else {
		for _, r := range results {
			prefix := ""
			if len(results) > 1 {
				prefix = fmt.Sprintf("doc %d: ", r.Document)
			}
			if r.Valid {
				fmt.Fprintf(e.stdout, "%svalid\n", prefix)
				continue
			}
			for _, er := range r.Errors {
				fmt.Fprintf(e.stderr, "%s%s: %s\n", prefix, displayPointer(er.Pointer), er.Message)
			}
		}
	}
	switch {
	case unreadable:
		return exitUsage
	case invalid:
		return exitInvalid
	}
	return exitOK
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

// valuesOrFail reads a values stream typed by the schema; an unreadable
// file or malformed YAML/JSON is exit 2.
func (e *env) valuesOrFail(s *schema.Schema, path string) ([]params.Document, int) {
	data, err := e.readInput(path)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return nil, exitUsage
	}
	docs, err := params.DecodeStream(s, data)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", path, err)
		return nil, exitUsage
	}
	if len(docs) == 0 {
		fmt.Fprintf(e.stderr, "%s: the input holds no document\n", path)
		return nil, exitUsage
	}
	return docs, exitOK
}
