package kube_test

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

// wide is an object's parameters with n keys the schema does not declare.
func wide(n int) string {
	var b strings.Builder
	b.WriteString(`{"replicas":1`)
	for i := range n {
		fmt.Fprintf(&b, `,"undeclared-key-%06d":%d`, i, i)
	}
	b.WriteString("}")
	return b.String()
}

// answer is the encoded answer to an admission review of req.
func answer(t *testing.T, resp *kube.AdmissionResponse) []byte {
	t.Helper()
	out, err := (&kube.AdmissionReview{APIVersion: "admission.k8s.io/v1"}).Respond(resp)
	require.NoError(t, err)
	return out
}

func warningBytes(ws []string) int {
	n := 0
	for _, w := range ws {
		n += len(w)
	}
	return n
}

// TestAnswersStayBounded: whatever the request holds, an admission
// answer stays under 256 KiB with at most 4 KiB of warnings, and a key
// quoted in it is cut (issue 26: 150,000 undeclared keys gave an 11.8 MB
// answer; a 2 MiB key was echoed twice).
func TestAnswersStayBounded(t *testing.T) {
	open, closed := mustSchema(t, openSchema), mustSchema(t, cacheSchema)
	longKey := strings.Repeat("k", 2<<20)
	cases := []struct {
		name    string
		s       *kube.AdmissionRequest
		closed  bool
		allowed bool
	}{
		{"150,000 undeclared keys, open schema", request("CREATE", object(wide(150_000)), nil), false, true},
		{"150,000 undeclared keys, closed schema", request("CREATE", object(strings.Replace(wide(150_000), `"replicas":1`, `"engine":"redis"`, 1)), nil), true, false},
		{"a 2 MiB undeclared key, open schema", request("CREATE", object(`{"`+longKey+`":1}`), nil), false, true},
		{"a 2 MiB forbidden key, closed schema", request("CREATE", object(`{"engine":"redis","`+longKey+`":1}`), nil), true, false},
		{"a 2 MiB value not in the enum", request("CREATE", object(`{"engine":"`+longKey+`"}`), nil), true, false},
		{"150,000 invalid items", request("CREATE", object(`{"engine":"redis","tiers":[`+strings.Repeat(`{},`, 149_999)+`{}]}`), nil), true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := open
			if c.closed {
				s = closed
			}
			resp, err := kube.Admit(context.Background(), s, c.s)
			require.NoError(t, err)
			assert.Equal(t, c.allowed, resp.Allowed)
			out := answer(t, resp)
			assert.Less(t, len(out), 256<<10, "the answer")
			assert.LessOrEqual(t, warningBytes(resp.Warnings), 4<<10, "the warnings")
			assert.NotContains(t, string(out), strings.Repeat("k", 1024), "a long key or value is cut")
			if !c.allowed {
				assert.LessOrEqual(t, len(resp.Result.Details.Causes), 50)
			}
			if strings.HasPrefix(c.name, "150,000") && c.allowed {
				last := resp.Warnings[len(resp.Warnings)-1]
				assert.Regexp(t, `^paramkit: \d+ more warnings left out$`, last)
			}
		})
	}
}

