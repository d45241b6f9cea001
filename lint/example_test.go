package lint_test

import (
	"fmt"

	"github.com/paramkit/paramkit/lint"
)

func Example() {
	schema := []byte(`
type: object
properties:
  backup:
    type: object
    trigger: backup
    properties:
      enabled:
        type: boolean
        trigger: deploy
      schedule:
        type: string
        enum: [hourly, daily]
        default: weekly
`)
	findings, err := lint.Document(schema, lint.Kudo())
	if err != nil {
		panic(err)
	}
	for _, f := range findings {
		fmt.Printf("%s %s %s\n", f.Pointer, f.Severity, f.Rule)
	}
	// Output:
	// /properties/backup/properties/enabled/trigger error kudo-trigger-conflict
	// /properties/backup/properties/schedule/default error kudo-enum-default
}

// A rule is a value: callers add their own rules and sets.
func ExampleSet() {
	noTodo := &lint.Rule{
		ID: "no-todo", Set: "house", Severity: lint.Warning,
		Doc: "descriptions say something",
		Run: func(p *lint.Pass) {
			if p.Schema == nil {
				return
			}
			for _, n := range p.Schema.Root().Properties() {
				if n.Description() == "TODO" {
					p.Report(n.Pointer()+"/description", "write the description")
				}
			}
		},
	}
	house := &lint.Set{Name: "house", Doc: "our conventions", Rules: []*lint.Rule{noTodo}}
	findings, _ := lint.Document([]byte(`{"properties": {"a": {"description": "TODO"}}}`), house)
	fmt.Println(findings[0].Pointer, findings[0].Message)
	// Output: /properties/a/description write the description
}

// A finding prints as `POINTER: message [severity rule]`.
func ExampleFinding_String() {
	findings, err := lint.Document([]byte(`{type: string, enum: [a, b], default: c}`), lint.Kudo())
	if err != nil {
		panic(err)
	}
	for _, f := range findings {
		fmt.Println(f)
	}
	// Output:
	// /default: the default "c" is not one of the enum values ["a","b"]: add it to the enum or change the default [error kudo-enum-default]
}

// A v1beta1 params file is linted as the schema it converts to; a
// parameter that does not convert is a finding of kudo-params.
func ExampleDocument_v1beta1() {
	params := []byte(`apiVersion: kudo.dev/v1beta1
parameters:
  - name: REPLICAS
    type: integer
    default: three
`)
	findings, err := lint.Document(params, lint.Kudo())
	if err != nil {
		panic(err)
	}
	for _, f := range findings {
		fmt.Println(f)
	}
	// Output:
	// /parameters/0/default: parameter "REPLICAS": default "three" is not an integer [error kudo-params]
}
