package v1beta1

import (
	"k8s.io/apimachinery/pkg/runtime"
)

// The deep copies controller-runtime needs, written out (what
// controller-gen would generate for these types).

// DeepCopyInto copies the receiver into out.
func (in *Instance) DeepCopyInto(out *Instance) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Spec.Parameters != nil {
		out.Spec.Parameters = make(map[string]string, len(in.Spec.Parameters))
		for k, v := range in.Spec.Parameters {
			out.Spec.Parameters[k] = v
		}
	}
	in.Status.DeepCopyInto(&out.Status)
}

// DeepCopy returns a copy of the Instance.
func (in *Instance) DeepCopy() *Instance {
	if in == nil {
		return nil
	}
	out := new(Instance)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *Instance) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// DeepCopyInto copies the receiver into out.
func (in *InstanceList) DeepCopyInto(out *InstanceList) {
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]Instance, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

// DeepCopy returns a copy of the list.
func (in *InstanceList) DeepCopy() *InstanceList {
	if in == nil {
		return nil
	}
	out := new(InstanceList)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *InstanceList) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// DeepCopyInto copies the receiver into out.
func (in *OperatorVersion) DeepCopyInto(out *OperatorVersion) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Spec.Parameters != nil {
		out.Spec.Parameters = make([]runtime.RawExtension, len(in.Spec.Parameters))
		for i := range in.Spec.Parameters {
			in.Spec.Parameters[i].DeepCopyInto(&out.Spec.Parameters[i])
		}
	}
	if in.Spec.Plans != nil {
		out.Spec.Plans = make(map[string]runtime.RawExtension, len(in.Spec.Plans))
		for k, v := range in.Spec.Plans {
			out.Spec.Plans[k] = *v.DeepCopy()
		}
	}
}

// DeepCopy returns a copy of the OperatorVersion.
func (in *OperatorVersion) DeepCopy() *OperatorVersion {
	if in == nil {
		return nil
	}
	out := new(OperatorVersion)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *OperatorVersion) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// DeepCopyInto copies the receiver into out.
func (in *OperatorVersionList) DeepCopyInto(out *OperatorVersionList) {
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]OperatorVersion, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

// DeepCopy returns a copy of the list.
func (in *OperatorVersionList) DeepCopy() *OperatorVersionList {
	if in == nil {
		return nil
	}
	out := new(OperatorVersionList)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *OperatorVersionList) DeepCopyObject() runtime.Object { return in.DeepCopy() }
