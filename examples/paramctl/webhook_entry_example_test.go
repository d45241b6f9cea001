package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
)

// Embedding the webhook handler in a server of your own: it serves
// /validate, /mutate, /convert and /healthz, here under a prefix.
func ExampleNewHandler() {
	h, err := NewHandler(Options{Resolver: resolver()})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/paramkit/", http.StripPrefix("/paramkit", h))

	review := `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{
		"uid":"0003","kind":{"group":"kudo.dev","version":"v1beta2","kind":"Instance"},"operation":"CREATE",
		"object":{"apiVersion":"kudo.dev/v1beta2","kind":"Instance","metadata":{"name":"zk"},
			"spec":{"operatorVersion":{"name":"zookeeper-0.1.0"},"parameters":{"NODE_COUNT":5}}}}}`
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/paramkit/validate", strings.NewReader(review)))
	fmt.Println(rec.Code, strings.Contains(rec.Body.String(), `"allowed":true`))
	// Output:
	// 200 true
}
