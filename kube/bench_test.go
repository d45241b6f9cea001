package kube_test

import (
	"context"
	"testing"

	"github.com/paramkit/paramkit/kube"
)

// BenchmarkDecodeAdmissionReview: the envelope check and decoding of a
// small review, the first step of every admission call.
func BenchmarkDecodeAdmissionReview(b *testing.B) {
	body := []byte(admissionBody)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := kube.DecodeReview[kube.AdmissionReview](context.Background(), body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAdmit: one UPDATE judged and answered (defaults, validation,
// immutability, undeclared keys, patch, encoding).
func BenchmarkAdmit(b *testing.B) {
	s := mustSchema(b, cacheSchema)
	req := request("UPDATE", object(`{"engine":"redis","maxEntries":100,"tiers":[{"name":"a"}]}`), object(`{"engine":"redis"}`))
	review := &kube.AdmissionReview{APIVersion: "admission.k8s.io/v1"}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := kube.Admit(context.Background(), s, req)
		if err != nil || !resp.Allowed {
			b.Fatal(err, resp.Result)
		}
		if _, err := review.Respond(resp); err != nil {
			b.Fatal(err)
		}
	}
}
