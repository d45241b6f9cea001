package instancewebhook_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/examples/operator/instancewebhook"
	"github.com/paramkit/paramkit/kube"
)

// admissionReview is an AdmissionReview of a CREATE of obj, its request
// envelope written as given (extra adds keys to it).
func admissionReview(obj []byte, extra string) []byte {
	return []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"req-1",` +
		`"kind":{"group":"kudo.dev","version":"v1beta2","kind":"Instance"},"resource":{"group":"kudo.dev","version":"v1beta2","resource":"instances"},` +
		`"name":"i","namespace":"default","operation":"CREATE","userInfo":{"username":"u"},"object":` + string(obj) + extra + `}}`)
}

// Served through kube.Reviews, the handlers answer as over
// controller-runtime's admission.Webhook, with kube's bounds: two objects
// in one envelope are refused (the last won before) and warnings
// are capped as the apiserver keeps them (150,000 were 10.35 MB before;
// 20,000 here, for time).
func TestAdmitThroughKubeReviews(t *testing.T) {
	rv := &kube.Reviews{}
	mux := http.NewServeMux()
	mux.Handle("/mutate", rv.Admission(instancewebhook.NewMutator(versions(t)).Admit))
	mux.Handle("/validate", rv.Admission(instancewebhook.NewValidator(versions(t)).Admit))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	post := func(path string, body []byte) (int, *kube.AdmissionResponse, string) {
		resp, err := srv.Client().Post(srv.URL+path, "application/json", bytes.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return resp.StatusCode, nil, string(out)
		}
		var r kube.AdmissionReview
		require.NoError(t, json.Unmarshal(out, &r), "%.300s", out)
		return resp.StatusCode, r.Response, string(out)
	}

	code, resp, out := post("/mutate", admissionReview(instance("my-operator-0.1.0", `{}`, ""), ""))
	require.Equal(t, 200, code, out)
	assert.True(t, resp.Allowed, out)
	assert.Equal(t, "req-1", resp.UID)
	assert.Equal(t, "JSONPatch", resp.PatchType)
	assert.NotEmpty(t, resp.Patch, "the defaults")

	code, resp, out = post("/validate", admissionReview(instance("my-operator-0.1.0", `{"replicas":"many"}`, ""), ""))
	require.Equal(t, 200, code, out)
	assert.False(t, resp.Allowed, out)
	require.NotNil(t, resp.Result)
	require.NotNil(t, resp.Result.Details, out)
	assert.True(t, strings.HasPrefix(resp.Result.Details.Causes[0].Field, "spec."), "a field path: %s", out)

	code, _, out = post("/validate", admissionReview(instance("my-operator-0.1.0", `{"replicas":"many"}`, ""),
		`,"object":`+string(instance("my-operator-0.1.0", `{}`, ""))))
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, out, `repeats the key "object"`)

	var keys strings.Builder
	keys.WriteString("{")
	for i := range 20_000 { // 1.3 MB of warnings uncapped
		if i > 0 {
			keys.WriteString(",")
		}
		fmt.Fprintf(&keys, `"u%x":1`, i)
	}
	keys.WriteString("}")
	code, resp, out = post("/mutate", admissionReview(instance("my-operator-0.1.0", keys.String(), ""), ""))
	require.Equal(t, 200, code, "%.300s", out)
	total := 0
	for _, w := range resp.Warnings {
		assert.LessOrEqual(t, utf8.RuneCountInString(w), 256)
		total += len(w)
	}
	assert.LessOrEqual(t, total, 4<<10)
	assert.Less(t, len(out), 256<<10, "the answer stays small")
}
