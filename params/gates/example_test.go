package gates_test

import (
	"fmt"

	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/params/gates"
)

// Gates built in Go: an update that changes a field whose gate is off
// keeps the stored value, and the client is told so.
func Example() {
	off := false
	set, err := gates.New([]gates.Gate{
		{Name: "Replicas", PreRelease: "alpha", Enabled: &off, FieldPaths: []string{".spec.replicas"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	stored := map[string]any{"spec": map[string]any{"image": "v1", "replicas": 3}}
	sent := map[string]any{"spec": map[string]any{"image": "v2", "replicas": 5}}
	res := set.Apply(sent, stored)
	out, _ := params.MarshalYAML(nil, res.Object)
	fmt.Print(string(out))
	fmt.Println(res.Warnings)
	// Output:
	// spec:
	//   image: v2
	//   replicas: 3
	// [/spec/replicas: not updated, the stored value is kept: feature gate Replicas is disabled]
}

// A CronTab created while ReplicasFeatureGate is off is stored without
// .spec.replicas; the client is told so.
func ExampleSet_Apply() {
	set, err := gates.Parse([]byte(`
featureGates:
  - name: ReplicasFeatureGate
    preRelease: alpha
    fieldPaths: [.spec.replicas]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	cr, err := params.Decode(nil, []byte(`
apiVersion: stable.example.com/v1
kind: CronTab
spec:
  image: my-awesome-cron-image
  replicas: 3
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	res := set.Apply(cr, nil) // nil: nothing stored yet, a create
	out, _ := params.MarshalYAML(nil, res.Object)
	fmt.Print(string(out))
	fmt.Println(res.Warnings)
	// Output:
	// apiVersion: stable.example.com/v1
	// kind: CronTab
	// spec:
	//   image: my-awesome-cron-image
	// [/spec/replicas: dropped: feature gate ReplicasFeatureGate is disabled]
}

// Status tells each gate's effective state and what decided it.
func ExampleSet_Status() {
	set, err := gates.Parse([]byte(`
- {name: Replicas, preRelease: alpha, enabled: true, fieldPaths: [.spec.replicas]}
- {name: MaxSurge, preRelease: beta, default: true, fieldPaths: [.spec.replicas.maxSurge]}
- {name: Storage, preRelease: stable, fieldPaths: [/spec/storage]}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range set.Status() {
		fmt.Println(s.Name, s.PreRelease, s.Effective, s.Reason)
	}
	// Output:
	// Replicas alpha true explicit
	// MaxSurge beta true default
	// Storage stable true stage
}
