package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

type defaultsOpts struct {
	schema     *string
	structural *bool
	output     *string
	crdVersion *string
}

func init() {
	register(&command{
		name:  "defaults",
		usage: "--schema FILE [--structural] [--crd-version VERSION] [-o yaml|json] [FILE]",
		short: "print the values with defaults applied (from {} without FILE)",
		setup: func(fs *flag.FlagSet) any {
			return &defaultsOpts{
				schema:     fs.String("schema", "", "the parameter schema `FILE`"),
				structural: fs.Bool("structural", false, "default exactly as a kube-apiserver defaults a CRD object (no parent objects created, non-nullable nulls dropped)"),
				output:     fs.String("o", "yaml", "output `FORMAT`: yaml or json"),
				crdVersion: fs.String("crd-version", "", "with a CustomResourceDefinition as --schema, the `VERSION` whose schema defaults (default: the storage version)"),
			}
		},
		run: runDefaults,
	})
}

func runDefaults(e *env, o any, args []string) int {
	opts := o.(*defaultsOpts)
	if *opts.schema == "" || len(args) > 1 {
		return e.fail(exitUsage, "usage: paramctl defaults %s", commands["defaults"].usage)
	}
	if *opts.output != "yaml" && *opts.output != "json" {
		return e.fail(exitUsage, "-o must be yaml or json, not %q", *opts.output)
	}
	s, code := e.schemaVersionOrFail(*opts.schema, *opts.crdVersion)
	if s == nil {
		return code
	}
	var dopts []params.Option
	if *opts.structural {
		dopts = append(dopts, params.Structural())
	}
	validate := func(s *schema.Schema, v any) error { return params.Validate(s, v, dopts...) }
	// One document's verdict: its output, or its errors.
	type defaulted struct {
		out  []byte
		errs []errorRecord
		err  error // the run cannot go on (exit 1 or 2)
		code int
	}
	one := func(d params.Document[defaulted], v any) defaulted {
		v, err := params.Default(s, v, dopts...)
		if err == nil {
			err = validate(s, v)
		}
		if err != nil {
			return defaulted{errs: errorRecords(d.Locate(err))}
		}
		out, err := e.encodeValues(s, v, *opts.output)
		if err != nil {
			return defaulted{err: err, code: exitInvalid}
		}
		return defaulted{out: out}
	}
	if len(args) == 0 {
		r := one(params.Document[defaulted]{}, map[string]any{})
		switch {
		case r.err != nil:
			return e.fail(r.code, "%v", r.err)
		case r.errs != nil:
			for _, er := range r.errs {
				fmt.Fprintf(e.stderr, "%s: %s\n", displayPointer(er.Pointer), er.Message)
			}
			return exitInvalid
		}
		e.stdout.Write(r.out)
		return exitOK
	}
	defer streamGC()()
	in, err := e.openInput(args[0])
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	defer in.Close()
	// Nothing is written unless every document passed: the documents
	// wait in a spool, read and defaulted through a bounded window.
	sp, err := newSpool("")
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	defer sp.discard()
	buf := bufio.NewWriterSize(sp, 256<<10)
	invalid, docs := false, 0
	var first *defaulted
	put := func(i int, r *defaulted, many bool) {
		if r.errs != nil {
			invalid = true
			prefix := ""
			if many {
				prefix = fmt.Sprintf("doc %d: ", i)
			}
			for _, er := range r.errs {
				fmt.Fprintf(e.stderr, "%s%s: %s\n", prefix, displayPointer(er.Pointer), er.Message)
			}
			return
		}
		if i > 0 && *opts.output != "json" {
			_, _ = buf.WriteString("---\n")
		}
		_, _ = buf.Write(r.out)
	}
	err = params.MapStream(context.Background(), in, 0, func(d params.Document[defaulted]) (defaulted, error) {
		v, err := params.Decode(s, d.Text)
		if err != nil {
			// As DecodeReader says it: doc N after the first, lines of
			// the stream.
			if err = d.Locate(err); d.Index > 0 {
				err = fmt.Errorf("doc %d: %w", d.Index, err)
			}
			return defaulted{err: fmt.Errorf("%s: %w", args[0], err), code: exitUsage}, nil
		}
		return one(d, v), nil
	}, func(d params.Document[defaulted]) error {
		r := d.Value
		docs++
		if r.err != nil {
			return &codeError{code: r.code, err: r.err}
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
		return nil
	})
	var ce *codeError
	switch {
	case errors.As(err, &ce):
		return e.fail(ce.code, "%v", ce.err)
	case err != nil:
		return e.fail(exitUsage, "%v", err)
	case docs == 0:
		return e.fail(exitUsage, "%s: the input holds no document", args[0])
	}
	if first != nil {
		put(0, first, false)
	}
	if invalid {
		return exitInvalid // nothing is written unless every document passed
	}
	if err := buf.Flush(); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	if err := sp.copyTo(e.stdout); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	return exitOK
}
