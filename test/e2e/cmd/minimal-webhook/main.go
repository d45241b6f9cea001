// Command minimal-webhook is the floor a validating or mutating webhook
// pays for a call: it reads the AdmissionReview and allows it, with Go's
// HTTPS server speaking HTTP/1.1 (as paramctl webhook does unless
// --enable-http2). TestAdmissionLatency compares paramctl webhook's calls
// with its calls.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/http"
)

func main() {
	cert := flag.String("cert", "", "PEM certificate `FILE`")
	key := flag.String("key", "", "PEM key `FILE`")
	addr := flag.String("addr", "127.0.0.1:8443", "`ADDR` to listen on")
	flag.Parse()
	allow := func(w http.ResponseWriter, r *http.Request) {
		var review struct {
			APIVersion string `json:"apiVersion"`
			Request    struct {
				UID string `json:"uid"`
			} `json:"request"`
		}
		if err := json.NewDecoder(r.Body).Decode(&review); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"apiVersion":%q,"kind":"AdmissionReview","response":{"uid":%q,"allowed":true}}`, review.APIVersion, review.Request.UID)
	}
	http.HandleFunc("/validate", allow)
	http.HandleFunc("/mutate", allow)
	http.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	srv := &http.Server{Addr: *addr, Protocols: new(http.Protocols)}
	srv.Protocols.SetHTTP1(true)
	log.Fatal(srv.ListenAndServeTLS(*cert, *key))
}
