// Package kudoparams knows the parameters of KUDO's v1beta1 params files:
// their fields, their type names, and how to tell KUDO's first params
// format (a map from name to parameter) from a map of values. convert
// reads such files and schema names them in its refusals; both ask here.
package kudoparams

// Fields are the fields of a parameter in a KUDO v1beta1 params file.
var Fields = map[string]bool{
	"name": true, "displayName": true, "description": true, "required": true, "default": true,
	"trigger": true, "type": true, "value-type": true, "immutable": true, "enum": true,
}

// Types maps the v1beta1 type names to JSON Schema types.
var Types = map[string]string{
	"string": "string", "integer": "integer", "number": "number", "boolean": "boolean",
	"array": "array", "map": "object", "object": "object",
}

// FirstFormat reports whether m is KUDO's first params format: every
// value is a parameter and at least one has a field. A parameter is
// empty (null or {}) or a mapping without `name` (the key is the name)
// whose fields are parameter fields; KUDO read it into a struct and
// ignored any other field (velodrome's params.yaml documents each
// parameter with `example`), so other fields are allowed beside at least
// one parameter field, as long as a `type` names a v1beta1 type.
// `service: {type: ClusterIP, port: 80}` in a values file is therefore
// no parameter, and neither is `image: {repository: nginx}`.
//
// value gives the meaning of a scalar as read (nil for null, else
// usually a string); callers pass their reader's.
func FirstFormat(m map[string]any, value func(any) any) bool {
	fields := false
	for _, v := range m {
		pm, ok := v.(map[string]any)
		if !ok {
			if value(v) == nil {
				continue
			}
			return false
		}
		if !param(pm, value) {
			return false
		}
		fields = fields || len(pm) > 0
	}
	return fields
}

// param reports whether a mapping of the first format is a parameter.
func param(pm map[string]any, value func(any) any) bool {
	if len(pm) == 0 {
		return true
	}
	if _, named := pm["name"]; named {
		return false
	}
	known, other := 0, 0
	for k := range pm {
		if Fields[k] {
			known++
		} else {
			other++
		}
	}
	if other == 0 {
		return true
	}
	if known == 0 {
		return false
	}
	if t, ok := pm["type"]; ok {
		name, isString := value(t).(string)
		if !isString || Types[name] == "" {
			return false
		}
	}
	return true
}

// IsOperatorFile reports whether doc, a decoded document, looks like a
// KUDO operator.yaml: a mapping with plans or tasks and no kind. Such a
// file declares plans and tasks, not parameters: it stands for its
// package folder wherever a schema is read.
func IsOperatorFile(doc any) bool {
	m, ok := doc.(map[string]any)
	if !ok || m["kind"] != nil {
		return false
	}
	_, plans := m["plans"]
	_, tasks := m["tasks"]
	return plans || tasks
}

// The files of a KUDO package folder that make it one: the parameters
// and the operator (plans, tasks).
const (
	ParamsFile   = "params.yaml"
	OperatorFile = "operator.yaml"
)

// NoParameters is the params file of a package that has none (an
// operator.yaml without a params.yaml).
func NoParameters() []byte { return []byte("apiVersion: kudo.dev/v1beta1\nparameters: []\n") }

// The apiVersions of KUDO's two parameter formats (params.yaml files and
// the OperatorVersion and Instance objects alike).
const (
	V1beta1 = "kudo.dev/v1beta1"
	V1beta2 = "kudo.dev/v1beta2"
)

// The annotations the conversions between the two formats keep what the
// other format cannot hold in. ParametersAnnotation holds the whole
// v1beta2 schema of an OperatorVersion converted down (and, on an
// Instance, the values that have no exact v1beta1 text); ListAnnotation
// the v1beta1 list an old client wrote, so that it reads its own list
// back through a stored v1beta2 object.
const (
	ParametersAnnotation = "paramkit.dev/v1beta2-parameters"
	ListAnnotation       = "paramkit.dev/v1beta1-parameters"
)
