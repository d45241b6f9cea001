package kube_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/encode"
	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/lint"
	"github.com/paramkit/paramkit/schema"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata")

func cacheCRD(t testing.TB) kube.CRD {
	t.Helper()
	v1, err := parseSchemaFile("testdata/cache/v1.yaml")
	require.NoError(t, err)
	v2, err := parseSchemaFile("testdata/cache/v2.yaml")
	require.NoError(t, err)
	return kube.CRD{Group: "example.paramkit.dev", Kind: "Cache", Plural: "caches", ConversionService: "cache-system/cache-webhook",
		Versions: []kube.CRDVersion{{Name: "v1", Schema: v1, Served: true}, {Name: "v2", Schema: v2, Served: true, Storage: true}}}
}

func crdGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "crd", name)
	if *updateGolden {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to write %s", path)
	assert.Equal(t, string(want), string(got))
}

// noStructuralErrors lints a CRD manifest as the apiserver would judge it.
func noStructuralErrors(t *testing.T, manifest []byte) {
	t.Helper()
	fs, err := lint.Document(manifest, lint.Structural())
	require.NoError(t, err)
	for _, f := range fs {
		assert.NotEqual(t, lint.Error, f.Severity, "%s", f)
	}
}

// TestCRDManifestGolden: the Cache CRD, two versions with a conversion
// webhook, as the golden file holds it; the structural rule set finds no
// error in it.
func TestCRDManifestGolden(t *testing.T) {
	got, err := cacheCRD(t).Manifest()
	require.NoError(t, err)
	crdGolden(t, "caches.yaml", got)
	noStructuralErrors(t, got)
	s := string(got)
	for _, k := range []string{"trigger", "immutable:", "oldName", "x-kudo", "additionalProperties"} {
		assert.NotContains(t, s, k)
	}
	assert.Contains(t, s, "rule: self == oldSelf")
	assert.Contains(t, s, "message: engine is immutable")
	assert.Equal(t, 2+3+2*2, strings.Count(s, "format: int64"), "two integers in v1, three in v2, two in each status")
}

