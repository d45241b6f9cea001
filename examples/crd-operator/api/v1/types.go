// Package v1 is the example.paramkit.dev/v1 API of the Cache, still
// served: its spec.parameters follow schemas/v1.yaml. The conversion
// webhook converts them to and from v2 (kube.Convert); what v1 cannot
// hold (v2's ttlSeconds) travels in an annotation.
//
// Parameters are runtime.RawExtension: the JSON text as the apiserver
// sent it, so that a number keeps its exact text. Read them with
// params.Decode.
//
// +kubebuilder:object:generate=true
// +groupName=example.paramkit.dev
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ConditionParametersValid says whether a Cache's parameters are valid,
// as the reconciler last checked them.
const ConditionParametersValid = "ParametersValid"

var (
	// GroupVersion is example.paramkit.dev/v1.
	GroupVersion = schema.GroupVersion{Group: "example.paramkit.dev", Version: "v1"}
	// SchemeBuilder registers the types of this version.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Cache{}, &CacheList{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
	// AddToScheme adds the types of this version to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// Cache is a cache the operator runs.
type Cache struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CacheSpec   `json:"spec,omitempty"`
	Status CacheStatus `json:"status,omitempty"`
}

// CacheSpec is what the user asks for.
type CacheSpec struct {
	// Parameters are typed by schemas/v1.yaml.
	Parameters *runtime.RawExtension `json:"parameters,omitempty"`
}

// CacheStatus is what the reconciler observed.
type CacheStatus struct {
	// ObservedGeneration is the generation of the spec the status
	// describes.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions hold ParametersValid.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// CacheList is a list of Caches.
type CacheList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Cache `json:"items"`
}
