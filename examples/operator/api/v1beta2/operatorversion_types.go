package v1beta2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// OperatorVersion is one version of an operator: its parameter schema and
// its plans (templates and tasks are KUDO's and are kept by the
// apiserver, unread here).
type OperatorVersion struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec OperatorVersionSpec `json:"spec,omitempty"`
}

// OperatorVersionSpec is the part of an OperatorVersion paramkit reads.
type OperatorVersionSpec struct {
	// Version is the operator version's own version string.
	Version string `json:"version,omitempty"`
	// Parameters is the JSON Schema of the Instances' parameters, kept
	// as the JSON text the apiserver holds (kudo.FromObject reads it).
	Parameters *runtime.RawExtension `json:"parameters,omitempty"`
	// Plans maps each plan name to the plan; only the names matter here.
	Plans map[string]runtime.RawExtension `json:"plans,omitempty"`
}

// OperatorVersionList is a list of OperatorVersions.
type OperatorVersionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []OperatorVersion `json:"items"`
}
