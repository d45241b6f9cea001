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
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is kudo.dev/v1beta1.
	GroupVersion = schema.GroupVersion{Group: "kudo.dev", Version: "v1beta1"}

	// SchemeBuilder registers the types of this version.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds the types of this version to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func init() {
	SchemeBuilder.Register(&Instance{}, &InstanceList{}, &OperatorVersion{}, &OperatorVersionList{})
}