// TestRespondCapsWarnings: Respond writes the warnings as the apiserver
// keeps them, whoever built the response.
func TestRespondCapsWarnings(t *testing.T) {
	many := make([]string, 1000)
	for i := range many {
		many[i] = fmt.Sprintf("warning %04d", i)
	}
	long := strings.Repeat("é", 300) // 600 bytes, 300 characters
	cases := []struct {
		name string
		in   []string
		want func(t *testing.T, out []string)
	}{
		{"none", nil, func(t *testing.T, out []string) { assert.Empty(t, out) }},
		{"a few stay as they are", []string{"a", "b"}, func(t *testing.T, out []string) { assert.Equal(t, []string{"a", "b"}, out) }},
		{"a long one is cut to 256 characters", []string{long}, func(t *testing.T, out []string) {
			require.Len(t, out, 1)
			assert.Equal(t, 256, utf8.RuneCountInString(out[0]))
			assert.True(t, strings.HasSuffix(out[0], "…"))
		}},
		{"many: 4 KiB in all, the last counts the rest", many, func(t *testing.T, out []string) {
			assert.LessOrEqual(t, warningBytes(out), 4<<10)
			assert.Equal(t, many[:len(out)-1], out[:len(out)-1])
			assert.Equal(t, fmt.Sprintf("paramkit: %d more warnings left out", 1000-(len(out)-1)), out[len(out)-1])
		}},
		{"exactly full", []string{strings.Repeat("a", 256)}, func(t *testing.T, out []string) { assert.Len(t, out, 1) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := append([]string(nil), c.in...)
			review := &kube.AdmissionReview{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"}
			resp := &kube.AdmissionResponse{UID: "u", Allowed: true, Warnings: c.in}
			out, err := review.Respond(resp)
			require.NoError(t, err)
			var got kube.AdmissionReview
			require.NoError(t, json.Unmarshal(out, &got))
			c.want(t, got.Response.Warnings)
			assert.Equal(t, in, c.in, "the input is not changed")
			assert.Equal(t, in, resp.Warnings, "the response is not changed")
		})
	}
}

func TestCauses(t *testing.T) {
	s := mustSchema(t, cacheSchema)
	resp, err := kube.Admit(context.Background(), s, request("CREATE", object(`{"engine":"redis","a":1,"b":2,"tiers":[{},{}]}`), nil))
	require.NoError(t, err)
	got, _ := json.Marshal(resp.Result.Details.Causes)
	assert.JSONEq(t, `[
		{"reason":"FieldValueForbidden","field":"spec.parameters.a","message":"Forbidden: not allowed here (the schema does not declare it)"},
		{"reason":"FieldValueForbidden","field":"spec.parameters.b","message":"Forbidden: not allowed here (the schema does not declare it)"},
		{"reason":"FieldValueRequired","field":"spec.parameters.tiers[0].name","message":"Required value"},
		{"reason":"FieldValueRequired","field":"spec.parameters.tiers[1].name","message":"Required value"}]`, string(got))
}

// TestCauseTypes: each kind of problem has Kubernetes' cause type.
func TestCauseTypes(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{
		"name": {"type":"string","maxLength":3},
		"short": {"type":"string","minLength":3},
		"tags": {"type":"array","uniqueItems":true,"maxItems":5},
		"mode": {"enum":["a","b"]},
		"n": {"type":"integer","minimum":1},
		"kind": {"type":"string"},
		"fixed": {"type":"string","immutable":true}}}`)
	cases := []struct {
		params, old, typ, field string
	}{
		{`{"name":"long"}`, "", "FieldValueTooLong", "spec.parameters.name"},
		{`{"short":"a"}`, "", "FieldValueInvalid", "spec.parameters.short"},
		{`{"tags":[1,1]}`, "", "FieldValueDuplicate", "spec.parameters.tags"},
		{`{"tags":[1,2,3,4,5,6]}`, "", "FieldValueTooLong", "spec.parameters.tags"},
		{`{"mode":"c"}`, "", "FieldValueNotSupported", "spec.parameters.mode"},
		{`{"n":0}`, "", "FieldValueInvalid", "spec.parameters.n"},
		{`{"kind":1}`, "", "FieldValueTypeInvalid", "spec.parameters.kind"},
		{`{"fixed":"b"}`, `{"fixed":"a"}`, "FieldValueForbidden", "spec.parameters.fixed"},
	}
	for _, c := range cases {
		t.Run(c.params, func(t *testing.T) {
			req := request("CREATE", object(c.params), nil)
			if c.old != "" {
				req = request("UPDATE", object(c.params), object(c.old))
			}
			resp, err := kube.Admit(context.Background(), s, req)
			require.NoError(t, err)
			require.False(t, resp.Allowed)
			require.Len(t, resp.Result.Details.Causes, 1, "%+v", resp.Result.Details.Causes)
			assert.Equal(t, c.typ, resp.Result.Details.Causes[0].Type, resp.Result.Details.Causes[0].Message)
			assert.Equal(t, c.field, resp.Result.Details.Causes[0].Field)
		})
	}
}
