package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// costlyReview is issue 35's costly review of a Cache: 150,000
// undeclared keys (1.8 MB).
func costlyReview(keys int) string {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","operation":"CREATE","name":"c","namespace":"ns",` +
		`"kind":{"group":"example.paramkit.dev","version":"v2","kind":"Cache"},"object":{"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":{"name":"c"},"spec":{"parameters":{"engine":"redis"`)
	for i := range keys {
		fmt.Fprintf(&b, `,"k%07d":1`, i)
	}
	b.WriteString(`}}}}}`)
	return b.String()
}

// BenchmarkCostlyReview is one costly review through the operator's
// validating path: its allocations (-benchmem) are what each costly turn
// of the server may hold (kube.DefaultCostlyAtOnce).
func BenchmarkCostlyReview(b *testing.B) {
	h := mux(b)
	body := costlyReview(150_000)
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, ValidatePath, strings.NewReader(body)))
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}
