package params_test

import (
	"fmt"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

func ExampleUpdate() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  clusterName: {type: string, immutable: true}
  topology:
    type: array
    items:
      type: object
      properties:
        datacenterName: {type: string}
        labels:
          type: array
          items: {type: object, properties: {key: {type: string}, value: {type: string}}}
`))
	old, _ := params.Decode(s, []byte(`
clusterName: prod
topology:
  - datacenterName: dc1
    labels: [{key: Usage, value: old}]
`))
	r, err := (&params.Update{Schema: s, Old: old, Set: []string{
		`topology/0/datacenterName="NewDC1"`,
		`topology/0/labels/0={ key: "Usage", value: "newValue" }`,
	}}).Run()
	if err != nil {
		panic(err)
	}
	out, _ := params.MarshalYAML(s, r.Values)
	fmt.Print(string(out))
	fmt.Println(r.Plan, r.Changed)

	_, err = (&params.Update{Schema: s, Old: old, Set: []string{"clusterName=test"}}).Run()
	fmt.Println(err)
	// Output:
	// clusterName: prod
	// topology:
	//   - datacenterName: NewDC1
	//     labels:
	//       - key: Usage
	//         value: newValue
	// deploy [/topology/0/datacenterName /topology/0/labels/0/value]
	// /clusterName: cannot be changed: immutable (schema /properties/clusterName)
}

// A -P file is an RFC 7386 merge patch: null deletes, arrays are
// replaced whole.
func ExampleUpdate_mergePatch() {
	s, _ := schema.Parse([]byte(`{}`))
	old, _ := params.Decode(nil, []byte(`{"replicas": 3, "image": {"tag": "1.0", "pullPolicy": "Always"}, "args": ["a", "b"]}`))
	patch, _ := params.DecodePatch(nil, []byte("image:\n  pullPolicy: null\n  tag: 1.1\nargs: [c]\n"))
	r, _ := (&params.Update{Schema: s, Old: old, Patches: []any{patch}}).Run()
	out, _ := params.MarshalYAML(nil, r.Values)
	fmt.Print(string(out))
	// Output:
	// args:
	//   - c
	// image:
	//   tag: 1.1
	// replicas: 3
}

func ExampleCheckImmutable() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  storage:
    type: object
    immutable: true
    properties:
      class: {type: string, default: standard}
      size: {type: string}
`))
	old := map[string]any{"storage": map[string]any{"size": "10Gi"}}
	// Spelling out a default is no change; changing it is.
	fmt.Println(params.CheckImmutable(s, old, map[string]any{"storage": map[string]any{"size": "10Gi", "class": "standard"}}))
	fmt.Println(params.CheckImmutable(s, old, map[string]any{"storage": map[string]any{"size": "20Gi", "class": "fast"}}))
	// Output:
	// <nil>
	// /storage/class: cannot be changed: /storage is immutable (schema /properties/storage)
	// /storage/size: cannot be changed: /storage is immutable (schema /properties/storage)
}

// The forms of a -p KEY: a dotted path (\. a literal dot), a JSON
// pointer (it holds a "/"), Helm's index; VALUE is typed by the node.
func ExampleUpdate_keyForms() {
	s, _ := schema.Parse([]byte(`{"properties": {"replicas": {"type": "integer"}, "hosts": {"type": "array", "items": {"type": "string"}}}}`))
	old := map[string]any{"labels": map[string]any{}, "hosts": []any{"a"}}
	for _, set := range []string{`labels.app\.kubernetes\.io=web`, `/labels/team=db`, `hosts[1]=7`, `replicas=3`, `no-equals-sign`} {
		r, err := (&params.Update{Schema: s, Old: old, Set: []string{set}}).Run()
		if err != nil {
			fmt.Println(err)
			continue
		}
		out, _ := params.MarshalJSON(s, r.Values, "")
		fmt.Println(string(out))
	}
	// Output:
	// {"hosts":["a"],"labels":{"app.kubernetes.io":"web"}}
	// {"hosts":["a"],"labels":{"team":"db"}}
	// {"hosts":["a","7"],"labels":{}}
	// {"replicas":3,"hosts":["a"],"labels":{}}
	// malformed assignment "no-equals-sign": want KEY=VALUE
}

// An operator holds the whole desired state, not a patch: Desired removes
// what it lacks, and the removal triggers its plan.
func ExampleUpdate_desired() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  replicas: {type: integer, default: 3}
  backup:
    type: object
    trigger: backup
    properties:
      schedule: {type: string}
`))
	old := map[string]any{"replicas": 5, "backup": map[string]any{"schedule": "@daily"}}
	desired := map[string]any{"replicas": 5} // the user deleted backup
	r, err := (&params.Update{Schema: s, Old: old, Desired: desired}).Run()
	if err != nil {
		panic(err)
	}
	out, err := params.MarshalJSON(s, r.Values, "")
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out), r.Plan, r.Changed)
	// Output:
	// {"replicas":5} backup [/backup]
}
