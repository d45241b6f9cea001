package main

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/kube"
)

// secretMarkers matches the recognisable secrets of markerVersions.
var secretMarkers = regexp.MustCompile(`SECRET[a-z]+[0-9]+`)

// markerVersions give writeOnly and format: password nodes (and an
// object below a writeOnly one) recognisable defaults, enum members and
// examples; op-2 retypes and drops secrets of op-1.
var markerVersions = map[string]string{
	"op-1": `{"type":"object","properties":{"name":{"type":"string"},
		"password":{"type":"string","writeOnly":true,"default":"SECRETdefault1","enum":["SECRETenum1","SECRETdefault1"],"examples":["SECRETexample1"]},
		"token":{"type":"string","format":"password","enum":["SECRETenum2"],"minLength":40},
		"legacy":{"type":"string","writeOnly":true},
		"pin":{"type":"number","format":"password"},
		"db":{"type":"object","writeOnly":true,"properties":{"user":{"type":"string","default":"SECRETdefault3","enum":["SECRETenum3","SECRETdefault3"]}}}}}`,
	"op-2": `{"type":"object","properties":{"name":{"type":"string"},
		"password":{"type":"string","writeOnly":true,"default":"SECRETdefault1","enum":["SECRETenum1","SECRETdefault1"]},
		"pin":{"type":"integer","writeOnly":true,"enum":[1]},
		"db":{"type":"object","writeOnly":true,"properties":{"user":{"type":"string","enum":["SECRETenum3"]}}}}}`,
}

// TestWebhookAnswersCarryNoSecretMarker: admission (validate, mutate,
// upgrade) and conversion answers over the schemas above, with values
// that break every rule of the secret nodes, name none of the markers in
// a denial, its causes, a warning or an audit annotation (issue 26; the
// command walk of paramctl leaves the webhook to this test). The patch of
// an allowed mutation and the converted objects are documents: they
// carry the values given.
func TestWebhookAnswersCarryNoSecretMarker(t *testing.T) {
	h, err := NewHandler(Options{Resolver: ResolverFunc(func(_ context.Context, _, name string) (*kudo.OperatorVersion, error) {
		src, ok := markerVersions[name]
		if !ok {
			return nil, &NotFoundError{Name: name}
		}
		return kudo.Load(name, []byte(src))
	})})
	require.NoError(t, err)
	ctx := context.Background()
	bad := `{"name":"a","password":"SECRETvalue1","token":"SECRETvalue2","db":{"user":"SECRETvalue3","usr":"SECRETvalue4"},"passwrd":"SECRETvalue5"}`
	old := `{"name":"a","legacy":"SECRETvalue6","pin":8675.309,"password":"SECRETenum1"}`
	for name, resp := range map[string]*kube.AdmissionResponse{
		"validate create":  h.Validate(ctx, admissionRequest("CREATE", instanceJSON(V1beta2, "op-1", bad, ""), nil)),
		"mutate create":    h.Mutate(ctx, admissionRequest("CREATE", instanceJSON(V1beta2, "op-1", bad, ""), nil)),
		"mutate defaults":  h.Mutate(ctx, admissionRequest("CREATE", instanceJSON(V1beta2, "op-1", `{"name":"a"}`, ""), nil)),
		"validate update":  h.Validate(ctx, admissionRequest("UPDATE", instanceJSON(V1beta2, "op-1", bad, ""), instanceJSON(V1beta2, "op-1", old, ""))),
		"mutate upgrade":   h.Mutate(ctx, admissionRequest("UPDATE", instanceJSON(V1beta2, "op-2", old, ""), instanceJSON(V1beta2, "op-1", old, ""))),
		"validate upgrade": h.Validate(ctx, admissionRequest("UPDATE", instanceJSON(V1beta2, "op-2", bad, ""), instanceJSON(V1beta2, "op-1", old, ""))),
	} {
		t.Run(name, func(t *testing.T) {
			resp.Patch = nil // a document: the values themselves
			raw, err := json.Marshal(resp)
			require.NoError(t, err)
			assert.Empty(t, secretMarkers.FindAllString(string(raw), -1), "%s", raw)
			if name == "validate create" {
				assert.False(t, resp.Allowed)
				assert.Contains(t, string(raw), "(value hidden)", "the denial is about the secrets")
			}
		})
	}
	for _, obj := range []json.RawMessage{instanceJSON(V1beta2, "op-1", bad, ""), instanceJSON(V1beta1, "op-1", `{"password":"SECRETvalue7","db":"{user: SECRETvalue8"}`, "")} {
		for _, to := range []string{V1beta1, V1beta2} {
			resp := h.Convert(ctx, &kube.ConversionRequest{UID: "u", DesiredAPIVersion: to, Objects: []json.RawMessage{obj}})
			resp.ConvertedObjects = nil // documents
			raw, err := json.Marshal(resp)
			require.NoError(t, err)
			assert.Empty(t, secretMarkers.FindAllString(string(raw), -1), "%s", raw)
		}
	}
}
