package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/edit"
	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

// pipelineFlags are the flags update and patch share.
type pipelineFlags struct {
	schema, values, output string
	defaultPlan, plans     string
	structural             bool
	strict                 bool
	write                  bool
}

func (f *pipelineFlags) declare(fs *flag.FlagSet, valuesUsage string) {
	fs.StringVar(&f.schema, "schema", "", "the parameter schema `FILE` (YAML or JSON; - for standard input)")
	fs.StringVar(&f.values, "values", "", valuesUsage)
	fs.StringVar(&f.output, "o", "yaml", "output `FORMAT`: yaml (the new values) or json ({\"values\",\"plan\",\"changed\"})")
	fs.StringVar(&f.defaultPlan, "default-plan", "", "the `PLAN` of changes no trigger covers (default \"deploy\")")
	fs.StringVar(&f.plans, "plans", "", "the operator's plan `NAMES`, comma-separated: the default plan is then \"update\" when there is one, else \"deploy\" (KUDO's rule)")
	fs.BoolVar(&f.structural, "structural", false, "default as a kube-apiserver defaults a CRD object")
	fs.BoolVar(&f.strict, "strict", false, "refuse (exit 1) keys the schema does not declare, instead of warning on standard error")
	fs.BoolVar(&f.write, "write", false, "write the change into the --values file in place (only the changed values' lines differ; comments, order and quoting stay; no default is written) instead of printing the new values")
}

type updateOptions struct {
	pipelineFlags
	patches multiFlag
	set     multiFlag
}

func init() {
	register(&command{
		name:  "update",
		usage: "--schema FILE [--values FILE [--write]] [-P FILE]... [-p KEY=VALUE]... [--default-plan PLAN] [--plans NAMES] [--structural] [--strict] [-o yaml|json]",
		short: "apply -P merge patches and -p assignments, default, validate, check immutability; print the new values (standard output) and the plan with the changed pointers (standard error)",
		setup: func(fs *flag.FlagSet) any {
			o := &updateOptions{}
			o.declare(fs, "the current values `FILE`; without it the update is an install")
			fs.Var(&o.patches, "P", "an RFC 7386 merge patch `FILE` (null deletes, arrays are replaced whole); repeatable, applied first and in order")
			fs.Var(&o.set, "p", "set `KEY=VALUE`: KEY a dotted path (\\. for a literal dot) or, when it holds /, a JSON pointer; VALUE typed by the schema; repeatable, applied in order")
			return o
		},
		run: func(e *env, opts any, args []string) int {
			o := opts.(*updateOptions)
			if len(args) > 0 {
				return e.fail(exitUsage, "update takes no positional arguments (got %q); usage: paramctl update %s", args[0], commands["update"].usage)
			}
			p, code := e.preparePipeline(&o.pipelineFlags, "update", false)
			if p == nil {
				return code
			}
			for _, name := range o.patches {
				data, err := e.readInput(name)
				if err != nil {
					return e.fail(exitUsage, "-P %s", withFile(name, err))
				}
				v, err := params.DecodePatch(p.u.Schema, data)
				if err != nil {
					return e.fail(exitUsage, "-P %s: %v", name, err)
				}
				p.u.Patches = append(p.u.Patches, v)
			}
			p.u.Set = o.set
			return e.finishPipeline(p)
		},
	})
}

// pipeline is an update being prepared from the command line.
type pipeline struct {
	u      params.Update
	output string
	// malformed starts the message of a malformed edit ("-p " for
	// update, whose assignments do not say they are -p).
	malformed string
	// write names the values file to edit in place (--write); src is
	// its text.
	write string
	src   []byte
}

