package main

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/paramkit/paramkit/examples/internal/testcert"
	"github.com/paramkit/paramkit/kube"
)

// Only the apiserver may call: a server of your own (here httptest's)
// asks for client certificates with ConfigureTLS and lets only callers
// with one the CA signed past Require; /healthz stays open for probes.
func Example_clientCA() {
	// The CA that signed the apiserver's client certificate (in a cluster,
	// a mounted file; testcert makes a throwaway one).
	authority, _ := testcert.NewAuthority("apiserver-clients")
	apiserverCert, _, _, _ := authority.ClientCert("kube-apiserver", time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	dir, _ := os.MkdirTemp("", "client-ca")
	defer os.RemoveAll(dir)
	caFile := filepath.Join(dir, "client-ca.crt")
	_ = os.WriteFile(caFile, authority.PEM, 0o600)

	ca, err := kube.NewClientCA(caFile, nil)
	if err != nil {
		panic(err)
	}
	h, err := NewHandler(Options{Resolver: resolver()})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewUnstartedServer(ca.Require(h, "/healthz"))
	srv.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
	ca.ConfigureTLS(srv.TLS)
	srv.StartTLS()
	defer srv.Close()

	anyone := srv.Client()
	apiserver := &http.Client{Transport: srv.Client().Transport.(*http.Transport).Clone()}
	apiserver.Transport.(*http.Transport).TLSClientConfig.Certificates = []tls.Certificate{apiserverCert}
	review := `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{
		"uid":"0004","kind":{"group":"kudo.dev","version":"v1beta2","kind":"Instance"},"operation":"CREATE",
		"object":{"apiVersion":"kudo.dev/v1beta2","kind":"Instance","metadata":{"name":"zk"},
			"spec":{"operatorVersion":{"name":"zookeeper-0.1.0"},"parameters":{"NODE_COUNT":5}}}}}`
	for _, c := range []struct {
		who    string
		client *http.Client
		path   string
	}{{"anyone", anyone, "/healthz"}, {"anyone", anyone, "/validate"}, {"the apiserver", apiserver, "/validate"}} {
		resp, err := c.client.Post(srv.URL+c.path, "application/json", strings.NewReader(review))
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Println(c.who, c.path, resp.StatusCode)
	}
	// Output:
	// anyone /healthz 200
	// anyone /validate 401
	// the apiserver /validate 200
}
