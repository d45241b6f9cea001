package kudoconvert_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/examples/operator/kudoconvert"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/schema"
)

type resolver map[string]*kudo.OperatorVersion

func (r resolver) Resolve(_ context.Context, _, name string) (*kudo.OperatorVersion, error) {
	if v, ok := r[name]; ok {
		return v, nil
	}
	return nil, &kudoconvert.NotFoundError{Name: name}
}

func handler(t *testing.T, guess bool) *kudoconvert.Handler {
	t.Helper()
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"nodeCount":{"type":"integer"},"name":{"type":"string"}}}`))
	require.NoError(t, err)
	v, err := kudo.New("zk-1.0", s, nil)
	require.NoError(t, err)
	h, err := kudoconvert.NewHandler(kudoconvert.Options{Resolver: resolver{"zk-1.0": v}, GuessWithoutSchema: guess})
	require.NoError(t, err)
	return h
}

func review(uid, to string, objects ...string) string {
	return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"` + uid +
		`","desiredAPIVersion":"` + to + `","objects":[` + strings.Join(objects, ",") + `]}}`
}

const instanceV1beta1 = `{"apiVersion":"kudo.dev/v1beta1","kind":"Instance","metadata":{"name":"zk","namespace":"default"},` +
	`"spec":{"operatorVersion":{"name":"zk-1.0"},"parameters":{"nodeCount":"9007199254740993","name":"007"}}}`

func TestServeHTTP(t *testing.T) {
	cases := []struct {
		name, path, body string
		guess            bool
		code             int
		check            func(t *testing.T, r kube.ConversionReview)
	}{
		{"up by the schema, numbers exact, strings as written", "/convert", review("u1", "kudo.dev/v1beta2", instanceV1beta1), false, 200,
			func(t *testing.T, r kube.ConversionReview) {
				require.Equal(t, "Success", r.Response.Result.Status, r.Response.Result.Message)
				assert.Equal(t, "u1", r.Response.UID)
				assert.Contains(t, string(r.Response.ConvertedObjects[0]), `"parameters":{"name":"007","nodeCount":9007199254740993}`)
			}},
		{"no schema, no guessing: a failure naming it", "/convert", review("u2", "kudo.dev/v1beta2", strings.Replace(instanceV1beta1, "zk-1.0", "gone-1.0", 1)), false, 200,
			func(t *testing.T, r kube.ConversionReview) {
				assert.Equal(t, "Failure", r.Response.Result.Status)
				assert.Contains(t, r.Response.Result.Message, `no schema for operator version "gone-1.0"`)
			}},
		{"no schema, guessing", "/convert", review("u3", "kudo.dev/v1beta2", strings.Replace(instanceV1beta1, "zk-1.0", "gone-1.0", 1)), true, 200,
			func(t *testing.T, r kube.ConversionReview) {
				require.Equal(t, "Success", r.Response.Result.Status, r.Response.Result.Message)
				assert.Contains(t, string(r.Response.ConvertedObjects[0]), `"name":"007"`)
			}},
		{"a repeated uid is refused", "/convert", strings.Replace(review("u4", "kudo.dev/v1beta2"), `"uid":"u4"`, `"uid":"u4","uid":"u5"`, 1), false, 400, nil},
		{"not a review", "/convert", `{}`, false, 400, nil},
		{"past the deadline", "/convert?timeout=1ns", review("u6", "kudo.dev/v1beta2", instanceV1beta1), false, 504, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			handler(t, c.guess).ServeHTTP(w, httptest.NewRequest(http.MethodPost, c.path, strings.NewReader(c.body)))
			require.Equal(t, c.code, w.Code, w.Body.String())
			if c.check != nil {
				var r kube.ConversionReview
				require.NoError(t, json.Unmarshal(w.Body.Bytes(), &r))
				c.check(t, r)
			}
		})
	}
	w := httptest.NewRecorder()
	handler(t, false).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/convert", nil))
	assert.Equal(t, http.StatusMethodNotAllowed, w.Code)
}
