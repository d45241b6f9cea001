package instancewebhook

import (
	"fmt"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/examples/operator/kudoconvert"
	"github.com/paramkit/paramkit/params"
)

// Objects are read as plain values (params.Decode), never into Go
// structs through encoding/json: a parameter's number keeps its text.

func decodeObject(raw []byte) (map[string]any, error) {
	v, err := params.Decode(nil, raw)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	return m, nil
}

func apiVersion(o map[string]any) string { s, _ := o["apiVersion"].(string); return s }

func spec(o map[string]any) map[string]any { m, _ := o["spec"].(map[string]any); return m }

func operatorVersionName(o map[string]any) string {
	ref, _ := spec(o)["operatorVersion"].(map[string]any)
	name, _ := ref["name"].(string)
	return name
}

// parametersPresent returns spec.parameters and whether it is there (and
// not null).
func parametersPresent(o map[string]any) (any, bool) {
	v, ok := spec(o)["parameters"]
	return v, ok && v != nil
}

// parametersOf returns spec.parameters, {} when absent.
func parametersOf(o map[string]any) any {
	if v, ok := parametersPresent(o); ok {
		return v
	}
	return map[string]any{}
}

func planExecutionOf(o map[string]any) map[string]any {
	m, _ := spec(o)["planExecution"].(map[string]any)
	return m
}

// parametersTyped returns the Instance's parameters as values: a v1beta1
// Instance's text unwrapped by the operator version's schema.
func parametersTyped(o map[string]any, ov *kudo.OperatorVersion) (any, error) {
	p := parametersOf(o)
	if apiVersion(o) != kudoconvert.V1beta1 {
		return p, nil
	}
	m, ok := p.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("spec.parameters of a v1beta1 Instance is a map of strings")
	}
	texts := make(map[string]string, len(m))
	for k, x := range m {
		s, ok := x.(string)
		if !ok {
			s = string(mustBytes(params.MarshalJSON(nil, x, "")))
		}
		texts[k] = s
	}
	return convert.UnwrapValues(ov.Schema(), texts)
}
