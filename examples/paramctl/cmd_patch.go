package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

type patchOptions struct {
	pipelineFlags
	ops       []string // "add PATH=VALUE", "remove PATH", "replace PATH=VALUE", in command-line order
	jsonPatch string
}

func init() {
	register(&command{
		name:  "patch",
		usage: "--schema FILE --values FILE [--write] [--add PATH=VALUE]... [--remove PATH]... [--replace PATH=VALUE]... [--json-patch FILE] [--default-plan PLAN] [--plans NAMES] [--structural] [--strict] [-o yaml|json]",
		short: "apply add/remove/replace operations in order (or an RFC 6902 JSON Patch file), then the same checks as update",
		setup: func(fs *flag.FlagSet) any {
			o := &patchOptions{}
			o.declare(fs, "the current values `FILE` (required)")
			op := func(name string) func(string) error {
				return func(arg string) error {
					o.ops = append(o.ops, name+" "+arg)
					return nil
				}
			}
			fs.Func("add", "add `PATH=VALUE`: on an array appends, on an array index inserts, on an object member sets; PATH in the -p forms (- appends), VALUE text typed by the schema as with -p", op("add"))
			fs.Func("remove", "remove the value at `PATH`", op("remove"))
			fs.Func("replace", "replace the existing value at `PATH=VALUE`", op("replace"))
			fs.StringVar(&o.jsonPatch, "json-patch", "", "apply the RFC 6902 JSON Patch `FILE` (a JSON array of operations, - for standard input): all six operations, pointers as RFC 6901 reads them, values exactly as JSON gives them; not with --add, --remove or --replace")
			return o
		},
		run: func(e *env, opts any, args []string) int {
			o := opts.(*patchOptions)
			if len(args) > 0 {
				return e.fail(exitUsage, "patch takes no positional arguments (got %q); usage: paramctl patch %s", args[0], commands["patch"].usage)
			}
			if o.jsonPatch != "" && len(o.ops) > 0 {
				return e.fail(exitUsage, "--json-patch cannot be combined with --add, --remove or --replace: put the operations in the patch file")
			}
			p, code := e.preparePipeline(&o.pipelineFlags, "patch", true)
			if p == nil {
				return code
			}
			p.malformed = "" // the operation's own text says which it is
			if o.jsonPatch == "" {
				p.u.Operations = o.ops
				return e.finishPipeline(p)
			}
			data, err := e.readInput(o.jsonPatch)
			if err != nil {
				return e.fail(exitUsage, "--json-patch %s", withFile(o.jsonPatch, err))
			}
			v, err := params.ApplyJSONPatch(p.u.Schema, p.u.Old, data)
			if err != nil {
				// A patch that is no JSON, or no patch, is a usage error;
				// what it does to the values (a path that names nothing,
				// a failed test, an invalid result) is a refusal.
				code := exitInvalid
				list := schema.ErrorsOf(err)
				if errors.Is(err, params.ErrMalformed) || len(list) > 0 && list[0].Kind == schema.KindSyntax {
					code = exitUsage
				}
				for _, x := range list {
					fmt.Fprintf(e.stderr, "%s: %s\n", displayPointer(x.Pointer), x.Message)
				}
				return code
			}
			// The patched values are the whole new state: defaults,
			// validation, immutability and the plan as for any update.
			p.u.Desired = v
			return e.finishPipeline(p)
		},
	})
}
