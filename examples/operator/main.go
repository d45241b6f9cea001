// Command operator is paramkit embedded in an operator, without
// Kubernetes: the decision a KUDO-style operator makes when it reconciles
// an Instance. It reads the Instance manifest and the schema of its
// operator version (a directory of NAME.yaml files, v1beta1 or v1beta2),
// compares the Instance's parameters with the state it last applied (the
// kudo.dev/last-applied-instance-state annotation), and prints the plan
// to run with the parameters the templates see:
//
//   - nothing applied yet: an install, plan deploy;
//   - the same operator version: the update pipeline (defaults,
//     validation, immutability, the plan the changes trigger; changes
//     triggering two plans are refused);
//   - a new operator version: an upgrade, the old parameters moved to
//     their new places by oldName, plan upgrade where the operator version
//     has it, else deploy.
//
// Usage:
//
//	operator --operator-versions DIR [-o text|json] [--write] INSTANCE
//
// --write prints the Instance with the decision recorded as its last
// applied state instead, so that reconciling it again finds nothing to do.
// Exit status: 0 done, 1 the Instance is refused, 2 usage or unreadable
// input.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("operator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("operator-versions", "", "directory of operator versions, NAME.yaml each")
	format := fs.String("o", "text", "output: text or json")
	write := fs.Bool("write", false, "print the Instance with the decision recorded as its last applied state")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *dir == "" || fs.NArg() != 1 || (*format != "text" && *format != "json") {
		fmt.Fprintln(stderr, "usage: operator --operator-versions DIR [-o text|json] [--write] INSTANCE")
		return 2
	}
	var data []byte
	var err error
	if name := fs.Arg(0); name == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	in, err := readInstance(data)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	op := newOperator(*dir)
	d, err := op.reconcile(in)
	if err != nil {
		printError(stderr, err)
		var pe *os.PathError
		if errors.As(err, &pe) {
			return 2
		}
		return 1
	}
	if *write {
		out, err := params.MarshalYAML(nil, in.applied(d))
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		stdout.Write(out)
		return 0
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(d)
		return 0
	}
	printDecision(stdout, op, d)
	return 0
}

func printDecision(w io.Writer, op *operator, d *decision) {
	fmt.Fprintf(w, "instance: %s\noperator version: %s\n", d.Instance, d.OperatorVersion)
	if d.Upgrade != "" {
		fmt.Fprintf(w, "upgrade from: %s\n", d.Upgrade)
	}
	plan := d.Plan
	if plan == "" {
		plan = "none (nothing changed)"
	}
	fmt.Fprintf(w, "plan: %s\n", plan)
	if len(d.Changed) > 0 {
		fmt.Fprintf(w, "changed: %s\n", strings.Join(quoteRoot(d.Changed), ", "))
	}
	if len(d.Dropped) > 0 {
		fmt.Fprintf(w, "dropped (no place in %s): %s\n", d.OperatorVersion, strings.Join(d.Dropped, ", "))
	}
	for _, x := range d.Warnings {
		fmt.Fprintf(w, "warning: %s\n", x)
	}
	fmt.Fprintln(w, "params:")
	var s *schema.Schema
	if v, ok := op.versions[d.OperatorVersion]; ok {
		s = v.schema
	}
	out, _ := params.MarshalYAML(s, d.Params)
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		fmt.Fprintln(w, "  "+line)
	}
}

func quoteRoot(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		if p == "" {
			p = `"" (everything: an install)`
		}
		out[i] = p
	}
	return out
}

// printError writes every problem one a line, as paramctl does.
func printError(w io.Writer, err error) {
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintln(w, line)
	}
}
