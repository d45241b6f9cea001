package params_test

import (
	"fmt"

	"github.com/paramkit/paramkit/params"
)

// A CronTab created while ReplicasFeatureGate is off is stored without
// .spec.replicas; the client is told so.
func ExampleGates_Apply() {
	gates, err := params.ParseGates([]byte(`
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
	res := gates.Apply(cr, nil) // nil: nothing stored yet, a create
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
func ExampleGates_Status() {
	gates, err := params.ParseGates([]byte(`
- {name: Replicas, preRelease: alpha, enabled: true, fieldPaths: [.spec.replicas]}
- {name: MaxSurge, preRelease: beta, default: true, fieldPaths: [.spec.replicas.maxSurge]}
- {name: Storage, preRelease: stable, fieldPaths: [/spec/storage]}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range gates.Status() {
		fmt.Println(s.Name, s.PreRelease, s.Effective, s.Reason)
	}
	// Output:
	// Replicas alpha true explicit
	// MaxSurge beta true default
	// Storage stable true stage
}
