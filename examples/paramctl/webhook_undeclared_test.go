package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/kube"
)

// A key of the parameters that the schema does not declare becomes an
// admission warning (kubectl prints it) with the closest declared names;
// on an UPDATE only when the old parameters did not have it already.
func TestValidateWarnsOfUndeclaredKeys(t *testing.T) {
	h := testHandler(t, nil)
	kep := func(params string) json.RawMessage { return instanceJSON(V1beta2, "kep-0.2.0", params, "") }
	base := `{"clusterName":"prod","backup":{"enabled":true}}`
	typo := `{"clusterName":"prod","backup":{"enabled":true},"nodeCuont":4}`
	warning := `paramkit: /spec/parameters/nodeCuont: "nodeCuont" is not declared by the schema; did you mean "nodeCount"?`
	cases := []struct {
		name     string
		req      *kube.AdmissionRequest
		warnings []string
	}{
		{"install", admissionRequest("CREATE", kep(typo), nil), []string{warning, "plan: deploy"}},
		{"update adding it", admissionRequest("UPDATE", kep(typo), kep(base)), []string{warning, "plan: deploy"}},
		{"update keeping it", admissionRequest("UPDATE", kep(`{"clusterName":"prod","backup":{"enabled":true},"nodeCuont":5}`), kep(typo)), []string{"plan: deploy"}},
		{"nested", admissionRequest("CREATE", kep(`{"clusterName":"prod","backup":{"enabeld":true}}`), nil),
			[]string{`paramkit: /spec/parameters/backup/enabeld: "enabeld" is not declared by the schema; did you mean "enabled"?`, "plan: deploy"}},
		{"declared keys only", admissionRequest("CREATE", kep(base), nil), []string{"plan: deploy"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := h.Validate(context.Background(), c.req)
			require.True(t, resp.Allowed, "denied: %v", resp.Result)
			assert.Equal(t, c.warnings, resp.Warnings)
		})
	}
}

// wideKEP is a kep-0.2.0 Instance's parameters with n keys the schema
// does not declare, one of them as long as long.
func wideKEP(n, long int) string {
	var b strings.Builder
	b.WriteString(`{"clusterName":"prod","backup":{"enabled":true}`)
	for i := range n {
		fmt.Fprintf(&b, `,"undeclared-%06d":%d`, i, i)
	}
	if long > 0 {
		fmt.Fprintf(&b, `,"%s":1`, strings.Repeat("k", long))
	}
	b.WriteString("}")
	return b.String()
}

// TestAnswersStayBounded (issue 26): 150,000 undeclared keys gave an
// 11.8 MB answer with 150,001 warnings, and a 2 MiB key was echoed
// twice. Now the answer stays under 256 KiB with at most 4 KiB of
// warnings, the plan's warning kept, and long keys cut.
func TestAnswersStayBounded(t *testing.T) {
	h := testHandler(t, nil)
	long := strings.Repeat("k", 2<<20)
	cases := []struct {
		name, body string
		allowed    bool
	}{
		{"150,000 undeclared keys", wideKEP(150_000, 0), true},
		{"a 2 MiB undeclared key", wideKEP(0, 2<<20), true},
		{"a 2 MiB value of the wrong type", `{"clusterName":"prod","backup":{"enabled":"` + long + `"}}`, false},
		{"150,000 wrong values", `{"clusterName":"prod","backup":{"enabled":true},"nodeCount":"x","plans":[` + strings.Repeat(`1,`, 149_999) + `1]}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, path := range []string{"/validate", "/mutate"} {
				review := mustJSON(t, map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
					"request": map[string]any{"uid": "u", "kind": map[string]any{"group": "kudo.dev", "version": "v1beta2", "kind": "Instance"},
						"operation": "CREATE", "object": json.RawMessage(instanceJSON(V1beta2, "kep-0.2.0", c.body, ""))}})
				out, err := h.ServeReview(context.Background(), path, review)
				require.NoError(t, err)
				assert.Less(t, len(out), 256<<10, "%s answer", path)
				assert.NotContains(t, string(out), strings.Repeat("k", 1024), "a long key is cut")
				var r kube.AdmissionReview
				require.NoError(t, json.Unmarshal(out, &r))
				n := 0
				for _, w := range r.Response.Warnings {
					n += len(w)
					assert.LessOrEqual(t, utf8.RuneCountInString(w), 256)
				}
				assert.LessOrEqual(t, n, 4<<10, "%s warnings", path)
				if path == "/validate" {
					assert.Equal(t, c.allowed, r.Response.Allowed)
					if c.allowed {
						assert.Equal(t, "plan: deploy", r.Response.Warnings[len(r.Response.Warnings)-1], "the plan's warning is kept")
					}
				}
			}
		})
	}
}

// TestReviewsRepeatingEnvelopeKeysAreRefused (issue 26): two uid, object
// or oldObject keys were accepted, the last one winning.
func TestReviewsRepeatingEnvelopeKeysAreRefused(t *testing.T) {
	h := testHandler(t, nil)
	good := string(readGolden(t, "validate-create-valid"))
	for _, key := range []string{"uid", "object", "oldObject"} {
		t.Run(key, func(t *testing.T) {
			body := strings.Replace(good, `"request": {`, `"request": {"`+key+`": {},`, 1)
			require.NotEqual(t, good, body)
			_, err := h.ServeReview(context.Background(), "/validate", []byte(body))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "repeats the key")
		})
	}
}

// TestAdmissionStopsAtTheDeadline (issue 26): a review went on for 8.3 s
// after the apiserver's 1 s timeout.
func TestAdmissionStopsAtTheDeadline(t *testing.T) {
	h := testHandler(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := admissionRequest("CREATE", instanceJSON(V1beta2, "kep-0.2.0", wideKEP(10, 0), ""), nil)
	for _, resp := range []*kube.AdmissionResponse{h.Validate(ctx, req), h.Mutate(ctx, req)} {
		require.False(t, resp.Allowed)
		assert.Equal(t, int32(504), resp.Result.Code)
		assert.Equal(t, "Timeout", resp.Result.Reason)
		assert.Contains(t, resp.Result.Message, "the review's deadline passed")
	}
}
