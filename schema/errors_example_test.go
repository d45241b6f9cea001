package schema_test

import (
	"errors"
	"fmt"

	"github.com/paramkit/paramkit/schema"
)

// A program that reports its own failures in paramkit's model makes them
// with NewError; %w wraps a sentinel errors.Is then finds.
func ExampleNewError() {
	errBusy := errors.New("busy")
	err := schema.NewError(schema.KindUsage, "", "cannot update now: %w", errBusy)
	fmt.Printf("%T %s: %v\n", err, err.Kind, err)
	fmt.Println(errors.Is(err, errBusy))

	at := schema.NewError(schema.KindInvalid, "/replicas", "must be <= %d", 5)
	fmt.Println(at)
	// Output:
	// *schema.Error usage: cannot update now: busy
	// true
	// /replicas: must be <= 5
}

// An operator reports a validation error of an object's parameters in
// Kubernetes terms: the field path under spec.parameters, and the kind as
// a condition reason.
func ExampleError_FieldPath() {
	s, _ := schema.Parse([]byte(`{"properties": {"topology": {"items": {"properties": {"labels": {"additionalProperties": {"type": "string"}}}}}}}`))
	err := s.Validate(map[string]any{"topology": []any{map[string]any{"labels": map[string]any{"app.kubernetes.io/name": true}}}})
	for _, e := range schema.ErrorsOf(err) {
		fmt.Println(e.FieldPath("spec.parameters"))
		fmt.Println(e.Kind.Reason())
	}
	// Output:
	// spec.parameters.topology[0].labels[app.kubernetes.io/name]
	// Type
}

func ExampleKind_Reason() {
	fmt.Println(schema.KindConflict.Reason(), schema.KindNotFound.Reason(), schema.KindIO.Reason())
	// Output: Conflict NotFound IO
}

// A $ref that would leave the document is refused, and the error says so
// by its kind.
func ExampleKindRefused() {
	_, err := schema.Parse([]byte(`{"properties": {"a": {"$ref": "https://example.com/a.json"}}}`))
	fmt.Println(schema.ErrorsOf(err)[0].Kind == schema.KindRefused)
	// Output: true
}
