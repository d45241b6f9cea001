package v1beta2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// ConditionParametersValid is the condition type that says whether an
// Instance's parameters are valid for its operator version, as the
// reconciler last checked them.
const ConditionParametersValid = "ParametersValid"

// Instance is one installation of an operator version.
type Instance struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   InstanceSpec   `json:"spec,omitempty"`
	Status InstanceStatus `json:"status,omitempty"`
}

// InstanceSpec is what the user asks for.
type InstanceSpec struct {
	// OperatorVersion names an OperatorVersion in the Instance's
	// namespace.
	OperatorVersion OperatorVersionReference `json:"operatorVersion"`
	// Parameters are the parameter values, typed as the operator
	// version's schema says (a JSON object), kept as the JSON text the
	// apiserver holds.
	Parameters *runtime.RawExtension `json:"parameters,omitempty"`
	// PlanExecution is the plan the last accepted change of the spec
	// triggered. The mutating webhook sets it where it sees the change
	// (KUDO's own webhook did so); the validating webhook refuses one set
	// by hand.
	PlanExecution PlanExecution `json:"planExecution,omitempty"`
}

// OperatorVersionReference names an OperatorVersion.
type OperatorVersionReference struct {
	Name string `json:"name"`
}

// PlanExecution is a plan decided at admission.
type PlanExecution struct {
	// PlanName is the plan: deploy on creation, upgrade (or deploy) on an
	// operator-version change, otherwise the changed parameters' trigger.
	PlanName string `json:"planName,omitempty"`
	// UID is the admission request that decided it, so that two changes
	// running the same plan are told apart.
	UID types.UID `json:"uid,omitempty"`
}

// InstanceStatus is what the reconciler observed.
type InstanceStatus struct {
	// ObservedGeneration is the generation of the spec the status
	// describes.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Plan is the plan the last accepted change triggered
	// (spec.planExecution.planName).
	Plan string `json:"plan,omitempty"`
	// Conditions hold ParametersValid.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// InstanceList is a list of Instances.
type InstanceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Instance `json:"items"`
}
