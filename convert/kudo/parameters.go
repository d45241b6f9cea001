package kudo

// Parameters returns the parameters of a kudo.dev Instance of this
// operator version, the object as params.Decode gives it: its
// spec.parameters as v1beta2 values, {} when it has none (or they are
// null). A v1beta1 Instance's texts are unwrapped by the schema as
// ConvertObject converts them up, the values the annotation
// paramkit.dev/v1beta2-parameters keeps included; a text that cannot take
// its node's type stays the string it was, for validation to name. The
// object is not changed, and the values may share parts of it. A nil
// OperatorVersion unwraps nothing.
func (v *OperatorVersion) Parameters(instance map[string]any) any {
	o := object(instance)
	p, present := o.parameters()
	if !present {
		return map[string]any{}
	}
	if m, ok := p.(map[string]any); ok && o.apiVersion() == v1beta1 && v.Schema() != nil {
		bag, _ := decodeBag(o) // a bag that cannot be read: the texts decide
		return unwrapParameters(m, bag, schemaCodec(v.Schema()))
	}
	return p
}