// preparePipeline reads the schema and the current values and builds the
// plan resolver. On failure it returns nil and the exit status.
func (e *env) preparePipeline(f *pipelineFlags, cmd string, needValues bool) (*pipeline, int) {
	if f.schema == "" {
		return nil, e.fail(exitUsage, "%s needs --schema; usage: paramctl %s %s", cmd, cmd, commands[cmd].usage)
	}
	if needValues && f.values == "" {
		return nil, e.fail(exitUsage, "%s needs --values; usage: paramctl %s %s", cmd, cmd, commands[cmd].usage)
	}
	if f.write && (f.values == "" || f.values == "-") {
		return nil, e.fail(exitUsage, "%s --write needs --values FILE, the file to edit in place (not standard input); usage: paramctl %s %s", cmd, cmd, commands[cmd].usage)
	}
	if f.output != "yaml" && f.output != "json" {
		return nil, e.fail(exitUsage, "unknown output format %q (want yaml or json)", f.output)
	}
	s, code := e.schemaOrFail(f.schema)
	if s == nil {
		return nil, code
	}
	// A schema whose triggers conflict cannot say which plan an update
	// runs: refuse to work with it (`paramctl triggers` reports it).
	res, err := trigger.New(s, triggerOptions(f.defaultPlan, f.plans)...)
	if err != nil {
		var c schema.ErrorList
		if asList(err, &c) && len(c) > 0 && c[0].Kind == schema.KindConflict {
			for _, x := range c {
				fmt.Fprintln(e.stderr, x.Error())
			}
			return nil, e.fail(exitUsage, "%s: the schema's triggers conflict; fix them before updating", f.schema)
		}
		return nil, e.fail(exitUsage, "%s: %v", f.schema, err)
	}
	p := &pipeline{u: params.Update{Schema: s, Triggers: res, Strict: f.strict}, output: f.output, malformed: "-p "}
	if f.structural {
		p.u.Defaults = append(p.u.Defaults, params.Structural())
	}
	if f.write {
		// The file gets what the user wrote plus the change: defaults
		// still validate and plan, but none is written.
		p.write, p.u.Sparse = f.values, true
	}
	if f.values != "" {
		data, err := e.readInput(f.values)
		if err != nil {
			return nil, e.fail(exitUsage, "--values %s", withFile(f.values, err))
		}
		p.src = data
		// The current values are read as given: their validity is not
		// this update's business (DecodeReader's verdict is ignored).
		var docs []params.Document[any]
		err = params.DecodeReader(context.Background(), s, bytes.NewReader(data), 0, func(d params.Document[any]) error {
			if errors.Is(d.Err, params.ErrNoDocument) {
				return nil // empty: no values set
			}
			if unreadable(d) {
				return d.Err
			}
			docs = append(docs, d)
			return nil
		})
		if err != nil {
			return nil, e.fail(exitUsage, "--values %s: %v", f.values, err)
		}
		switch {
		case len(docs) > 1:
			return nil, e.fail(exitUsage, "--values %s: holds %d documents; the current values are one", f.values, len(docs))
		case len(docs) == 0 || docs[0].Value == nil:
			// Current values that are empty are no values set, which is
			// not an install.
			p.u.Old = map[string]any{}
		default:
			p.u.Old = docs[0].Value
		}
	}
	return p, exitOK
}

func triggerOptions(defaultPlan, plans string) []trigger.Option {
	var opts []trigger.Option
	if plans != "" {
		var names []string
		for _, n := range strings.Split(plans, ",") {
			names = append(names, strings.TrimSpace(n))
		}
		// KUDO's rule: "update" when the operator has such a plan.
		kudoDefault := trigger.Deploy
		for _, n := range names {
			if n == "update" {
				kudoDefault = n
			}
		}
		opts = append(opts, trigger.DefaultPlan(kudoDefault))
	}
	if defaultPlan != "" {
		opts = append(opts, trigger.DefaultPlan(defaultPlan))
	}
	return opts
}

