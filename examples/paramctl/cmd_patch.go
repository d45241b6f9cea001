package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/paramkit/paramkit/params"
)

// rawOp is one --add/--remove/--replace as typed, kept in command-line
// order across the three flags.
type rawOp struct {
	op  params.Op
	arg string
}

type patchOptions struct {
	pipelineFlags
	ops []rawOp
}

func init() {
	register(&command{
		name:  "patch",
		usage: "--schema FILE --values FILE [--add PATH=VALUE]... [--remove PATH]... [--replace PATH=VALUE]... [--default-plan PLAN] [--plans NAMES] [--structural] [--strict] [-o yaml|json]",
		short: "apply RFC 6902 add/remove/replace operations in order, then the same checks as update",
		setup: func(fs *flag.FlagSet) any {
			o := &patchOptions{}
			o.declare(fs, "the current values `FILE` (required)")
			op := func(name params.Op) func(string) error {
				return func(arg string) error {
					o.ops = append(o.ops, rawOp{name, arg})
					return nil
				}
			}
			fs.Func("add", "add `PATH=VALUE`: on an array appends, on an array index inserts, on an object member sets; PATH in the -p forms (- appends)", op(params.OpAdd))
			fs.Func("remove", "remove the value at `PATH`", op(params.OpRemove))
			fs.Func("replace", "replace the existing value at `PATH=VALUE`", op(params.OpReplace))
			return o
		},
		run: func(e *env, opts any, args []string) int {
			o := opts.(*patchOptions)
			if len(args) > 0 {
				return e.fail(exitUsage, "patch takes no positional arguments (got %q); usage: paramctl patch %s", args[0], commands["patch"].usage)
			}
			p, code := e.preparePipeline(&o.pipelineFlags, "patch", true)
			if p == nil {
				return code
			}
			bad := false
			for _, r := range o.ops {
				x, err := params.ParseOperation(r.op, r.arg)
				if errors.Is(err, params.ErrMalformed) {
					return e.fail(exitUsage, "--%s %v", r.op, err)
				}
				if err != nil {
					fmt.Fprintf(e.stderr, "--%s %v\n", r.op, err)
					bad = true
					continue
				}
				p.u.Operations = append(p.u.Operations, x)
			}
			if bad {
				return exitInvalid
			}
			return e.finishPipeline(p)
		},
	})
}
