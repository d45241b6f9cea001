package main

import (
	"flag"
	"fmt"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/schema"
)

type convertOpts struct {
	output     *string
	to         *string
	inferTypes *bool
	schema     *string
	guess      *bool
}

func init() {
	register(&command{
		name:  "convert",
		usage: "[--to v1beta2|v1beta1] [--infer-types] [--schema FILE | --guess] [-o yaml|json] FILE",
		short: "convert v1beta1 parameters (params.yaml or OperatorVersion) to a v1beta2 schema; v1beta2 input comes back unchanged; with --schema or --guess, v1beta1 Instances (a --- stream of them) to v1beta2",
		setup: func(fs *flag.FlagSet) any {
			return &convertOpts{
				output:     fs.String("o", "yaml", "output `FORMAT`: yaml or json"),
				to:         fs.String("to", "v1beta2", "target `VERSION`: v1beta2, or v1beta1 for an OperatorVersion (the schema is kept in the "+convert.ParametersAnnotation+" annotation)"),
				inferTypes: fs.Bool("infer-types", false, "give untyped parameters whose default is a quoted number or boolean (\"3\", \"true\") that type, reporting each on standard error"),
				schema:     fs.String("schema", "", "the parameter schema `FILE` by which v1beta1 Instances (one, or a --- stream of them) convert to v1beta2, their parameters typed as unwrap types them"),
				guess:      fs.Bool("guess", false, "convert v1beta1 Instances to v1beta2 without a schema: guess by safe rules and report every guess on standard error, as unwrap --guess does"),
			}
		},
		run: runConvert,
	})
}

func runConvert(e *env, o any, args []string) int {
	opts := o.(*convertOpts)
	usage := "usage: paramctl convert " + commands["convert"].usage
	if len(args) != 1 {
		return e.fail(exitUsage, usage)
	}
	if *opts.output != "yaml" && *opts.output != "json" {
		return e.fail(exitUsage, "-o must be yaml or json, not %q", *opts.output)
	}
	if *opts.to != "v1beta2" && *opts.to != "v1beta1" {
		return e.fail(exitUsage, "--to must be v1beta2 or v1beta1, not %q", *opts.to)
	}
	if *opts.schema != "" || *opts.guess {
		return e.convertInstances(opts, usage, args[0])
	}
	// A KUDO package folder (or its operator.yaml) converts its params.yaml.
	data, _, err := readSchemaInput(e, args[0])
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	var c *convert.Converted
	if *opts.to == "v1beta1" {
		c, err = convert.ToV1beta1(data)
	} else {
		var fopts []convert.Option
		if *opts.inferTypes {
			fopts = append(fopts, convert.InferStringTypes())
		}
		c, err = convert.FromV1beta1(data, fopts...)
	}
	if ne, ok := notSchema(err); ok {
		return e.fail(exitUsage, "%s: %s", args[0], ne.Message)
	}
	if err != nil {
		return e.conversionFailed(args[0], err)
	}
	e.printNotes(c.Notes)
	return e.writeConverted(c, *opts.output)
}

// convertInstances converts v1beta1 Instances, one or a `---` stream of
// them read in constant memory, to v1beta2 as unwrap does; anything but
// an Instance is refused.
func (e *env) convertInstances(opts *convertOpts, usage, file string) int {
	switch {
	case *opts.schema != "" && *opts.guess:
		return e.fail(exitUsage, "--schema and --guess exclude each other\n%s", usage)
	case *opts.to != "v1beta2" || *opts.inferTypes:
		return e.fail(exitUsage, "--schema and --guess convert Instances to v1beta2: not with --to v1beta1 or --infer-types")
	}
	var s *schema.Schema
	if !*opts.guess {
		var code int
		if s, code = e.schemaOrFail(*opts.schema); s == nil {
			return code
		}
	}
	return e.unwrapRun(file, s, *opts.output, true)
}

// conversionFailed reports a conversion error: unreadable input is exit
// 2, input that cannot be converted exit 1, every problem on its own line.
func (e *env) conversionFailed(file string, err error) int {
	if _, ok := readFailure(err); ok {
		return e.fail(exitUsage, "%s: %v", file, err)
	}
	var el schema.ErrorList
	if asList(err, &el) {
		for _, x := range el {
			fmt.Fprintln(e.stderr, x.Error())
		}
		return exitInvalid
	}
	return e.fail(exitInvalid, "%v", err)
}

// printNotes reports what a conversion decided, one a line, on standard error.
func (e *env) printNotes(notes []convert.Note) {
	for _, n := range notes {
		fmt.Fprintln(e.stderr, n.String())
	}
}

func (e *env) writeConverted(c *convert.Converted, format string) int {
	if format == "json" {
		e.stdout.Write(append(mustBytes(c.JSON("  ")), '\n'))
		return exitOK
	}
	out, err := c.YAML()
	if err != nil {
		return e.fail(exitInvalid, "%v", err)
	}
	e.stdout.Write(out)
	return exitOK
}
