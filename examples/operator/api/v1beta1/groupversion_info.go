// Package v1beta1 holds the kudo.dev/v1beta1 API, served for older
// clients: an Instance's parameters are a map of strings, an
// OperatorVersion's a flat list. The apiserver stores v1beta2 and converts
// through the operator's conversion webhook (paramkit's, which unwraps
// the strings by the operator version's schema and writes them back as
// text that unwraps to the same values).
//
// +kubebuilder:object:generate=true
// +groupName=kudo.dev
package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is kudo.dev/v1beta1.
	GroupVersion = schema.GroupVersion{Group: "kudo.dev", Version: "v1beta1"}

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
