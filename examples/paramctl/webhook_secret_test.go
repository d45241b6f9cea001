package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/schema"
)

// secretHandler serves three operator versions whose schemas mark secrets
// by writeOnly, by format: password and through $ref.
func secretHandler(t *testing.T) *Handler {
	t.Helper()
	versions := map[string]string{
		"op-1": `{"type":"object","properties":{"pin":{"type":"number","writeOnly":true},"old":{"type":"string","format":"password"},"size":{"type":"number"},"name":{"type":"string"}}}`,
		"op-2": `{"type":"object","properties":{"pin":{"type":"integer"},"size":{"type":"integer"},"name":{"type":"string"},` +
			`"db":{"$ref":"#/$defs/db"}},"$defs":{"db":{"type":"object","writeOnly":true,"properties":{"port":{"type":"integer"}}}}}`,
	}
	h, err := NewHandler(Options{Resolver: ResolverFunc(func(_ context.Context, _, name string) (*kudo.OperatorVersion, error) {
		src, ok := versions[name]
		if !ok {
			return nil, &NotFoundError{Name: name}
		}
		return kudo.Load(name, []byte(src))
	})})
	require.NoError(t, err)
	return h
}

// responseText is everything an admission response can show: the denial,
// its causes, the warnings and the audit annotations.
func responseText(t *testing.T, resp *kube.AdmissionResponse) string {
	t.Helper()
	raw, err := json.Marshal(resp)
	require.NoError(t, err)
	return string(raw)
}

func TestAdmissionHidesSecrets(t *testing.T) {
	h := secretHandler(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		mutate  bool
		req     *kube.AdmissionRequest
		allowed bool
		secret  string
		want    string
	}{
		{"validate: a secret of the wrong type, through $ref", false,
			admissionRequest("CREATE", instanceJSON(V1beta2, "op-2", `{"db":{"port":"S3cr3tXYZ"}}`, ""), nil), false,
			"S3cr3tXYZ", "/spec/parameters/db/port: expected integer, but got string (value hidden)"},
		{"mutate upgrade: a lossy change of a value secret in the old version", true,
			admissionRequest("UPDATE", instanceJSON(V1beta2, "op-2", `{"pin":8675.309}`, ""), instanceJSON(V1beta2, "op-1", `{"pin":8675.309}`, "")), false,
			"8675", "/spec/parameters/pin: changing number (value hidden) to number (value hidden)"},
		{"mutate upgrade: a dropped secret", true,
			admissionRequest("UPDATE", instanceJSON(V1beta2, "op-2", `{"old":"S3cr3tXYZ","name":"a"}`, ""), instanceJSON(V1beta2, "op-1", `{"old":"S3cr3tXYZ","name":"a"}`, "")), true,
			"S3cr3tXYZ", "parameter /old has no place in the new schema and was dropped"},
		{"validate upgrade: the new object's secret of the wrong type", false,
			admissionRequest("UPDATE", instanceJSON(V1beta2, "op-2", `{"db":{"port":"S3cr3tXYZ"}}`, ""), instanceJSON(V1beta2, "op-1", `{"name":"a"}`, "")), false,
			"S3cr3tXYZ", "/spec/parameters/db/port: expected integer, but got string (value hidden)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var resp *kube.AdmissionResponse
			if tc.mutate {
				resp = h.Mutate(ctx, tc.req)
			} else {
				resp = h.Validate(ctx, tc.req)
			}
			require.Equal(t, tc.allowed, resp.Allowed, "%v", resp.Result)
			// The patch of an allowed mutation carries values; nothing else may.
			resp.Patch = nil
			text := responseText(t, resp)
			assert.NotContains(t, text, tc.secret)
			assert.Contains(t, text, tc.want)
		})
	}
}

// TestAdmissionQuotesPlainValues is the control: a plain value is quoted.
func TestAdmissionQuotesPlainValues(t *testing.T) {
	h := secretHandler(t)
	resp := h.Validate(context.Background(), admissionRequest("CREATE", instanceJSON(V1beta2, "op-2", `{"size":"visible"}`, ""), nil))
	require.False(t, resp.Allowed)
	assert.Contains(t, resp.Result.Message, `/spec/parameters/size: expected integer, but got string "visible"`)
	assert.False(t, strings.Contains(resp.Result.Message, schema.Hidden))
}
