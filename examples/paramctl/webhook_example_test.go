package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/schema"
)

// A resolver that knows one operator version, kept in memory.
func resolver() SchemaResolver {
	s, err := schema.Parse([]byte(`
type: object
properties:
  NODE_COUNT: {type: integer, default: 3}
  ARRAY_PARAM: {type: array, items: {type: string}}
  backup:
    type: object
    trigger: backup
    properties:
      enabled: {type: boolean, default: false}
`))
	if err != nil {
		panic(err)
	}
	ov, err := kudo.New("zookeeper-0.1.0", s, nil)
	if err != nil {
		panic(err)
	}
	return ResolverFunc(func(_ context.Context, _, name string) (*kudo.OperatorVersion, error) {
		if name == ov.Name() {
			return ov, nil
		}
		return nil, &NotFoundError{Name: name}
	})
}

// Converting a v1beta1 Instance to v1beta2: its strings are unwrapped by
// the schema of its operator version.
func ExampleHandler_Convert() {
	h, err := NewHandler(Options{Resolver: resolver()})
	if err != nil {
		panic(err)
	}
	resp := h.Convert(context.Background(), &kube.ConversionRequest{
		UID:               "0001",
		DesiredAPIVersion: V1beta2,
		Objects: []json.RawMessage{json.RawMessage(`{"apiVersion":"kudo.dev/v1beta1","kind":"Instance",
			"metadata":{"name":"zk","namespace":"default"},
			"spec":{"operatorVersion":{"name":"zookeeper-0.1.0"},"parameters":{"NODE_COUNT":"5","ARRAY_PARAM":"[foo,bar]"}}}`)},
	})
	fmt.Println(resp.Result.Status)
	fmt.Println(string(resp.ConvertedObjects[0]))
	// Output:
	// Success
	// {"apiVersion":"kudo.dev/v1beta2","kind":"Instance","metadata":{"name":"zk","namespace":"default"},"spec":{"operatorVersion":{"name":"zookeeper-0.1.0"},"parameters":{"ARRAY_PARAM":["foo","bar"],"NODE_COUNT":5}}}
}

// Validating an update: the answer names the plan it runs.
func ExampleHandler_Validate() {
	h, err := NewHandler(Options{Resolver: resolver()})
	if err != nil {
		panic(err)
	}
	instance := func(params string) json.RawMessage {
		return json.RawMessage(`{"apiVersion":"kudo.dev/v1beta2","kind":"Instance","metadata":{"name":"zk"},
			"spec":{"operatorVersion":{"name":"zookeeper-0.1.0"},"parameters":` + params + `}}`)
	}
	req := &kube.AdmissionRequest{
		UID:       "0002",
		Kind:      kube.GroupVersionKind{Group: "kudo.dev", Version: "v1beta2", Kind: "Instance"},
		Operation: "UPDATE",
		Object:    instance(`{"backup":{"enabled":true}}`),
		OldObject: instance(`{}`),
	}
	resp := h.Validate(context.Background(), req)
	fmt.Println(resp.Allowed, resp.Warnings)

	req.Object = instance(`{"NODE_COUNT":"many"}`)
	resp = h.Validate(context.Background(), req)
	fmt.Println(resp.Allowed, resp.Result.Message)
	// Output:
	// true [plan: backup]
	// false Instance: invalid parameters: /spec/parameters/NODE_COUNT: expected integer, but got string "many"
}
