package schema_test

import (
	"testing"

	"github.com/paramkit/paramkit/schema"
)

const gatewayValue = `{"name":"gw","replicas":3,"minReplicas":2,"timeout":"1h30m","caBundle":"aGVsbG8=","hostnames":["a.example.com","b.example.com"],
"listeners":[{"name":"http","port":80},{"name":"https","port":443,"tls":{"mode":"Terminate","certificateRefs":["c"]}}]}`

// BenchmarkValidateKubernetes: one object against a schema with CEL
// rules, list types and formats, the rules compiled once.
func BenchmarkValidateKubernetes(b *testing.B) {
	s, err := schema.Parse([]byte(gatewaySchema))
	if err != nil {
		b.Fatal(err)
	}
	v := kubeValue(b, gatewayValue)
	if err := s.Validate(v); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Validate(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateUpdateKubernetes: the same with the old value, so
// that transition rules run.
func BenchmarkValidateUpdateKubernetes(b *testing.B) {
	s, err := schema.Parse([]byte(gatewaySchema))
	if err != nil {
		b.Fatal(err)
	}
	v, old := kubeValue(b, gatewayValue), kubeValue(b, gatewayValue)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.ValidateUpdate(v, old); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileKubernetesRules: parsing the schema and compiling its
// five rules (the first validation), what a CRD version costs once.
func BenchmarkCompileKubernetesRules(b *testing.B) {
	v := kubeValue(b, gatewayValue)
	b.ReportAllocs()
	for b.Loop() {
		s, err := schema.Parse([]byte(gatewaySchema))
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidatePlainSchema: the same object against the schema
// without its x-kubernetes-* keywords, for comparison.
func BenchmarkValidatePlainSchema(b *testing.B) {
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"name":{"type":"string"},"replicas":{"type":"integer"},"minReplicas":{"type":"integer"},
"timeout":{"type":"string"},"caBundle":{"type":"string"},"hostnames":{"type":"array","items":{"type":"string"}},
"listeners":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"port":{"type":"integer"},
"tls":{"type":"object","properties":{"mode":{"type":"string"},"certificateRefs":{"type":"array","items":{"type":"string"}}}}}}}}}`))
	if err != nil {
		b.Fatal(err)
	}
	v := kubeValue(b, gatewayValue)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Validate(v); err != nil {
			b.Fatal(err)
		}
	}
}
