package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

type validateOpts struct {
	schema *string
	output *string
}

func init() {
	register(&command{
		name:  "validate",
		usage: "--schema S [-o text|json] FILE",
		short: "validate each document of a values stream as given (no defaults applied)",
		setup: func(fs *flag.FlagSet) any {
			return &validateOpts{
				schema: fs.String("schema", "", "the parameter schema (YAML or JSON; a v1beta1 params.yaml or OperatorVersion also works)"),
				output: fs.String("o", "text", "output format: text or json"),
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
	Pointer string `json:"pointer"`
	Message string `json:"message"`
}

func runValidate(e *env, o any, args []string) int {
	opts := o.(*validateOpts)
	if *opts.schema == "" || len(args) != 1 {
		return e.fail(exitUsage, "usage: paramctl validate --schema S [-o text|json] FILE")
	}
	if *opts.output != "text" && *opts.output != "json" {
		return e.fail(exitUsage, "-o must be text or json, not %q", *opts.output)
	}
	s, code := e.schemaOrFail(*opts.schema)
	if s == nil {
		return code
	}
	docs, code := e.valuesOrFail(s, args[0])
	if docs == nil {
		return code
	}
	results := make([]validateResult, 0, len(docs))
	invalid := false
	for _, d := range docs {
		r := validateResult{Document: d.Index, Valid: true, Errors: []errorRecord{}}
		if err := params.Validate(s, d.Value); err != nil {
			r.Valid = false
			invalid = true
			r.Errors = errorRecords(err)
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
	if invalid {
		return exitInvalid
	}
	return exitOK
}

// errorRecords flattens any error into pointer/message records.
func errorRecords(err error) []errorRecord {
	var list schema.ValidationErrors
	if errors.As(err, &list) {
		out := make([]errorRecord, 0, len(list))
		for _, v := range list {
			out = append(out, errorRecord{Pointer: v.Pointer, Message: v.Message})
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
	s, err := loadSchema(e, path)
	if err != nil {
		var list schema.ErrorList
		if errors.As(err, &list) {
			for _, le := range list {
				fmt.Fprintf(e.stderr, "%s: %s\n", path, le.Error())
			}
		} else {
			fmt.Fprintf(e.stderr, "%s: %v\n", path, err)
		}
		return nil, exitUsage
	}
	return s, exitOK
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
