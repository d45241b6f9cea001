package main

import (
	"fmt"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/params"
)

// The kudo.dev group and the versions the webhook converts between.
const (
	Group   = "kudo.dev"
	V1beta1 = "kudo.dev/v1beta1"
	V1beta2 = "kudo.dev/v1beta2"
)

// ParametersAnnotation (convert.ParametersAnnotation) keeps on a v1beta1
// object what its v1beta1 form cannot hold, so that up-conversion restores
// the v1beta2 object exactly. On an OperatorVersion it is the whole
// schema. On an Instance it holds, as a JSON object, the values no
// v1beta1 text carries (a null where the schema takes only strings, a
// value whose type its node refuses); up-conversion takes a value from it
// only while the v1beta1 text is still the one down-conversion wrote, so
// an old client's edit always wins. v1beta2 objects never carry it.
const ParametersAnnotation = convert.ParametersAnnotation

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

func (o object) str(key string) string { s, _ := o[key].(string); return s }

func (o object) apiVersion() string { return o.str("apiVersion") }
func (o object) kind() string       { return o.str("kind") }

func (o object) metadata() map[string]any { m, _ := o["metadata"].(map[string]any); return m }

func (o object) spec() map[string]any { m, _ := o["spec"].(map[string]any); return m }

// describe names the object for messages: Kind namespace/name.
func (o object) describe() string {
	md := o.metadata()
	name, _ := md["name"].(string)
	ns, _ := md["namespace"].(string)
	if name == "" {
		name, _ = md["generateName"].(string)
		if name != "" {
			name += "*"
		}
	}
	k := o.kind()
	if k == "" {
		k = "object"
	}
	switch {
	case ns != "" && name != "":
		return fmt.Sprintf("%s %s/%s", k, ns, name)
	case name != "":
		return fmt.Sprintf("%s %s", k, name)
	}
	return k
}

func (o object) namespace() string {
	ns, _ := o.metadata()["namespace"].(string)
	return ns
}

// operatorVersionName reads spec.operatorVersion.name.
func (o object) operatorVersionName() (string, error) {
	spec := o.spec()
	if spec == nil {
		return "", fmt.Errorf("%s has no spec", o.describe())
	}
	ref, _ := spec["operatorVersion"].(map[string]any)
	name, _ := ref["name"].(string)
	if name == "" {
		return "", fmt.Errorf("%s has no spec.operatorVersion.name, so its parameter schema cannot be found", o.describe())
	}
	return name, nil
}

// parameters returns spec.parameters and whether it is present (and not null).
func (o object) parameters() (any, bool) {
	spec := o.spec()
	v, ok := spec["parameters"]
	return v, ok && v != nil
}

// paramPointer is the object pointer of a parameter pointer.
func paramPointer(p string) string { return "/spec/parameters" + p }
