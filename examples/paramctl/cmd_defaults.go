package main

import (
	"flag"
	"fmt"

	"github.com/paramkit/paramkit/params"
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
	docs := []params.Document{{Value: map[string]any{}}}
	if len(args) == 1 {
		if docs, code = e.valuesOrFail(s, args[0]); docs == nil {
			return code
		}
	}
	var dopts []params.DefaultOption
	if *opts.structural {
		dopts = append(dopts, params.Structural())
	}
	outs := make([][]byte, 0, len(docs))
	invalid := false
	for _, d := range docs {
		v := params.Default(s, d.Value, dopts...)
		validate := params.Validate
		if *opts.structural {
			validate = params.ValidateStructural
		}
		if err := validate(s, v); err != nil {
			invalid = true
			prefix := ""
			if len(docs) > 1 {
				prefix = fmt.Sprintf("doc %d: ", d.Index)
			}
			for _, r := range errorRecords(err) {
				fmt.Fprintf(e.stderr, "%s%s: %s\n", prefix, displayPointer(r.Pointer), r.Message)
			}
			continue
		}
		out, err := e.encodeValues(s, v, *opts.output)
		if err != nil {
			return e.fail(exitInvalid, "%v", err)
		}
		outs = append(outs, out)
	}
	if invalid {
		return exitInvalid // nothing is written unless every document passed
	}
	e.writeStream(outs, *opts.output)
	return exitOK
}