// TestCRDSchemaTranslation: each rewrite, keyword by keyword.
func TestCRDSchemaTranslation(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"integer gets int64", `{"type":"integer","minimum":0}`, `{"format":"int64","minimum":0,"type":"integer"}`},
		{"int32 kept", `{"type":"integer","format":"int32"}`, `{"format":"int32","type":"integer"}`},
		{"int64 bounds left to the format", `{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}`, `{"format":"int64","type":"integer"}`},
		{"inexact bound moves inward", `{"type":"integer","maximum":9007199254740993,"minimum":-9007199254740993}`, `{"format":"int64","maximum":9007199254740992,"minimum":-9007199254740992,"type":"integer"}`},
		{"number untouched", `{"type":"number","maximum":1.5}`, `{"maximum":1.5,"type":"number"}`},
		{"KUDO keywords go", `{"type":"string","trigger":"deploy","oldName":"x","x-kudo-foo":1,"description":"d"}`, `{"description":"d","type":"string"}`},
		{"immutable becomes a rule, and its presence one on the parent", `{"type":"object","properties":{"a":{"type":"string","immutable":true}}}`,
			`{"properties":{"a":{"type":"string","x-kubernetes-validations":[{"message":"a is immutable","rule":"self == oldSelf"}]}},"type":"object",
			"x-kubernetes-validations":[{"message":"a is immutable, so it cannot be added or removed once the object exists","rule":"has(self.a) == has(oldSelf.a)"}]}`},
		{"immutable deeper: the parent's rule, and the root's for a removed parent", `{"type":"object","properties":{"db":{"type":"object","properties":{"storage-class":{"type":"string","immutable":true},"in":{"type":"string","immutable":true},"size":{"type":"integer"}}}}}`,
			`{"type":"object","properties":{"db":{"type":"object","properties":{
				"in":{"type":"string","x-kubernetes-validations":[{"message":"in is immutable","rule":"self == oldSelf"}]},
				"size":{"format":"int64","type":"integer"},
				"storage-class":{"type":"string","x-kubernetes-validations":[{"message":"storage-class is immutable","rule":"self == oldSelf"}]}},
			"x-kubernetes-validations":[
				{"message":"in is immutable, so it cannot be added or removed once the object exists","rule":"has(self.__in__) == has(oldSelf.__in__)"},
				{"message":"storage-class is immutable, so it cannot be added or removed once the object exists","rule":"has(self.storage__dash__class) == has(oldSelf.storage__dash__class)"}]}},
			"x-kubernetes-validations":[
				{"message":"db.in is immutable, so it cannot be added or removed once the object exists","rule":"(has(self.db) && has(oldSelf.db)) || (has(self.db) && has(self.db.__in__)) == (has(oldSelf.db) && has(oldSelf.db.__in__))"},
				{"message":"db.storage-class is immutable, so it cannot be added or removed once the object exists","rule":"(has(self.db) && has(oldSelf.db)) || (has(self.db) && has(self.db.storage__dash__class)) == (has(oldSelf.db) && has(oldSelf.db.storage__dash__class))"}]}`},
		{"a name CEL cannot reach keeps only the value's rule", `{"type":"object","properties":{"1a":{"type":"string","immutable":true}}}`,
			`{"properties":{"1a":{"type":"string","x-kubernetes-validations":[{"message":"1a is immutable","rule":"self == oldSelf"}]}},"type":"object"}`},
		{"parents of defaults default to {}", `{"type":"object","properties":{"backup":{"type":"object","properties":{"enabled":{"type":"boolean","default":false},"retention":{"type":"object","properties":{"days":{"type":"integer","default":7}}}}},"plain":{"type":"object","properties":{"x":{"type":"string"}}}}}`,
			`{"default":{},"type":"object","properties":{
				"backup":{"default":{},"type":"object","properties":{"enabled":{"default":false,"type":"boolean"},"retention":{"default":{},"type":"object","properties":{"days":{"default":7,"format":"int64","type":"integer"}}}}},
				"plain":{"type":"object","properties":{"x":{"type":"string"}}}}}`},
		{"no default {} where {} is invalid", `{"type":"object","properties":{"b":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"on":{"type":"boolean","default":true}}}}}`,
			`{"type":"object","properties":{"b":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"on":{"default":true,"type":"boolean"}}}}}`},
		{"no rule below items", `{"type":"array","items":{"type":"string","immutable":true}}`, `{"items":{"type":"string"},"type":"array"}`},
		{"closed object: unknown keys pruned (refused under strict field validation)", `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"boolean"}}}`, `{"properties":{"a":{"type":"boolean"}},"type":"object"}`},
		{"open object with properties keeps unknown keys", `{"type":"object","additionalProperties":true,"properties":{"a":{"type":"boolean"}}}`, `{"properties":{"a":{"type":"boolean"}},"type":"object","x-kubernetes-preserve-unknown-fields":true}`},
		{"free-form object", `{"type":"object"}`, `{"type":"object","x-kubernetes-preserve-unknown-fields":true}`},
		{"map", `{"type":"object","additionalProperties":{"type":"string"}}`, `{"additionalProperties":{"type":"string"},"type":"object"}`},
		{"const", `{"const":"a"}`, `{"enum":["a"],"type":"string"}`},
		{"nullable", `{"type":["string","null"]}`, `{"nullable":true,"type":"string"}`},
		{"int or string", `{"type":["integer","string"]}`, `{"x-kubernetes-int-or-string":true}`},
		{"exclusive bounds", `{"type":"number","exclusiveMinimum":0}`, `{"exclusiveMinimum":true,"minimum":0,"type":"number"}`},
		{"array without items", `{"type":"array"}`, `{"items":{"x-kubernetes-preserve-unknown-fields":true},"type":"array"}`},
		{"type implied", `{"properties":{"a":{"enum":[1,2]}}}`, `{"properties":{"a":{"enum":[1,2],"format":"int64","type":"integer"}},"type":"object"}`},
		{"$ref inlined", `{"type":"object","$defs":{"port":{"type":"integer","maximum":65535}},"properties":{"p":{"$ref":"#/$defs/port","description":"the port"}}}`,
			`{"properties":{"p":{"description":"the port","format":"int64","maximum":65535,"type":"integer"}},"type":"object"}`},
		// A writeOnly node's example is a secret's value: it goes too
		// (issue 35 item 5); a plain node keeps its first example.
		{"annotations go", `{"type":"string","$comment":"c","writeOnly":true,"deprecated":true,"examples":["x","y"]}`, `{"type":"string"}`},
		{"an example stays", `{"type":"string","$comment":"c","deprecated":true,"examples":["x","y"]}`, `{"example":"x","type":"string"}`},
		{"true", `true`, `{"x-kubernetes-preserve-unknown-fields":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.in))
			require.NoError(t, err)
			got, err := kube.CRDSchema(s)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(encode.JSON(got, nil, "")))
		})
	}
}

// TestCRDSchemaRefuses: what a CRD cannot say is an error at its
// pointer, never a schema that silently checks less.
func TestCRDSchemaRefuses(t *testing.T) {
	tests := []struct{ name, in, ptr, contains string }{
		{"if", `{"type":"object","properties":{"a":{"type":"string","if":{"minLength":1},"then":{"pattern":"x"}}}}`, "/properties/a/if", "x-kubernetes-validations"},
		{"patternProperties", `{"type":"object","patternProperties":{"^a":{"type":"string"}}}`, "/patternProperties", "additionalProperties"},
		{"recursive $ref", `{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`, "/properties/next/$ref", "recursive"},
		{"false", `{"type":"object","properties":{"a":false}}`, "/properties/a", "false"},
		{"many types", `{"type":["string","boolean"]}`, "/type", "no CRD equivalent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Parse([]byte(tt.in))
			require.NoError(t, err)
			_, err = kube.CRDSchema(s)
			require.Error(t, err)
			es := schema.ErrorsOf(err)
			require.NotEmpty(t, es)
			assert.Equal(t, schema.KindSchema, es[0].Kind)
			assert.Contains(t, err.Error(), tt.contains)
			var ptrs []string
			for _, e := range es {
				ptrs = append(ptrs, e.Pointer)
			}
			assert.Contains(t, ptrs, tt.ptr)
		})
	}
}

// TestCRDSchemaRealSchemas: schemas written by others (the KEP's
// examples) translate, and each whole CRD passes the structural set.
func TestCRDSchemaRealSchemas(t *testing.T) {
	files, err := filepath.Glob("../schema/testdata/kep/*.yaml")
	require.NoError(t, err)
	files = append(files, "../testdata/update/cluster-schema.yaml")
	n := 0
	for _, f := range files {
		s, err := parseSchemaFile(f)
		if err != nil {
			continue // some are meant to be broken
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			m, err := kube.CRD{Group: "x.paramkit.dev", Kind: "X", Plural: "xs", Versions: []kube.CRDVersion{{Name: "v1", Schema: s, Served: true, Storage: true}}}.Manifest()
			if err != nil {
				t.Skipf("not translatable: %v", err)
			}
			n++
			noStructuralErrors(t, m)
		})
	}
}

// testCA is a CA certificate's PEM.
func testCA(t testing.TB) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// TestCRDManifestClientConfig: the conversion webhook reached by URL or
// by Service, with a caBundle of the CA given, or cert-manager's
// injection annotation.
func TestCRDManifestClientConfig(t *testing.T) {
	ca := testCA(t)
	for _, tc := range []struct {
		name string
		edit func(c *kube.CRD)
		want []string
		not  []string
	}{
		{"service", func(c *kube.CRD) {}, []string{"service:", "name: cache-webhook", "path: /convert", "port: 443"}, []string{"url:", "caBundle", "annotations"}},
		{"URL and CA bundle", func(c *kube.CRD) {
			c.ConversionService, c.ConversionURL, c.CABundle = "", "https://webhook.example.com:9443/convert", ca
		}, []string{"url: https://webhook.example.com:9443/convert", "caBundle: " + base64.StdEncoding.EncodeToString(ca)}, []string{"service:"}},
		{"cert-manager", func(c *kube.CRD) { c.CertManager = "cache-system/cache-serving-cert" },
			[]string{"annotations:\n    cert-manager.io/inject-ca-from: cache-system/cache-serving-cert"}, []string{"caBundle"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cacheCRD(t)
			tc.edit(&c)
			out, err := c.Manifest()
			require.NoError(t, err)
			for _, w := range tc.want {
				assert.Contains(t, string(out), strings.ReplaceAll(w, `\n`, "\n"))
			}
			for _, n := range tc.not {
				assert.NotContains(t, string(out), n)
			}
			// What the apiserver reads: the manifest is a CRD whose
			// conversion names the same webhook.
			vs, err := kube.CRDVersions(out)
			require.NoError(t, err)
			assert.Len(t, vs, len(c.Versions))
		})
	}
}

// TestCRDManifestUsage: what the CRD lacks is a usage error naming it.
func TestCRDManifestUsage(t *testing.T) {
	base := cacheCRD(t)
	tests := []struct {
		name     string
		edit     func(c *kube.CRD)
		contains string
	}{
		{"no group", func(c *kube.CRD) { c.Group = "" }, "group"},
		{"plural upper", func(c *kube.CRD) { c.Plural = "Caches" }, "lower case"},
		{"two stored", func(c *kube.CRD) { c.Versions[0].Storage = true }, "exactly one version is stored"},
		{"bad service", func(c *kube.CRD) { c.ConversionService = "svc" }, "NAMESPACE/NAME"},
		{"bad field", func(c *kube.CRD) { c.Field = "/metadata/x" }, "below spec"},
		{"bad scope", func(c *kube.CRD) { c.Scope = "Global" }, "Namespaced or Cluster"},
		{"service and URL", func(c *kube.CRD) { c.ConversionURL = "https://h/convert" }, "a service or a URL, not both"},
		{"http URL", func(c *kube.CRD) { c.ConversionService, c.ConversionURL = "", "http://h/convert" }, "the scheme must be https"},
		{"URL with a query", func(c *kube.CRD) { c.ConversionService, c.ConversionURL = "", "https://h/convert?x=1" }, "query parameters"},
		{"URL with a user", func(c *kube.CRD) { c.ConversionService, c.ConversionURL = "", "https://u:p@h/convert" }, "user information"},
		{"CA bundle not PEM", func(c *kube.CRD) { c.CABundle = []byte("not a certificate") }, "no PEM block"},
		{"CA bundle without webhook", func(c *kube.CRD) { c.ConversionService, c.CABundle = "", testCA(t) }, "needs a conversion webhook"},
		{"bad Certificate", func(c *kube.CRD) { c.CertManager = "cert" }, "NAMESPACE/NAME"},
		{"bundle and cert-manager", func(c *kube.CRD) { c.CertManager, c.CABundle = "ns/cert", testCA(t) }, "not both"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			c.Versions = append([]kube.CRDVersion(nil), base.Versions...)
			tt.edit(&c)
			_, err := c.Manifest()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.contains)
			assert.Equal(t, schema.KindUsage, schema.ErrorsOf(err)[0].Kind)
		})
	}
}

// TestCRDStrictPassesStructural: CRDs with what makes them as strict as
// the webhook (closed objects without x-kubernetes-preserve-unknown-fields,
// presence rules for immutable values at every depth, names CEL escapes,
// default: {} on parents) are what the apiserver accepts: lint's
// structural set, its reference, finds no error in them.
func TestCRDStrictPassesStructural(t *testing.T) {
	for _, text := range []string{
		`{"type":"object","additionalProperties":false,"properties":{"db":{"type":"object","additionalProperties":false,"properties":{"storage-class":{"type":"string","immutable":true},"in":{"type":"string","immutable":true,"default":"x"},"size":{"type":"integer","default":1}}}}}`,
		`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"integer","immutable":true}}}}},"list":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string","immutable":true}}}}}}`,
		`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"object","properties":{"v":{"type":"boolean","default":true,"immutable":true}}}}}}`,
	} {
		s, err := schema.Parse([]byte(text))
		require.NoError(t, err)
		m, err := kube.CRD{Group: "x.paramkit.dev", Kind: "X", Plural: "xs", Versions: []kube.CRDVersion{{Name: "v1", Schema: s, Served: true, Storage: true}}}.Manifest()
		require.NoError(t, err, text)
		noStructuralErrors(t, m)
		assert.NotContains(t, string(m), "x-kubernetes-preserve-unknown-fields", text)
	}
}
