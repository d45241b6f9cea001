package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/params/kube"
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
		{"install", admissionRequest(kube.Create, kep(typo), nil), []string{warning, "plan: deploy"}},
		{"update adding it", admissionRequest(kube.Update, kep(typo), kep(base)), []string{warning, "plan: deploy"}},
		{"update keeping it", admissionRequest(kube.Update, kep(`{"clusterName":"prod","backup":{"enabled":true},"nodeCuont":5}`), kep(typo)), []string{"plan: deploy"}},
		{"nested", admissionRequest(kube.Create, kep(`{"clusterName":"prod","backup":{"enabeld":true}}`), nil),
			[]string{`paramkit: /spec/parameters/backup/enabeld: "enabeld" is not declared by the schema; did you mean "enabled"?`, "plan: deploy"}},
		{"declared keys only", admissionRequest(kube.Create, kep(base), nil), []string{"plan: deploy"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := h.Validate(context.Background(), c.req)
			require.True(t, resp.Allowed, "denied: %v", resp.Result)
			assert.Equal(t, c.warnings, resp.Warnings)
		})
	}
}
