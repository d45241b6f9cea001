// Package v1beta2 holds the kudo.dev/v1beta2 API of the operator: the
// Instance, whose parameters are typed values, and the OperatorVersion,
// whose spec.parameters is a JSON Schema. It is the storage version.
//
// Parameters and schemas are runtime.RawExtension: the JSON text as the
// apiserver sent it, so that a number such as 9007199254740993 keeps its
// exact text (a map[string]any decoded by encoding/json would hold a
// float64). Read them with params.Decode.
//
// +kubebuilder:object:generate=true
// +groupName=kudo.dev
package v1beta2

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is kudo.dev/v1beta2.
	GroupVersion = schema.GroupVersion{Group: "kudo.dev", Version: "v1beta2"}

	// SchemeBuilder registers the types of this version.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the types of this version to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func init() {
	SchemeBuilder.Register(&Instance{}, &InstanceList{}, &OperatorVersion{}, &OperatorVersionList{})
}
