package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
)

// addGoldenSeeds adds the golden requests whose name starts with prefix.
func addGoldenSeeds(f *testing.F, prefix string) {
	files, _ := filepath.Glob("testdata/webhook/golden/" + prefix + "*.request.json")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// internalError reports a message that only a recovered panic produces.
func internalError(msg string) bool { return strings.Contains(msg, "internal error while") }

// FuzzAdmissionReview: any body gives 400 or an answer echoing the uid,
// never a panic; an allowed /mutate patch applies to the object, and
// mutating the patched object again needs no further patch.
func FuzzAdmissionReview(f *testing.F) {
	addGoldenSeeds(f, "validate-")
	addGoldenSeeds(f, "mutate-")
	f.Add([]byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u","kind":{"group":"kudo.dev","kind":"Instance"},"operation":"UPDATE","object":{"spec":{"operatorVersion":{"name":"kep-0.2.0"},"parameters":{"a":1}}},"oldObject":{"spec":{"operatorVersion":{"name":"kep-0.1.0"}}}}}`))
	h := testHandler(f, nil)
	f.Fuzz(func(t *testing.T, body []byte) {
		review, err := kube.DecodeReview[kube.AdmissionReview](context.Background(), body)
		if err != nil {
			return
		}
		for _, mutate := range []bool{false, true} {
			resp := h.admit(context.Background(), review.Request, mutate)
			if resp.UID != review.Request.UID {
				t.Fatalf("uid %q not echoed: %q", review.Request.UID, resp.UID)
			}
			if !resp.Allowed {
				if resp.Result == nil || resp.Result.Message == "" {
					t.Fatalf("a denial without a message")
				}
				if internalError(resp.Result.Message) {
					t.Fatalf("panic: %s", resp.Result.Message)
				}
				continue
			}
			if !mutate || resp.Patch == nil {
				continue
			}
			p, err := jsonpatch.DecodePatch(resp.Patch)
			if err != nil {
				t.Fatalf("bad patch %s: %v", resp.Patch, err)
			}
			patched, err := p.Apply(review.Request.Object)
			if err != nil {
				t.Fatalf("patch %s does not apply: %v", resp.Patch, err)
			}
			again := *review.Request
			again.Object = patched
			if review.Request.Operation == "UPDATE" {
				// Defaults are applied once: the upgrade is done.
				again.OldObject = patched
			}
			if r2 := h.admit(context.Background(), &again, true); r2.Allowed && r2.Patch != nil {
				t.Fatalf("mutating is not idempotent: %s then %s", resp.Patch, r2.Patch)
			}
		}
	})
}

// FuzzConversionReview: any body gives 400 or an answer echoing the uid
// with either every object converted, in order and in the desired
// version, or a failure with a message; never a panic.
func FuzzConversionReview(f *testing.F) {
	addGoldenSeeds(f, "convert-")
	f.Add([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u","desiredAPIVersion":"kudo.dev/v1beta1","objects":[{"apiVersion":"kudo.dev/v1beta2","kind":"Instance","spec":{"operatorVersion":{"name":"zookeeper-0.3.0"},"parameters":{"ZK_PORT":"1","X":[1,{"a":null}]}}}]}}`))
	h := testHandler(f, nil)
	hg := testHandler(f, func(o *Options) { o.GuessWithoutSchema = true })
	f.Fuzz(func(t *testing.T, body []byte) {
		review, err := kube.DecodeReview[kube.ConversionReview](context.Background(), body)
		if err != nil {
			return
		}
		for _, h := range []*Handler{h, hg} {
			resp := h.Convert(context.Background(), review.Request)
			if resp.UID != review.Request.UID {
				t.Fatalf("uid not echoed")
			}
			if resp.Result.Status != "Success" {
				if resp.Result.Message == "" || internalError(resp.Result.Message) {
					t.Fatalf("failure %q", resp.Result.Message)
				}
				continue
			}
			if len(resp.ConvertedObjects) != len(review.Request.Objects) {
				t.Fatalf("%d objects in, %d out", len(review.Request.Objects), len(resp.ConvertedObjects))
			}
			for i, raw := range resp.ConvertedObjects {
				o, err := decodeObject(raw)
				if err != nil {
					t.Fatalf("object %d: %v", i, err)
				}
				if o.str("apiVersion") != review.Request.DesiredAPIVersion {
					t.Fatalf("object %d has apiVersion %q", i, o.str("apiVersion"))
				}
			}
		}
	})
}

// FuzzInstanceRoundTrip: v1beta2 parameters converted down and up again
// are exactly what they were (numbers by value), by schema and by safe
// guessing.
func FuzzInstanceRoundTrip(f *testing.F) {
	for _, s := range []string{
		`{"NODE_COUNT":3,"BACKUP_ENABLED":false,"ARRAY_PARAM":["foo","bar"],"MAP_PARAM":{"foo":"bar"},"VERSION":"1.10"}`,
		`{"ZK_PORT":"2181","VERSION":null,"free":"007","x":[1,"2",{"a":null}]}`,
		`{"ANNOTATIONS":null,"MAP_PARAM":{"k":"{x:1}"},"VERSION":"a\nb: c"}`,
		`{"ZK_PORT":1e3,"NODE_COUNT":"three","t":"true","n":-0.0}`,
	} {
		f.Add([]byte(s), "zookeeper-0.3.0")
	}
	f.Add([]byte(`{"clusterName":"x","backup":{"enabled":true}}`), "kep-0.2.0")
	f.Add([]byte(`{"a":"1","b":"[x]"}`), "gone-1.0.0")
	hg := testHandler(f, func(o *Options) { o.GuessWithoutSchema = true })
	f.Fuzz(func(t *testing.T, paramsJSON []byte, ov string) {
		want, err := params.Decode(nil, paramsJSON)
		if err != nil {
			return
		}
		if _, ok := want.(map[string]any); !ok {
			return
		}
		if checkName(ov) != nil {
			return
		}
		obj := object{"apiVersion": V1beta2, "kind": "Instance", "metadata": map[string]any{"name": "i"},
			"spec": map[string]any{"operatorVersion": map[string]any{"name": ov}, "parameters": want}}
		raw := mustBytes(params.MarshalJSON(nil, map[string]any(obj), ""))
		down := hg.Convert(context.Background(), &kube.ConversionRequest{UID: "u", DesiredAPIVersion: V1beta1, Objects: []json.RawMessage{raw}})
		if down.Result.Status != "Success" {
			if internalError(down.Result.Message) {
				t.Fatal(down.Result.Message)
			}
			return // a schema that cannot be used
		}
		up := hg.Convert(context.Background(), &kube.ConversionRequest{UID: "u", DesiredAPIVersion: V1beta2, Objects: down.ConvertedObjects})
		if up.Result.Status != "Success" {
			t.Fatalf("up: %s", up.Result.Message)
		}
		o, err := decodeObject(up.ConvertedObjects[0])
		if err != nil {
			t.Fatal(err)
		}
		got := o.at("spec", "parameters")
		if !params.Equal(want, got) {
			t.Fatalf("round trip changed %s into %s (v1beta1: %s)", paramsJSON, mustBytes(params.MarshalJSON(nil, got, "")), down.ConvertedObjects[0])
		}
		if o.at("metadata", "annotations", convert.ParametersAnnotation) != nil {
			t.Fatalf("the annotation is left on the v1beta2 object")
		}
	})
}
