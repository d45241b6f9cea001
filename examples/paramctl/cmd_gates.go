package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/gates"
	"github.com/paramkit/paramkit/schema"
)

type gatesOptions struct {
	gates, old, schema, output string
	list                       bool
}

func init() {
	register(&command{
		name:  "gates",
		usage: "--gates FILE [--old FILE] [--schema FILE] [-o yaml|json] FILE  |  --list --gates FILE [-o text|json]",
		short: "applies field-level feature gates to a new object against the stored one; --list shows the gates",
		setup: func(fs *flag.FlagSet) any {
			o := &gatesOptions{}
			fs.StringVar(&o.gates, "gates", "", "the gates `FILE`: a list of gates, or an object with featureGates (required)")
			fs.StringVar(&o.old, "old", "", "the `FILE` of the stored object; without it the object is a create")
			fs.StringVar(&o.schema, "schema", "", "a schema `FILE`: types YAML scalars of the object and the stored one and orders the output's keys")
			fs.BoolVar(&o.list, "list", false, "list the gates, their effective state and why, instead of applying them")
			fs.StringVar(&o.output, "o", "", "output `FORMAT`: yaml (default) or json; with --list, text (default) or json")
			return o
		},
		run: runGates,
	})
}

func runGates(e *env, opts any, args []string) int {
	o := opts.(*gatesOptions)
	if o.gates == "" {
		return e.fail(exitUsage, "--gates is required\nusage: paramctl gates %s", commands["gates"].usage)
	}
	if o.list {
		if len(args) > 0 || o.old != "" || o.schema != "" {
			return e.fail(exitUsage, "--list takes only --gates and -o")
		}
		if o.output != "" && o.output != "text" && o.output != "json" {
			return e.fail(exitUsage, "-o %s: --list prints text or json", o.output)
		}
	} else {
		if len(args) != 1 {
			return e.fail(exitUsage, "gates needs exactly one FILE (the new object; - for standard input)")
		}
		if o.output != "" && o.output != "yaml" && o.output != "json" {
			return e.fail(exitUsage, "-o %s: gates prints yaml or json", o.output)
		}
	}

	data, err := e.readInput(o.gates)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	set, err := gates.Parse(data)
	var invalid schema.ErrorList
	switch {
	case asList(err, &invalid):
		for _, ve := range invalid {
			fmt.Fprintln(e.stderr, ve.Error())
		}
		return exitInvalid
	case err != nil:
		return e.fail(exitUsage, "%s: %v", o.gates, err)
	}

	if o.list {
		if o.output == "json" {
			return printGatesJSON(e, set.Status())
		}
		return printGatesText(e, set.Status())
	}
	return applyGates(e, o, set, args[0])
}

func applyGates(e *env, o *gatesOptions, set *gates.Set, file string) int {
	var s *schema.Schema
	if o.schema != "" {
		var code int
		if s, code = e.schemaOrFail(o.schema); s == nil {
			return code
		}
	}
	read := func(name string) (any, bool) {
		data, err := e.readInput(name)
		if err != nil {
			e.fail(exitUsage, "%v", err)
			return nil, false
		}
		v, err := params.Decode(s, data)
		if err != nil {
			e.fail(exitUsage, "%s: %v", name, err)
			return nil, false
		}
		return v, true
	}
	obj, ok := read(file)
	if !ok {
		return exitUsage
	}
	var stored any
	if o.old != "" {
		if stored, ok = read(o.old); !ok {
			return exitUsage
		}
	}

	res := set.Apply(obj, stored)
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", w)
	}
	if o.output == "json" {
		return e.writeJSON(struct {
			Object        json.RawMessage `json:"object"`
			Dropped       []string        `json:"dropped"`
			Warnings      []string        `json:"warnings"`
			SpecUnchanged bool            `json:"specUnchanged"`
		}{mustBytes(params.MarshalJSON(s, res.Object, "")), res.Dropped, warningTexts(res.Warnings, (*schema.Error).Error), res.SpecUnchanged})
	}
	out, err := e.encodeValues(s, res.Object, "yaml")
	if err != nil {
		return e.fail(exitUsage, "internal error: %v", err)
	}
	_, _ = e.stdout.Write(out)
	return exitOK
}

// gateRow is one gate of `gates --list -o json`.
type gateRow struct {
	Name               string   `json:"name"`
	PreRelease         string   `json:"preRelease"`
	Enabled            *bool    `json:"enabled"`
	Default            *bool    `json:"default"`
	Effective          bool     `json:"effective"`
	Reason             string   `json:"reason"`
	FieldPaths         []string `json:"fieldPaths"`
	IneffectiveBecause []string `json:"ineffectiveBecause"`
	Warnings           []string `json:"warnings"`
}

func printGatesJSON(e *env, status []gates.Status) int {
	rows := make([]gateRow, len(status))
	for i, s := range status {
		rows[i] = gateRow{
			Name: s.Name, PreRelease: string(s.PreRelease), Enabled: s.Enabled, Default: s.Default,
			Effective: s.Effective, Reason: string(s.Reason), FieldPaths: s.FieldPaths,
			IneffectiveBecause: s.IneffectiveBecause, Warnings: warningTexts(s.Warnings, func(w *schema.Error) string { return w.Message }),
		}
	}
	return e.writeJSON(rows)
}

func printGatesText(e *env, status []gates.Status) int {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTAGE\tENABLED\tDEFAULT\tEFFECTIVE\tREASON\tFIELD PATHS\tINEFFECTIVE BECAUSE")
	for _, s := range status {
		because := "-"
		if len(s.IneffectiveBecause) > 0 {
			because = strings.Join(s.IneffectiveBecause, ", ") + " off"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, s.PreRelease, gateFlag(s.Enabled), gateFlag(s.Default),
			gateOnOff(s.Effective), s.Reason, strings.Join(s.FieldPaths, ", "), because)
	}
	if err := tw.Flush(); err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	for _, s := range status {
		for _, w := range s.Warnings {
			fmt.Fprintf(e.stdout, "warning: %s: %s\n", s.Name, w.Message)
		}
	}
	return exitOK
}

func gateFlag(b *bool) string {
	if b == nil {
		return "-"
	}
	return fmt.Sprint(*b)
}

func gateOnOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// warningTexts is the warnings as text (never null in JSON).
func warningTexts(ws []*schema.Error, text func(*schema.Error) string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = text(w)
	}
	return out
}
