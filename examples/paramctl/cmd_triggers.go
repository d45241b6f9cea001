package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/schema"
	"github.com/paramkit/paramkit/trigger"
)

type triggersOptions struct {
	schema, output     string
	defaultPlan, plans string
	crdVersion         string
}

func init() {
	register(&command{
		name:  "triggers",
		usage: "--schema FILE [--default-plan PLAN] [--plans NAMES] [--crd-version VERSION] [-o text|json]",
		short: "check trigger inheritance and print each parameter's effective plan",
		setup: func(fs *flag.FlagSet) any {
			o := &triggersOptions{}
			fs.StringVar(&o.schema, "schema", "", "the parameter schema `FILE` (YAML or JSON; - for standard input)")
			fs.StringVar(&o.output, "o", "text", "output `FORMAT`: text (POINTER<TAB>PLAN lines) or json")
			fs.StringVar(&o.defaultPlan, "default-plan", "", "the `PLAN` of parameters no trigger covers (default \"deploy\")")
			fs.StringVar(&o.crdVersion, "crd-version", "", "with a CustomResourceDefinition as --schema, the `VERSION` whose schema to read (default: the storage version)")
			fs.StringVar(&o.plans, "plans", "", "the operator's plan `NAMES`, comma-separated: the default plan is then \"update\" when there is one, else \"deploy\" (KUDO's rule)")
			return o
		},
		run: func(e *env, opts any, args []string) int {
			o := opts.(*triggersOptions)
			if len(args) > 0 {
				return e.fail(exitUsage, "triggers takes no positional arguments (got %q); usage: paramctl triggers %s", args[0], commands["triggers"].usage)
			}
			if o.schema == "" {
				return e.fail(exitUsage, "triggers needs --schema; usage: paramctl triggers %s", commands["triggers"].usage)
			}
			if o.output != "text" && o.output != "json" {
				return e.fail(exitUsage, "unknown output format %q (want text or json)", o.output)
			}
			s, code := e.schemaVersionOrFail(o.schema, o.crdVersion)
			if s == nil {
				return code
			}
			plans := o.plans
			if dir := packageDir(o.schema); dir != "" && plans == "" {
				// A package's operator.yaml says which plans exist.
				if _, pkg, err := readSchemaInput(e, o.schema); err == nil && pkg.Plans != nil {
					plans = strings.Join(pkg.Plans, ",")
				}
			}
			rows := trigger.Parameters(s, triggerOptions(o.defaultPlan, plans)...)
			if o.output == "json" {
				if code := e.writeJSON(triggerRows(rows)); code != exitOK {
					return code
				}
			} else {
				for _, r := range rows {
					fmt.Fprintf(e.stdout, "%s\t%s\n", r.Pointer, r.Plan)
				}
			}
			var conflicts []*schema.Error
			if _, err := trigger.New(s); err != nil {
				conflicts = schema.ErrorsOf(err)
			}
			for _, c := range conflicts {
				fmt.Fprintln(e.stderr, c.Error())
			}
			if len(conflicts) > 0 {
				return exitInvalid
			}
			return exitOK
		},
	})
}

// triggerRow is a -o json row; ownTrigger is null where the parameter
// inherits its plan.
type triggerRow struct {
	Pointer       string  `json:"pointer"`
	Plan          string  `json:"plan"`
	Trigger       *string `json:"ownTrigger"`
	SchemaPointer string  `json:"schemaPointer"`
}

func triggerRows(rows []trigger.Parameter) []triggerRow {
	out := make([]triggerRow, len(rows))
	for i, r := range rows {
		out[i] = triggerRow{Pointer: r.Pointer, Plan: r.Plan, SchemaPointer: r.SchemaPointer}
		if r.Trigger != "" {
			t := r.Trigger
			out[i].Trigger = &t
		}
	}
	return out
}
