package kube_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// A webhook for a CRD whose spec.parameters a paramkit schema types: the
// review is decoded, judged and answered; the defaults come back as an
// exact JSON patch.
func ExampleAdmit() {
	s, err := schema.Parse([]byte(`{"type": "object", "additionalProperties": false,
		"properties": {
			"engine": {"type": "string", "enum": ["redis", "memcached"], "default": "redis"},
			"maxEntries": {"type": "integer", "default": 9007199254740993}}}`))
	if err != nil {
		panic(err)
	}
	body := []byte(`{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {
		"uid": "705ab4f5", "kind": {"group": "example.paramkit.dev", "version": "v1", "kind": "Cache"},
		"operation": "CREATE", "name": "c1",
		"object": {"apiVersion": "example.paramkit.dev/v1", "kind": "Cache", "spec": {"parameters": {}}}}}`)
	ctx := context.Background() // a server derives it from the apiserver's ?timeout=
	review, err := kube.DecodeReview[kube.AdmissionReview](ctx, body)
	if err != nil {
		panic(err) // HTTP 400
	}
	resp, err := kube.Admit(ctx, s, review.Request)
	if err != nil {
		fmt.Println("not judged:", err) // resp says so too
	}
	fmt.Println(resp.Allowed, string(resp.Patch))

	// An invalid value: causes at field paths, with Kubernetes' cause types.
	review.Request.Object = json.RawMessage(`{"spec": {"parameters": {"engine": "mysql", "maxEntrie": 5}}}`)
	resp, _ = kube.Admit(ctx, s, review.Request)
	for _, c := range resp.Result.Details.Causes {
		fmt.Println(c.Type, c.Field)
	}
	fmt.Println(resp.Result.Details.Causes[1].Message)
	out, _ := review.Respond(resp)
	fmt.Println(len(out) < 1024)
	// Output:
	// true [{"op":"replace","path":"/spec/parameters","value":{"engine":"redis","maxEntries":9007199254740993}}]
	// FieldValueNotSupported spec.parameters.engine
	// FieldValueForbidden spec.parameters.maxEntrie
	// Forbidden: not allowed here (the schema does not declare it); did you mean "maxEntries"?
	// true
}

// The patch between two values keeps every number's text. It is one
// operation per change, or one replace of the whole value where that is
// shorter.
func ExampleJSONPatch() {
	unchanged := `"description": "` + strings.Repeat("a long text that stays as it is; ", 5) + `"`
	from, _ := params.Decode(nil, []byte(`{"size": 1, "old": true, `+unchanged+`}`))
	to, _ := params.Decode(nil, []byte(`{"size": 9007199254740993, "new": "x", `+unchanged+`}`))
	patch, err := params.MarshalJSON(nil, kube.JSONPatch("/spec/parameters", from, to), "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(patch))

	from, _ = params.Decode(nil, []byte(`{}`))
	to, _ = params.Decode(nil, []byte(`{"a": 1, "b": 2, "c": 3}`))
	patch, _ = params.MarshalJSON(nil, kube.JSONPatch("/spec/parameters", from, to), "")
	fmt.Println(string(patch))
	// Output:
	// [{"op":"remove","path":"/spec/parameters/old"},{"op":"replace","path":"/spec/parameters/size","value":9007199254740993},{"op":"add","path":"/spec/parameters/new","value":"x"}]
	// [{"op":"replace","path":"/spec/parameters","value":{"a":1,"b":2,"c":3}}]
}

// Respond writes warnings within what the apiserver keeps: the last
// says how many more there were.
func ExampleAdmissionReview_Respond() {
	var ws []string
	for i := range 1000 {
		ws = append(ws, fmt.Sprintf("spec.parameters.key%d: not declared by the schema", i))
	}
	review := &kube.AdmissionReview{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"}
	out, err := review.Respond(&kube.AdmissionResponse{UID: "u1", Allowed: true, Warnings: ws})
	if err != nil {
		fmt.Println(err)
		return
	}
	var answer kube.AdmissionReview
	_ = json.Unmarshal(out, &answer)
	capped := answer.Response.Warnings
	fmt.Println(len(capped), capped[len(capped)-1])
	// Output:
	// 84 paramkit: 917 more warnings left out
}

// Only the apiserver may call: Require lets through only callers whose
// client certificate the CA signed; open paths (here /healthz) answer
// anyone. A TLS server asks for certificates with ConfigureTLS.
func ExampleClientCA() {
	dir, _ := os.MkdirTemp("", "client-ca")
	defer os.RemoveAll(dir)
	caPEM, apiserver := throwawayCA() // in a cluster: a mounted file
	caFile := filepath.Join(dir, "client-ca.crt")
	_ = os.WriteFile(caFile, caPEM, 0o600)

	ca, err := kube.NewClientCA(caFile, nil)
	if err != nil {
		panic(err)
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	ca.ConfigureTLS(cfg) // or controller-runtime's webhook.Options.TLSOpts
	h := ca.Require(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") }), "/healthz")

	for _, c := range []struct {
		who  string
		path string
		cert *x509.Certificate
	}{{"anyone", "/healthz", nil}, {"anyone", "/validate", nil}, {"the apiserver", "/validate", apiserver}} {
		r := httptest.NewRequest(http.MethodPost, "https://webhook"+c.path, strings.NewReader("{}"))
		r.TLS = &tls.ConnectionState{}
		if c.cert != nil {
			r.TLS.PeerCertificates = []*x509.Certificate{c.cert}
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Println(c.who, c.path, w.Code)
	}
	// Output:
	// anyone /healthz 200
	// anyone /validate 401
	// the apiserver /validate 200
}

// throwawayCA makes a CA and a client certificate it signed.
func throwawayCA() ([]byte, *x509.Certificate) {
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "apiserver-clients"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true}
	caDER, _ := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	caCert, _ := x509.ParseCertificate(caDER)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "kube-apiserver"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, _ := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	cert, _ := x509.ParseCertificate(der)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), cert
}
