package kube

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// apiserverReview is an AdmissionReview as kube-apiserver v1.37 writes
// one (every key of the request, oldObject null on a CREATE).
const apiserverReview = `{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"uid":"0e0b4b1c-2c63-4f3a-a1de-39a4c3f9d6b1",` +
	`"kind":{"group":"kudo.dev","version":"v1beta2","kind":"Instance"},"resource":{"group":"kudo.dev","version":"v1beta2","resource":"instances"},` +
	`"requestKind":{"group":"kudo.dev","version":"v1beta2","kind":"Instance"},"requestResource":{"group":"kudo.dev","version":"v1beta2","resource":"instances"},` +
	`"name":"forty","namespace":"latency","operation":"CREATE","userInfo":{"username":"admin","groups":["system:masters","system:authenticated"]},` +
	`"object":{"apiVersion":"kudo.dev/v1beta2","kind":"Instance","metadata":{"name":"forty","namespace":"latency"},"spec":{"operatorVersion":{"name":"forty-1.0.0"},"parameters":{"n":9007199254740993,"s":"é"}}},` +
	`"oldObject":null,"dryRun":false,"options":{"kind":"CreateOptions","apiVersion":"meta.k8s.io/v1","fieldManager":"kubectl-create"}}}`

// The fast path takes what the apiserver sends; everything it takes,
// it reads as encoding/json does.
func TestFastAdmissionReviewTakesTheAPIServersReview(t *testing.T) {
	for _, body := range []string{apiserverReview, admissionBodyInternal, `{}`, `{"request":{}}`,
		`{"request":{"uid":"u","requestKind":null,"dryRun":true}}`, " \n{\"kind\" : \"AdmissionReview\" }\t"} {
		var fast AdmissionReview
		require.True(t, fastAdmissionReview([]byte(body), &fast), "%s", body)
		var slow AdmissionReview
		require.NoError(t, json.Unmarshal([]byte(body), &slow))
		assert.Equal(t, slow, fast)
	}
}

// What the fast path leaves to the general one: it never judges.
func TestFastAdmissionReviewLeavesTheRest(t *testing.T) {
	for name, body := range map[string]string{
		"escape in a string":   strings.Replace(apiserverReview, `"forty"`, `"fo\u0072ty"`, 1),
		"key in another case":  strings.Replace(apiserverReview, `"uid"`, `"UID"`, 1),
		"repeated uid":         strings.Replace(apiserverReview, `"name":"forty"`, `"uid":"x"`, 1),
		"repeated object":      strings.Replace(apiserverReview, `"oldObject":null`, `"object":{}`, 1),
		"unknown key":          strings.Replace(apiserverReview, `"dryRun"`, `"dryrun2"`, 1),
		"response":             `{"response":{"uid":"u","allowed":true}}`,
		"null request":         `{"request":null}`,
		"number for a string":  `{"request":{"uid":1}}`,
		"invalid JSON inside":  strings.Replace(apiserverReview, `9007199254740993`, `01`, 1),
		"control character":    "{\"kind\":\"a\tb\"}",
		"invalid UTF-8":        "{\"kind\":\"\xff\"}",
		"trailing text":        apiserverReview + "x",
		"unterminated":         apiserverReview[:len(apiserverReview)-1],
		"not an object":        `[]`,
		"dryRun not a boolean": `{"request":{"dryRun":"yes"}}`,
		"repeated key in kind": `{"request":{"kind":{"kind":"a","kind":"b"}}}`,
		"literal run together": `{"request":{"dryRun":truex}}`,
		"empty":                ``,
	} {
		var r AdmissionReview
		assert.False(t, fastAdmissionReview([]byte(body), &r), name)
	}
}

// FuzzFastAdmissionReview: where the fast path reads a body, the body is
// JSON, its envelope repeats no key, and encoding/json reads the same.
func FuzzFastAdmissionReview(f *testing.F) {
	for _, s := range []string{apiserverReview, admissionBodyInternal, `{"request":{"dryRun":null,"requestKind":null}}`, `{"request":{"kind":{}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var fast AdmissionReview
		if !fastAdmissionReview(body, &fast) {
			return
		}
		require.True(t, json.Valid(body), "%q", body)
		require.NoError(t, checkEnvelope(context.Background(), body))
		var slow AdmissionReview
		require.NoError(t, json.Unmarshal(body, &slow))
		assert.Equal(t, slow, fast)
	})
}

const admissionBodyInternal = `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u1",
 "kind":{"group":"example.paramkit.dev","version":"v2","kind":"Cache"},"operation":"CREATE",
 "object":{"spec":{"parameters":{"n":9007199254740993}}}}}`

// fastValid is the fast path's value reader on a whole document.
func fastValid(b []byte) bool {
	p := &fastParser{b: b}
	p.ws()
	if !p.value(0) {
		return false
	}
	p.ws()
	return p.i == len(p.b)
}

// The fast path's value reader judges JSON as json.Valid does, its
// depth limit included.
func TestFastValueIsJSONValid(t *testing.T) {
	for _, s := range []string{`0`, `-0.5e+10`, `01`, `-`, `1.`, `1e`, `.5`, `"\u00e9\n\/"`, `"\x"`, `"\u12"`, "\"\x01\"",
		"\"\xff\"", `[1,]`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `[] `, ` {"a":[true,false,null,{"b":"c"}]}`, `tru`, `nul`, `[1 2]`, ``, `   `,
		strings.Repeat("[", maxNesting) + strings.Repeat("]", maxNesting),
		strings.Repeat("[", maxNesting+1) + strings.Repeat("]", maxNesting+1),
		strings.Repeat(`{"a":`, maxNesting) + "1" + strings.Repeat("}", maxNesting)} {
		assert.Equal(t, json.Valid([]byte(s)), fastValid([]byte(s)), "%.40q", s)
	}
	// An object nested so deep that the review is too deep for
	// encoding/json, though the object alone is not.
	deep := `{"request":{"object":` + strings.Repeat("[", maxNesting-1) + strings.Repeat("]", maxNesting-1) + `}}`
	var r AdmissionReview
	assert.False(t, fastAdmissionReview([]byte(deep), &r))
	assert.Error(t, json.Unmarshal([]byte(deep), &r))
	deepest := `{"request":{"object":` + strings.Repeat("[", maxNesting-2) + strings.Repeat("]", maxNesting-2) + `}}`
	assert.True(t, fastAdmissionReview([]byte(deepest), &r))
	assert.NoError(t, json.Unmarshal([]byte(deepest), &r))
}

func FuzzFastValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,-2.5e3,"x\u00e9"],"b":null}`, `[tru]`, `"\"`, `-01`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		require.Equal(t, json.Valid(b), fastValid(b), "%q", b)
	})
}

// BenchmarkReadAdmissionReview: the review the apiserver sends, read by
// the fast path and by the general one (checkEnvelope, then
// encoding/json), which read the same (FuzzFastAdmissionReview).
//
//	go test -run XXX -bench ReadAdmissionReview -benchmem ./kube
func BenchmarkReadAdmissionReview(b *testing.B) {
	body := []byte(apiserverReview)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r AdmissionReview
			if !fastAdmissionReview(body, &r) {
				b.Fatal("not read")
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r AdmissionReview
			if err := decodeEnvelope(context.Background(), body, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
