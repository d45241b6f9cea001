package kube

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// TestAdmitNeverAllowsBesideAnError: whatever step of Admit fails
// (filling in defaults included, whose error once came back beside the
// allowed answer it had started from), the answer beside the error is a
// denial saying why; an answer already denied keeps its own status.
func TestAdmitNeverAllowsBesideAnError(t *testing.T) {
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"n":{"type":"integer","default":1}}}`))
	require.NoError(t, err)
	req := &AdmissionRequest{UID: "u1", Kind: GroupVersionKind{Kind: "Cache"}, Name: "c", Namespace: "ns", Operation: "CREATE",
		Object: []byte(`{"spec":{"parameters":{}}}`)}
	for _, tt := range []struct {
		name     string
		resp     *AdmissionResponse
		err      error
		allowed  bool
		code     int32
		inResult string
	}{
		{"no error keeps the allowed answer", &AdmissionResponse{UID: "u1", Allowed: true}, nil, true, 0, ""},
		{"an error beside an allowed answer denies", &AdmissionResponse{UID: "u1", Allowed: true}, errors.New("filling in defaults: broken"), false, 500, "Cache ns/c: filling in defaults: broken"},
		{"an error beside an allowed answer with a patch denies", &AdmissionResponse{UID: "u1", Allowed: true, PatchType: "JSONPatch", Patch: []byte(`[]`)}, errors.New("boom"), false, 500, "boom"},
		{"an error beside a denial keeps the denial", &AdmissionResponse{UID: "u1", Result: failure(504, "Timeout", "too late", nil)}, errors.New("too late"), false, 504, "too late"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := &admission{ctx: context.Background(), s: s, req: req, c: newConfig(nil), resp: tt.resp}
			resp, err := a.settle(tt.err)
			require.NotNil(t, resp)
			assert.Equal(t, tt.err, err)
			assert.Equal(t, tt.allowed, resp.Allowed)
			assert.Equal(t, "u1", resp.UID)
			if tt.allowed {
				assert.Nil(t, resp.Result)
				return
			}
			require.NotNil(t, resp.Result)
			assert.Equal(t, tt.code, resp.Result.Code)
			assert.Contains(t, resp.Result.Message, tt.inResult)
			assert.Empty(t, resp.Patch, "a denial carries no patch")
		})
	}
	// Through Admit: every failing request comes back denied.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		name string
		ctx  context.Context
		s    *schema.Schema
		req  *AdmissionRequest
	}{
		{"zero schema", context.Background(), &schema.Schema{}, req},
		{"deadline passed", ctx, s, req},
		{"object not JSON", context.Background(), s, &AdmissionRequest{UID: "u1", Operation: "CREATE", Object: []byte(`{`)}},
		{"no request", context.Background(), s, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := Admit(tt.ctx, tt.s, tt.req)
			require.Error(t, err)
			require.NotNil(t, resp)
			assert.False(t, resp.Allowed)
			require.NotNil(t, resp.Result)
			assert.NotZero(t, resp.Result.Code)
		})
	}
}
