package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/paramkit/paramkit/examples/operator/api/v1beta2"
)

// Instance is an Instance as v1beta1 clients see it: the same object as
// v1beta2.Instance with its parameters as text.
type Instance struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   InstanceSpec           `json:"spec,omitempty"`
	Status v1beta2.InstanceStatus `json:"status,omitempty"`
}

// InstanceSpec is an Instance's spec in v1beta1.
type InstanceSpec struct {
	// OperatorVersion names an OperatorVersion in the Instance's
	// namespace.
	OperatorVersion v1beta2.OperatorVersionReference `json:"operatorVersion"`
	// Parameters are the parameter values as text (KUDO's v1beta1): the
	// conversion webhook unwraps each by its node in the schema.
	Parameters map[string]string `json:"parameters,omitempty"`
	// PlanExecution is as in v1beta2.
	PlanExecution v1beta2.PlanExecution `json:"planExecution,omitempty"`
}

// InstanceList is a list of Instances.
type InstanceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Instance `json:"items"`
}

// OperatorVersion is an OperatorVersion as v1beta1 clients see it.
type OperatorVersion struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec OperatorVersionSpec `json:"spec,omitempty"`
}

// OperatorVersionSpec is an OperatorVersion's spec in v1beta1.
type OperatorVersionSpec struct {
	Version string `json:"version,omitempty"`
	// Parameters is KUDO's flat parameter list, each entry kept as its
	// JSON text (a default may be any scalar).
	Parameters []runtime.RawExtension `json:"parameters,omitempty"`
	// Plans maps each plan name to the plan.
	Plans map[string]runtime.RawExtension `json:"plans,omitempty"`
}

// OperatorVersionList is a list of OperatorVersions.
type OperatorVersionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []OperatorVersion `json:"items"`
}
