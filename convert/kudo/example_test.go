package kudo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// An operator version from its manifest; an Instance's change decided
// against it.
func ExampleLoad() {
	data, _ := os.ReadFile("testdata/my-operator-0.3.0.yaml")
	ov, err := kudo.Load("", data)
	if err != nil {
		panic(err)
	}
	fmt.Println(ov.Name(), ov.Plans(), ov.DefaultPlan(), ov.UpgradePlan())
	// Output:
	// my-operator-0.3.0 [backup deploy update] update deploy
}

// A typed client's object has no apiVersion and kind after Get: marshal
// it, decode it, and FromObject still finds its plans.
func ExampleFromObject() {
	typed := []byte(`{"metadata": {"name": "op-1.0"}, "spec": {
	  "plans": {"deploy": {}, "upgrade": {}},
	  "parameters": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}`)
	obj, _ := params.Decode(nil, typed)
	ov, err := kudo.FromObject(obj.(map[string]any))
	if err != nil {
		panic(err)
	}
	fmt.Println(ov.Name(), ov.Plans(), ov.UpgradePlan())

	_, err = kudo.FromObject(map[string]any{"type": "object"})
	fmt.Println(err)
	// Output:
	// op-1.0 [deploy upgrade] upgrade
	// "": not an OperatorVersion object: it has no kind and no spec (a bare schema is read with Load)
}

// The whole desired state against the last: a removed parameter counts.
func ExampleOperatorVersion_Update() {
	data, _ := os.ReadFile("testdata/my-operator-0.3.0.yaml")
	ov, _ := kudo.Load("", data)
	old := map[string]any{"clusterName": "prod", "nodeCount": json.Number("5")}
	r, _ := ov.Update(old, map[string]any{"clusterName": "prod", "nodeCount": json.Number("7")})
	fmt.Println(r.Plan, r.Changed)
	// nodeCount removed: back to its default, 3.
	r, _ = ov.Update(old, map[string]any{"clusterName": "prod"})
	fmt.Println(r.Plan, r.Changed, r.Values)
	_, err := ov.Update(old, map[string]any{"clusterName": "test", "nodeCount": json.Number("5")})
	fmt.Println(err)
	// Output:
	// update [/nodeCount]
	// update [/nodeCount] map[backup:map[enabled:false] clusterName:prod nodeCount:3]
	// /clusterName: cannot be changed: immutable (schema /properties/clusterName)
}

// An Instance moving to a new operator version: its flat parameters go to
// their new places by oldName.
func ExampleOperatorVersion_Upgrade() {
	v1data, _ := os.ReadFile("testdata/my-operator-0.1.0.yaml")
	v2data, _ := os.ReadFile("testdata/my-operator-0.2.0.yaml")
	v1, _ := kudo.Load("", v1data)
	v2, _ := kudo.Load("", v2data)
	old := map[string]any{"CLUSTER_NAME": "prod", "BACKUP_ENABLED": true, "DEBUG": "1"}
	u, err := v2.Upgrade(v1, old, old)
	if err != nil {
		panic(err)
	}
	out, err := params.MarshalJSON(nil, u.Values, "")
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	fmt.Println(v2.UpgradePlan(), u.Dropped[0].Pointer)
	// Output:
	// {"backup":{"enabled":true},"clusterName":"prod","nodeCount":3}
	// upgrade /DEBUG
}

// A conversion webhook's work for one kudo.dev Instance: v1beta1 text
// unwrapped by the operator version's schema, then wrapped back.
func ExampleConvertObject() {
	s, err := schema.Parse([]byte(`{"type": "object", "properties": {
	  "replicas": {"type": "integer"}, "version": {"type": "string"}}}`))
	if err != nil {
		panic(err)
	}
	ov, err := kudo.New("zk-1.0", s, []string{"deploy"})
	if err != nil {
		panic(err)
	}
	resolve := func(_ context.Context, _, name string) (*kudo.OperatorVersion, error) {
		if name != ov.Name() {
			return nil, fmt.Errorf("no operator version %q", name)
		}
		return ov, nil
	}
	v1beta1 := []byte(`{"apiVersion": "kudo.dev/v1beta1", "kind": "Instance", "metadata": {"name": "zk"},
	  "spec": {"operatorVersion": {"name": "zk-1.0"}, "parameters": {"replicas": "3", "version": "1.10"}}}`)
	up, err := kudo.ConvertObject(context.Background(), v1beta1, "kudo.dev/v1beta2", resolve)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(up))
	down, err := kudo.ConvertObject(context.Background(), up, "kudo.dev/v1beta1", resolve)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(down))

	_, err = kudo.ConvertObject(context.Background(), bytes.Replace(v1beta1, []byte("zk-1.0"), []byte("gone-1.0"), 1), "kudo.dev/v1beta2", resolve)
	fmt.Println(err)
	// Output:
	// {"apiVersion":"kudo.dev/v1beta2","kind":"Instance","metadata":{"name":"zk"},"spec":{"operatorVersion":{"name":"zk-1.0"},"parameters":{"replicas":3,"version":"1.10"}}}
	// {"apiVersion":"kudo.dev/v1beta1","kind":"Instance","metadata":{"name":"zk"},"spec":{"operatorVersion":{"name":"zk-1.0"},"parameters":{"replicas":"3","version":"1.10"}}}
	// Instance zk: no operator version "gone-1.0"
}
