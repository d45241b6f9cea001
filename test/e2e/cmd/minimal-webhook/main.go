// Command minimal-webhook is the floor a validating or mutating webhook
// pays for a call: it reads the AdmissionReview and allows it, with Go's
// HTTPS server speaking HTTP/1.1 (as paramctl webhook does unless
// --enable-http2). TestAdmissionLatency compares paramctl webhook's calls
// with its calls.
//
// With --answers DIR it answers /validate with DIR/validate.json and
// /mutate with DIR/mutate.json instead (AdmissionReviews whose response's
// uid it replaces): another webhook's answers without its work, which
// separates what answering costs the apiserver (a patch to apply, a larger
// object to encode) from what computing the answer costs the webhook.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"maps"
	"net/http"
	"os"
	"path/filepath"
)

func main() {
	cert := flag.String("cert", "", "PEM certificate `FILE`")
	key := flag.String("key", "", "PEM key `FILE`")
	addr := flag.String("addr", "127.0.0.1:8443", "`ADDR` to listen on")
	answersDir := flag.String("answers", "", "`DIR` of validate.json and mutate.json to answer with")
	flag.Parse()
	answers := map[string]map[string]any{}
	if *answersDir != "" {
		for _, name := range []string{"validate", "mutate"} {
			b, err := os.ReadFile(filepath.Join(*answersDir, name+".json"))
			if err != nil {
				log.Fatal(err)
			}
			var review map[string]any
			if err := json.Unmarshal(b, &review); err != nil {
				log.Fatal(err)
			}
			resp, ok := review["response"].(map[string]any)
			if !ok {
				log.Fatalf("%s.json: no response", name)
			}
			answers["/"+name] = resp
		}
	}
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
		if answer, ok := answers[r.URL.Path]; ok {
			resp := maps.Clone(answer)
			resp["uid"] = review.Request.UID
			_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": review.APIVersion, "kind": "AdmissionReview", "response": resp})
			return
		}
		fmt.Fprintf(w, `{"apiVersion":%q,"kind":"AdmissionReview","response":{"uid":%q,"allowed":true}}`, review.APIVersion, review.Request.UID)
	}
	http.HandleFunc("/validate", allow)
	http.HandleFunc("/mutate", allow)
	http.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	srv := &http.Server{Addr: *addr, Protocols: new(http.Protocols)}
	srv.Protocols.SetHTTP1(true)
	log.Fatal(srv.ListenAndServeTLS(*cert, *key))
}
