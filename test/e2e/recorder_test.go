//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// recorder is a reverse proxy that passes every webhook call from the
// apiserver to paramctl unchanged and notes what it was: the path and
// query the apiserver used and, for a ConversionReview, the version asked
// for and the objects in request order.
type recorder struct {
	url       string // where the apiserver reaches the proxy
	upstream  string // paramctl's base URL
	transport http.RoundTripper

	mu    sync.Mutex
	calls []call
}

type call struct {
	Path, RawQuery string
	// For /convert: the desired version and each object's apiVersion,
	// kind, namespace and name in request order.
	Desired string
	Objects []objectRef
	// For /validate and /mutate: the resource kind, operation and name.
	Kind, Operation, Name string
	// Status is paramctl's HTTP status.
	Status int
}

type objectRef struct{ APIVersion, Kind, Namespace, Name string }

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 128<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c := call{Path: req.URL.Path, RawQuery: req.URL.RawQuery}
	var review struct {
		Request struct {
			DesiredAPIVersion string `json:"desiredAPIVersion"`
			Objects           []struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
				Metadata   struct {
					Namespace string `json:"namespace"`
					Name      string `json:"name"`
				} `json:"metadata"`
			} `json:"objects"`
			Kind struct {
				Kind string `json:"kind"`
			} `json:"kind"`
			Operation string `json:"operation"`
			Name      string `json:"name"`
		} `json:"request"`
	}
	if json.Unmarshal(body, &review) == nil {
		c.Desired = review.Request.DesiredAPIVersion
		for _, o := range review.Request.Objects {
			c.Objects = append(c.Objects, objectRef{o.APIVersion, o.Kind, o.Metadata.Namespace, o.Metadata.Name})
		}
		c.Kind, c.Operation, c.Name = review.Request.Kind.Kind, review.Request.Operation, review.Request.Name
	}

	out, err := http.NewRequestWithContext(req.Context(), req.Method, r.upstream+req.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	out.Header = req.Header.Clone()
	resp, err := r.transport.RoundTrip(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	c.Status = resp.StatusCode
	r.mu.Lock()
	r.calls = append(r.calls, c)
	r.mu.Unlock()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}

// mark is a position in the record; since(mark) is what came after it.
func (r *recorder) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

func (r *recorder) since(mark int) []call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]call(nil), r.calls[mark:]...)
}

// conversions sums up the /convert calls of a record: how many reviews,
// the most objects one carried, and each object converted to desired.
func conversions(calls []call, desired string) (reviews, most int, converted map[objectRef]bool) {
	converted = map[objectRef]bool{}
	for _, c := range calls {
		if c.Path != "/convert" || c.Desired != desired {
			continue
		}
		reviews++
		most = max(most, len(c.Objects))
		for _, o := range c.Objects {
			converted[o] = true
		}
	}
	return reviews, most, converted
}
