package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/paramkit/paramkit/kube"
)

// TestAdmissionWhat: messages name an object by what it has, never
// "Instance demo/" for one the apiserver has not named yet.
func TestAdmissionWhat(t *testing.T) {
	for _, tt := range []struct{ name, namespace, generateName, want string }{
		{"kafka", "demo", "", "Instance demo/kafka"},
		{"kafka", "", "", "Instance kafka"},
		{"", "demo", "kafka-", "Instance (generateName kafka-) in demo"},
		{"", "demo", "", "Instance in demo"},
		{"", "", "", "Instance"},
	} {
		a := &admission{req: &kube.AdmissionRequest{Name: tt.name, Namespace: tt.namespace, Kind: kube.GroupVersionKind{Kind: "Instance"}}, generateName: tt.generateName}
		assert.Equal(t, tt.want, a.what())
	}
}
