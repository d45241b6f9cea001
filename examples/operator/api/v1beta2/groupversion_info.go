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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is kudo.dev/v1beta2.
	GroupVersion = schema.GroupVersion{Group: "kudo.dev", Version: "v1beta2"}

	// SchemeBuilder registers the types of this version. It is
	// apimachinery's, as in k8s.io/api, not controller-runtime's
	// (deprecated for API packages, which should import little).
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

	// AddToScheme adds the types of this version to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// addKnownTypes registers the types of this version and the meta types
// (ListOptions and the like) a client needs for them.
func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Instance{}, &InstanceList{}, &OperatorVersion{}, &OperatorVersionList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