// finishPipeline runs the update and prints the result or every error.
func (e *env) finishPipeline(p *pipeline) int {
	r, err := p.u.Run()
	if errors.Is(err, params.ErrMalformed) {
		// A malformed -p assignment or patch operation: a usage error.
		return e.fail(exitUsage, "%s%v", p.malformed, err)
	}
	if err != nil {
		var errs schema.ErrorList
		if asList(err, &errs) {
			// The undeclared keys that follow the errors of a failed update
			// (params.Update.Run) are warnings, unless --strict made them
			// the errors: warnings first, each marked, then the errors.
			for _, x := range errs {
				if x.Kind == schema.KindUndeclared && !p.u.Strict {
					fmt.Fprintf(e.stderr, "warning: %s\n", x.Error())
				}
			}
			for _, x := range errs {
				if x.Kind != schema.KindUndeclared || p.u.Strict {
					fmt.Fprintln(e.stderr, x.Error())
				}
			}
			return exitInvalid
		}
		return e.fail(exitInvalid, "%v", err)
	}
	// Keys the schema does not declare, with the names they may mean.
	for _, w := range r.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w.Error())
	}
	s := p.u.Schema
	if p.write != "" {
		return e.writeValues(p, r)
	}
	if p.output == "json" {
		out := updateJSON{Values: mustBytes(params.MarshalJSON(s, r.Values, "")), Changed: r.Changed}
		if r.Plan != "" {
			out.Plan = &r.Plan
		}
		return e.writeJSON(out)
	}
	out, err := params.MarshalYAML(s, r.Values)
	if err != nil {
		return e.fail(exitInvalid, "%v", err)
	}
	e.stdout.Write(out)
	// The values alone go to standard output, so pipes keep working; what
	// a person reads beside them goes to standard error.
	printPlan(e.stderr, r.Plan, r.Changed)
	return exitOK
}

// writeValues edits the --values file in place with the update's result
// (sparse: no default the user never wrote) through the atomic writer;
// nothing changed leaves the file untouched. -o json prints the report
// (with the values as written) on standard output; otherwise standard
// output stays empty and standard error says what was written.
func (e *env) writeValues(p *pipeline, r params.Result) int {
	out, err := edit.Values(p.u.Schema, p.src, p.u.Old, r.Values)
	if err != nil {
		for _, x := range schema.ErrorsOf(err) {
			fmt.Fprintf(e.stderr, "%s: %s: %s\n", p.write, displayPointer(x.Pointer), x.Message)
		}
		return exitInvalid
	}
	if !bytes.Equal(out, p.src) {
		if err := writeFileAtomic(p.write, out); err != nil {
			return e.fail(exitUsage, "--write %s", withFile(p.write, err))
		}
	}
	if p.output == "json" {
		res := updateJSON{Values: mustBytes(params.MarshalJSON(p.u.Schema, r.Values, "")), Changed: r.Changed}
		if r.Plan != "" {
			res.Plan = &r.Plan
		}
		return e.writeJSON(res)
	}
	printPlan(e.stderr, r.Plan, r.Changed)
	if bytes.Equal(out, p.src) {
		fmt.Fprintf(e.stderr, "%s: unchanged\n", p.write)
	} else {
		fmt.Fprintf(e.stderr, "%s: written\n", p.write)
	}
	return exitOK
}

// printPlan says which plan an update runs and what it changed:
// "plan: deploy (changed /nodeCount, /storage)", or that nothing changed.
func printPlan(w io.Writer, plan string, changed []string) {
	if len(changed) == 0 {
		fmt.Fprintln(w, "plan: none (nothing changed)")
		return
	}
	shown := make([]string, len(changed))
	for i, c := range changed {
		shown[i] = c
		if c == "" {
			shown[i] = `""` // the root: the whole document changed
		}
	}
	fmt.Fprintf(w, "plan: %s (changed %s)\n", plan, strings.Join(shown, ", "))
}

// updateJSON is the -o json output of update and patch; the values keep
// exact numbers and schema key order, plan is null when nothing changed.
type updateJSON struct {
	Values  json.RawMessage `json:"values"`
	Plan    *string         `json:"plan"`
	Changed []string        `json:"changed"`
}
