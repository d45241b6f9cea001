package main

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/paramkit/paramkit/params"
)

// The kudo.dev group and the versions the webhook converts between.
const (
	Group   = "kudo.dev"
	V1beta1 = "kudo.dev/v1beta1"
	V1beta2 = "kudo.dev/v1beta2"
)

// object is a decoded Kubernetes object with the accessors admission
// needs. (An Instance's parameters as values, v1beta1 texts unwrapped, are
// kudo.OperatorVersion.Parameters'; conversion is kudo.ConvertObject's.)
type object map[string]any

func decodeObject(raw []byte) (object, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("the object is missing")
	}
	v, err := params.Decode(nil, raw)
	if err != nil {
		return nil, fmt.Errorf("the object cannot be read: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the object is not a JSON object")
	}
	return object(m), nil
}

// at is the value below the keys (nil where one is missing).
func (o object) at(keys ...string) any {
	var v any = map[string]any(o)
	for _, k := range keys {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

// str is the string below the keys ("" where there is none).
func (o object) str(keys ...string) string { s, _ := o.at(keys...).(string); return s }

// operatorVersionName reads spec.operatorVersion.name, or says (naming
// the object as Kind namespace/name) why it cannot.
func (o object) operatorVersionName() (string, error) {
	name := o.str("metadata", "name")
	if name == "" && o.str("metadata", "generateName") != "" {
		name = o.str("metadata", "generateName") + "*"
	}
	if ns := o.str("metadata", "namespace"); ns != "" && name != "" {
		name = ns + "/" + name
	}
	what := strings.TrimSpace(cmp.Or(o.str("kind"), "object") + " " + name)
	if _, ok := o.at("spec").(map[string]any); !ok {
		return "", fmt.Errorf("%s has no spec", what)
	}
	if n := o.str("spec", "operatorVersion", "name"); n != "" {
		return n, nil
	}
	return "", fmt.Errorf("%s has no spec.operatorVersion.name, so its parameter schema cannot be found", what)
}

// paramPointer is the object pointer of a parameter pointer.
func paramPointer(p string) string { return "/spec/parameters" + p }
