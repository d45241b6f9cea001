package lint_test

import (
	"fmt"

	"github.com/paramkit/paramkit/lint"
	"github.com/paramkit/paramkit/schema"
)

// A KUDO parameter schema is not yet a CRD schema: the apiserver refuses
// the trigger keyword under strict field validation, a default that its
// own schema rejects, and additionalProperties beside properties; an
// integer without format: int64 is one it would store rounded beyond
// int64.
func ExampleStructural() {
	s, err := schema.Parse([]byte(`
type: object
properties:
  replicas:
    type: integer
    minimum: 1
    default: 0
    trigger: scale
  labels:
    type: object
    properties:
      app: {type: string}
    additionalProperties: {type: string}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range lint.Run(s, s.Document(), lint.Structural()) {
		fmt.Printf("%s %s %s\n  %s\n", f.Severity, f.Rule, f.Pointer, f.Message)
	}
	// Output:
	// error structural-object /properties/labels/additionalProperties
	//   Forbidden: additionalProperties and properties are mutual exclusive
	// warning structural-integer-range /properties/replicas
	//   an integer without format: int64 or bounds within int64: the apiserver keeps a larger value as a float and stores it rounded (18446744073709551617 becomes 18446744073709552000) before any webhook sees it; add format: int64
	// error structural-default /properties/replicas/default
	//   Invalid value: 0: should be greater than or equal to 1
	// error structural-unknown-field /properties/replicas/trigger
	//   unknown field "trigger": the apiserver refuses it under strict field validation (kubectl apply's default); a KUDO keyword, not part of a CRD schema
}
