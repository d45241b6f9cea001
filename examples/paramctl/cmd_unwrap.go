package main

import (
	"flag"

	"github.com/paramkit/paramkit/schema"
)

type unwrapOpts struct {
	schema *string
	guess  *bool
	output *string
}

func init() {
	register(&command{
		name:  "unwrap",
		usage: "(--schema FILE | --guess) [-o yaml|json] FILE",
		short: "type v1beta1 instance parameters (a flat map of strings, or an Instance; a --- stream of them) by the schema; --guess works without one",
		setup: func(fs *flag.FlagSet) any {
			return &unwrapOpts{
				schema: fs.String("schema", "", "the parameter schema `FILE` (v1beta2, or a v1beta1 params.yaml or OperatorVersion)"),
				guess:  fs.Bool("guess", false, "no schema: guess by safe rules and report every guess on standard error"),
				output: fs.String("o", "yaml", "output `FORMAT`: yaml or json"),
			}
		},
		run: runUnwrap,
	})
}

func runUnwrap(e *env, o any, args []string) int {
	opts := o.(*unwrapOpts)
	usage := "usage: paramctl unwrap " + commands["unwrap"].usage
	if len(args) != 1 || (*opts.schema == "") == !*opts.guess {
		return e.fail(exitUsage, usage)
	}
	if *opts.output != "yaml" && *opts.output != "json" {
		return e.fail(exitUsage, "-o must be yaml or json, not %q", *opts.output)
	}
	var s *schema.Schema
	if !*opts.guess {
		var code int
		if s, code = e.schemaOrFail(*opts.schema); s == nil {
			return code
		}
	}
	return e.unwrapRun(args[0], s, *opts.output, false)
}
