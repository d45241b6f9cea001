package kube_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/schema"
)

// cacheSchema is the v2 parameters of the Cache example.
const cacheSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["engine"],
  "properties": {
    "engine": {"type": "string", "enum": ["redis", "memcached"], "default": "redis", "immutable": true},
    "memoryLimitMB": {"type": "integer", "minimum": 16, "default": 64},
    "maxEntries": {"type": "integer"},
    "ttlSeconds": {"type": "integer", "minimum": 0, "default": 300},
    "tiers": {"type": "array", "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}
  }
}`

// openSchema declares names but lets others in.
const openSchema = `{
  "type": "object",
  "properties": {
    "replicas": {"type": "integer", "default": 3},
    "size": {"type": "integer", "default": 9007199254740993}
  }
}`

func mustSchema(tb testing.TB, text string) *schema.Schema {
	tb.Helper()
	s, err := schema.Parse([]byte(text))
	require.NoError(tb, err)
	return s
}

func object(params string) json.RawMessage {
	if params == "" {
		return json.RawMessage(`{"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":{"name":"c"},"spec":{}}`)
	}
	return json.RawMessage(`{"apiVersion":"example.paramkit.dev/v2","kind":"Cache","metadata":{"name":"c"},"spec":{"parameters":` + params + `}}`)
}

func request(op string, obj, old json.RawMessage) *kube.AdmissionRequest {
	return &kube.AdmissionRequest{UID: "u1", Kind: kube.GroupVersionKind{Group: "example.paramkit.dev", Version: "v2", Kind: "Cache"},
		Name: "c", Namespace: "ns", Operation: op, Object: obj, OldObject: old}
}

// applied applies the response's patch to the object and returns the
// field's values as JSON.
func applied(t *testing.T, obj json.RawMessage, resp *kube.AdmissionResponse) string {
	t.Helper()
	out := []byte(obj)
	if len(resp.Patch) > 0 {
		assert.Equal(t, "JSONPatch", resp.PatchType)
		p, err := jsonpatch.DecodePatch(resp.Patch)
		require.NoError(t, err)
		out, err = p.Apply(out)
		require.NoError(t, err)
	}
	var o struct {
		Spec struct {
			Parameters json.RawMessage `json:"parameters"`
		} `json:"spec"`
	}
	d := json.NewDecoder(strings.NewReader(string(out)))
	d.UseNumber()
	require.NoError(t, d.Decode(&o))
	return string(o.Spec.Parameters)
}

func TestAdmit(t *testing.T) {
	closed, open := mustSchema(t, cacheSchema), mustSchema(t, openSchema)
	cases := []struct {
		name     string
		s        *schema.Schema
		req      *kube.AdmissionRequest
		opts     []kube.Option
		allowed  bool
		params   string // the field after the patch
		causes   []kube.StatusCause
		warnings []string
	}{
		{name: "defaults on create", s: closed, req: request("CREATE", object(`{"engine":"memcached"}`), nil), allowed: true,
			params: `{"engine":"memcached","memoryLimitMB":64,"ttlSeconds":300}`},
		{name: "no parameters: the field is added", s: closed, req: request("CREATE", object(""), nil), allowed: true,
			params: `{"engine":"redis","memoryLimitMB":64,"ttlSeconds":300}`},
		{name: "exact numbers", s: open, req: request("CREATE", object(`{"replicas":9007199254740993}`), nil), allowed: true,
			params: `{"replicas":9007199254740993,"size":9007199254740993}`},
		{name: "validating: no patch", s: closed, req: request("CREATE", object(`{"engine":"redis"}`), nil), opts: []kube.Option{kube.Validating()}, allowed: true,
			params: `{"engine":"redis"}`},
		{name: "causes with types and field paths", s: closed, req: request("CREATE", object(`{"engine":"mysql","memoryLimitMB":8,"maxEntries":1.5,"tiers":[{}]}`), nil),
			causes: []kube.StatusCause{
				{Type: "FieldValueNotSupported", Field: "spec.parameters.engine"},
				{Type: "FieldValueTypeInvalid", Field: "spec.parameters.maxEntries"},
				{Type: "FieldValueInvalid", Field: "spec.parameters.memoryLimitMB"},
				{Type: "FieldValueRequired", Field: "spec.parameters.tiers[0].name", Message: "Required value"},
			}},
		{name: "a forbidden property at its own path, with the closest name", s: closed, req: request("CREATE", object(`{"engine":"redis","maxMemoryMb":5}`), nil),
			causes: []kube.StatusCause{{Type: "FieldValueForbidden", Field: "spec.parameters.maxMemoryMb"}}},
		{name: "immutable", s: closed, req: request("UPDATE", object(`{"engine":"memcached"}`), object(`{"engine":"redis"}`)),
			causes: []kube.StatusCause{{Type: "FieldValueForbidden", Field: "spec.parameters.engine"}}},
		{name: "undeclared keys warn, new ones only", s: open, req: request("UPDATE", object(`{"replicsa":1,"old":2}`), object(`{"old":2}`)), allowed: true,
			params:   `{"old":2,"replicas":3,"replicsa":1,"size":9007199254740993}`,
			warnings: []string{"spec.parameters.replicsa: "}},
		{name: "an integer the apiserver already rounded is refused, not stored", s: closed, req: request("CREATE", object(`{"engine":"redis","maxEntries":1.8446744073709552e+19}`), nil),
			causes: []kube.StatusCause{{Type: "FieldValueInvalid", Field: "spec.parameters.maxEntries"}}},
		{name: "delete is not judged", s: closed, req: request("DELETE", nil, object(`{"engine":1}`)), allowed: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := kube.Admit(context.Background(), c.s, c.req, c.opts...)
			require.NoError(t, err)
			require.NotNil(t, resp)
			assert.Equal(t, "u1", resp.UID)
			assert.Equal(t, c.allowed, resp.Allowed, "%+v", resp.Result)
			if c.allowed {
				if c.params != "" {
					assert.JSONEq(t, c.params, applied(t, c.req.Object, resp))
				}
				assert.Len(t, resp.Warnings, len(c.warnings))
				for i, w := range c.warnings {
					assert.True(t, strings.HasPrefix(resp.Warnings[i], w), resp.Warnings[i])
				}
				return
			}
			assert.Empty(t, resp.Patch)
			require.NotNil(t, resp.Result)
			assert.Equal(t, int32(422), resp.Result.Code)
			assert.Equal(t, "Invalid", resp.Result.Reason)
			require.NotNil(t, resp.Result.Details)
			got := resp.Result.Details.Causes
			require.Len(t, got, len(c.causes), "%+v", got)
			for i, want := range c.causes {
				assert.Equal(t, want.Type, got[i].Type, got[i].Message)
				assert.Equal(t, want.Field, got[i].Field)
				if want.Message != "" {
					assert.Equal(t, want.Message, got[i].Message)
				}
				assert.Contains(t, resp.Result.Message, got[i].Field)
			}
		})
	}
}

func TestAdmitHintsTheClosestName(t *testing.T) {
	resp, err := kube.Admit(context.Background(), mustSchema(t, cacheSchema), request("CREATE", object(`{"engine":"redis","ttlSecond":5}`), nil))
	require.NoError(t, err)
	require.False(t, resp.Allowed)
	require.Len(t, resp.Result.Details.Causes, 1)
	c := resp.Result.Details.Causes[0]
	assert.Equal(t, kube.StatusCause{Type: "FieldValueForbidden", Field: "spec.parameters.ttlSecond",
		Message: `Forbidden: not allowed here (the schema does not declare it); did you mean "ttlSeconds"?`}, c)
}

func TestAdmitDeadline(t *testing.T) {
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	resp, err := kube.Admit(ctx, mustSchema(t, cacheSchema), request("CREATE", object(`{}`), nil))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.NotNil(t, resp)
	assert.False(t, resp.Allowed)
	assert.Equal(t, int32(504), resp.Result.Code)
	assert.Equal(t, "Timeout", resp.Result.Reason)
	assert.Contains(t, resp.Result.Message, "deadline")
}
