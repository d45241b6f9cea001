package schema_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/schema"
)

// gatewaySchema is a Kubernetes structural schema in the manner of
// Gateway API: CEL rules with messages, reasons and field paths, a
// transition rule, list types and the apiserver's formats.
const gatewaySchema = `
type: object
properties:
  name:
    type: string
    x-kubernetes-validations:
    - rule: self == oldSelf
      message: name is immutable
  replicas: {type: integer, format: int32}
  minReplicas: {type: integer}
  timeout: {type: string, format: duration}
  caBundle: {type: string, format: byte}
  hostnames:
    type: array
    x-kubernetes-list-type: set
    items: {type: string}
  listeners:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items:
      type: object
      required: [name]
      properties:
        name: {type: string}
        port: {type: integer}
        tls:
          type: object
          properties:
            mode: {type: string}
            certificateRefs: {type: array, items: {type: string}}
          x-kubernetes-validations:
          - rule: "self.mode != 'Terminate' || has(self.certificateRefs)"
            messageExpression: "'certificateRefs must be set when mode is ' + self.mode"
            fieldPath: .certificateRefs
            reason: FieldValueRequired
  tokens:
    type: array
    x-kubernetes-list-type: set
    items: {type: string, writeOnly: true}
  password:
    type: string
    format: password
    x-kubernetes-validations:
    - rule: size(self) >= 8
      messageExpression: "'too short: ' + self"
x-kubernetes-validations:
- rule: "!has(self.replicas) || !has(self.minReplicas) || self.replicas >= self.minReplicas"
  message: replicas must be at least minReplicas
- rule: "!has(self.hostnames) || self.hostnames.all(h, h.endsWith('.example.com'))"
  message: hostnames must end in .example.com
  fieldPath: .hostnames
  reason: FieldValueForbidden
`

type kerr struct {
	Pointer string
	Kind    schema.Kind
	Keyword string
	Message string
}

func kerrs(err error) []kerr {
	var out []kerr
	for _, e := range schema.ErrorsOf(err) {
		out = append(out, kerr{e.Pointer, e.Kind, e.Keyword, e.Message})
	}
	return out
}

func kubeValue(t testing.TB, text string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v))
	return v
}

func TestKubernetesExtensionsValidate(t *testing.T) {
	s, err := schema.Parse([]byte(gatewaySchema))
	require.NoError(t, err)
	tests := []struct {
		name  string
		value string
		want  []kerr
	}{
		{name: "valid", value: `{"name":"gw","replicas":3,"minReplicas":2,"timeout":"1h30m","caBundle":"aGVsbG8=","hostnames":["a.example.com","b.example.com"],
			"listeners":[{"name":"http","port":80},{"name":"https","port":443,"tls":{"mode":"Terminate","certificateRefs":["c"]}}]}`},
		{name: "rule on the root", value: `{"replicas":1,"minReplicas":2}`, want: []kerr{
			{"", schema.KindInvalid, "x-kubernetes-validations", "replicas must be at least minReplicas"}}},
		{name: "integers compared exactly", value: `{"replicas":2147483647,"minReplicas":2147483647}`},
		{name: "int32 overflow", value: `{"replicas":2147483648}`, want: []kerr{
			{"/replicas", schema.KindInvalid, "format", "must fit in a 32-bit integer (format int32: -2147483648 to 2147483647): 2147483648"}}},
		// A string a format refuses blocks the rules, as a wrong type does.
		{name: "byte is base64", value: `{"caBundle":"not base64!"}`, want: []kerr{
			{"", schema.KindInvalid, "x-kubernetes-validations", "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"},
			{"/caBundle", schema.KindInvalid, "format", `must be of type byte: "not base64!"`}}},
		{name: "duration as the apiserver reads it", value: `{"timeout":"3 days"}`},
		{name: "duration refused", value: `{"timeout":"soon"}`, want: []kerr{
			{"", schema.KindInvalid, "x-kubernetes-validations", "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"},
			{"/timeout", schema.KindInvalid, "format", `must be of type duration: "soon"`}}},
		{name: "set duplicates", value: `{"hostnames":["a.example.com","b.example.com","a.example.com","a.example.com"]}`, want: []kerr{
			{"/hostnames/2", schema.KindDuplicate, "x-kubernetes-list-type", `Duplicate value: "a.example.com"`}}},
		{name: "map keys repeat", value: `{"listeners":[{"name":"a","port":1},{"name":"a","port":2}]}`, want: []kerr{
			{"/listeners/1", schema.KindDuplicate, "x-kubernetes-list-map-keys", `Duplicate value: {"name":"a"}`}}},
		{name: "reason and field path", value: `{"hostnames":["a.example.org"]}`, want: []kerr{
			{"/hostnames", schema.KindForbidden, "x-kubernetes-validations", "hostnames must end in .example.com"}}},
		{name: "message expression", value: `{"listeners":[{"name":"a","tls":{"mode":"Terminate"}}]}`, want: []kerr{
			{"/listeners/0/tls/certificateRefs", schema.KindRequired, "x-kubernetes-validations", "certificateRefs must be set when mode is Terminate"}}},
		{name: "secrets never quoted", value: `{"tokens":["s3cret","s3cret"],"password":"abc"}`, want: []kerr{
			{"/password", schema.KindInvalid, "x-kubernetes-validations", "failed rule: size(self) >= 8"},
			{"/tokens/1", schema.KindDuplicate, "x-kubernetes-list-type", "Duplicate value: (value hidden)"}}},
		{name: "transition rule not run without an old value", value: `{"name":"other"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := kerrs(s.Validate(kubeValue(t, tt.value)))
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestValidateUpdateRunsTransitionRules(t *testing.T) {
	s, err := schema.Parse([]byte(gatewaySchema))
	require.NoError(t, err)
	tests := []struct {
		name     string
		old, new string
		want     []kerr
	}{
		{name: "unchanged", old: `{"name":"gw"}`, new: `{"name":"gw","replicas":2}`},
		{name: "changed", old: `{"name":"gw"}`, new: `{"name":"other"}`, want: []kerr{
			{"/name", schema.KindInvalid, "x-kubernetes-validations", "name is immutable"}}},
		{name: "added where the old value had none", old: `{}`, new: `{"name":"gw"}`},
		{name: "unchanged invalid value ratchets", old: `{"replicas":1,"minReplicas":2}`, new: `{"replicas":1,"minReplicas":2}`},
		{name: "changed invalid value refused", old: `{"replicas":1,"minReplicas":2}`, new: `{"replicas":0,"minReplicas":2}`, want: []kerr{
			{"", schema.KindInvalid, "x-kubernetes-validations", "replicas must be at least minReplicas"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := kerrs(s.ValidateUpdate(kubeValue(t, tt.new), kubeValue(t, tt.old)))
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestKubernetesRuleThatDoesNotCompile(t *testing.T) {
	s, err := schema.Parse([]byte(`
type: object
properties:
  a: {type: integer}
x-kubernetes-validations:
- rule: self.b > 1
`))
	require.NoError(t, err)
	list := schema.ErrorsOf(s.Validate(kubeValue(t, `{"a":1}`)))
	require.Len(t, list, 1)
	assert.Equal(t, schema.KindSchema, list[0].Kind)
	assert.Contains(t, list[0].Message, "undefined field 'b'")
	assert.Equal(t, "/x-kubernetes-validations/0", list[0].Detail.SchemaPointer)
}

func TestKubernetesOptionMarksFormats(t *testing.T) {
	doc := `{"type":"object","properties":{"n":{"type":"integer","format":"int32"},"d":{"type":"string","format":"duration"}}}`
	plain, err := schema.Parse([]byte(doc))
	require.NoError(t, err)
	kube, err := schema.Parse([]byte(doc), schema.Kubernetes())
	require.NoError(t, err)
	v := kubeValue(t, `{"n":4294967296,"d":"1h"}`)
	// JSON Schema's duration is ISO 8601; the apiserver's is Go's.
	assert.NotEmpty(t, kerrs(plain.Validate(v)))
	assert.Equal(t, []kerr{{"/n", schema.KindInvalid, "format", "must fit in a 32-bit integer (format int32: -2147483648 to 2147483647): 4294967296"}}, kerrs(kube.Validate(v)))
}

// ExampleSchema_ValidateUpdate: a transition rule runs only on an update,
// where the old value exists.
func ExampleSchema_ValidateUpdate() {
	s, _ := schema.Parse([]byte(`
type: object
properties:
  storageClass:
    type: string
    x-kubernetes-validations:
    - rule: self == oldSelf
      message: storageClass is immutable
`))
	fmt.Println(s.Validate(map[string]any{"storageClass": "slow"}))
	err := s.ValidateUpdate(map[string]any{"storageClass": "slow"}, map[string]any{"storageClass": "fast"})
	for _, e := range schema.ErrorsOf(err) {
		fmt.Printf("%s: %s (%s, %s)\n", e.Pointer, e.Message, e.Kind, e.Keyword)
	}
	// Output:
	// <nil>
	// /storageClass: storageClass is immutable (invalid, x-kubernetes-validations)
}

// ExampleCheckRules: compile a CRD schema's rules as the apiserver does
// when the CRD is created.
func ExampleCheckRules() {
	var doc any
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"replicas":{"type":"integer"}},
		"x-kubernetes-validations":[{"rule":"self.replica > 0"}]}`), &doc)
	for _, e := range schema.CheckRules(doc, "") {
		fmt.Printf("%s: %s\n", e.Pointer, strings.SplitN(e.Message, "\n", 2)[0])
	}
	// Output:
	// /x-kubernetes-validations/0/rule: compilation failed: ERROR: <input>:1:5: undefined field 'replica'
}

// TestRulesNotRunOnABlockedValue: as kube-apiserver, rules do not run on
// a value refused for its type, a missing required value, a value
// outside the enum, one too long, or a string its format refuses (which
// kube-openapi reports as an invalid type); one error says so. Other
// errors (a minimum, an int32 out of range) do not block them, nor does
// a null where the node is nullable (the apiserver accepts it).
func TestRulesNotRunOnABlockedValue(t *testing.T) {
	s, err := schema.Parse([]byte(`
type: object
required: [port]
properties:
  port: {type: integer, minimum: 1}
  name: {type: string, maxLength: 3}
  data: {type: string, format: byte}
  count: {type: integer, format: int32}
  flag: {type: boolean, nullable: true}
x-kubernetes-validations:
- rule: self.port > 10
  message: port must be over 10
`))
	require.NoError(t, err)
	const notChecked = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"
	for _, tc := range []struct {
		value string
		want  []string
	}{
		{`{"port": "80"}`, []string{"/port", `"": ` + notChecked}},
		{`{"name": "x"}`, []string{"/port", `"": ` + notChecked}},
		{`{"port": 20, "name": "long"}`, []string{"/name", `"": ` + notChecked}},
		{`{"port": 0}`, []string{"/port", `"": port must be over 10`}},
		{`{"port": 5}`, []string{`"": port must be over 10`}},
		{`{"port": 20}`, nil},
		{`{"port": 20, "data": "%%%"}`, []string{"/data", `"": ` + notChecked}},
		{`{"port": 5, "data": "aGk="}`, []string{`"": port must be over 10`}},
		{`{"port": 5, "count": 3000000000}`, []string{"/count", `"": port must be over 10`}},
		{`{"port": 5, "flag": null}`, []string{"/flag", `"": port must be over 10`}},
	} {
		dec := json.NewDecoder(strings.NewReader(tc.value))
		dec.UseNumber()
		var v any
		require.NoError(t, dec.Decode(&v))
		var got []string
		for _, e := range schema.ErrorsOf(s.Validate(v)) {
			p := e.Pointer
			if p == "" {
				got = append(got, `"": `+e.Message)
				continue
			}
			got = append(got, p)
		}
		assert.ElementsMatch(t, tc.want, got, tc.value)
	}
}

// TestKubernetesObjectRootRules: at the root of a CRD's schema the
// apiserver compiles rules with apiVersion, kind, metadata.name and
// metadata.generateName visible (isResourceRoot), and nothing else of
// metadata; below the root (not an embedded resource) metadata is what
// the schema declares.
func TestKubernetesObjectRootRules(t *testing.T) {
	doc := func(rule string) []byte {
		return []byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{"prefix":{"type":"string"}}}},
"x-kubernetes-validations":[{"rule":` + strconvQuote(rule) + `}]}`)
	}
	obj := `{"apiVersion":"example.com/v1","kind":"Root","metadata":{"name":"r-one","labels":{"a":"b"}},"spec":{"prefix":"r-"}}`
	tests := []struct {
		name, rule string
		object     bool // schema.KubernetesObject
		want       string
	}{
		{name: "metadata.name visible at the root", rule: "self.metadata.name.startsWith(self.spec.prefix)", object: true},
		{name: "kind and apiVersion visible at the root", rule: "self.kind == 'Root' && self.apiVersion == 'example.com/v1'", object: true},
		{name: "generateName visible at the root", rule: "!has(self.metadata.generateName)", object: true},
		{name: "other metadata not visible", rule: "has(self.metadata.labels)", object: true, want: "undefined field 'labels'"},
		{name: "a rule failing at the root", rule: "self.metadata.name.startsWith('x-')", object: true, want: "failed rule: self.metadata.name.startsWith('x-')"},
		{name: "without the option the root is a value's", rule: "self.metadata.name == 'r-one'", want: "undefined field 'metadata'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []schema.Option
			if tt.object {
				opts = append(opts, schema.KubernetesObject())
			}
			s, err := schema.Parse(doc(tt.rule), opts...)
			require.NoError(t, err)
			got := kerrs(s.Validate(kubeValue(t, obj)))
			if tt.want == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			assert.Equal(t, "", got[0].Pointer)
			assert.Contains(t, got[0].Message, tt.want)
		})
	}
	// Below the root, metadata stays out of reach with the option too.
	s, err := schema.Parse([]byte(`{"type":"object","properties":{"spec":{"type":"object",
"x-kubernetes-validations":[{"rule":"self.metadata.name == 'x'"}]}}}`), schema.KubernetesObject())
	require.NoError(t, err)
	got := kerrs(s.Validate(kubeValue(t, obj)))
	require.Len(t, got, 1)
	assert.Equal(t, "/spec", got[0].Pointer)
	assert.Contains(t, got[0].Message, "undefined field 'metadata'")
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// ratchetSchema is a CRD version's schema whose constraints old objects
// stored before it was tightened may break.
const ratchetSchema = `
type: object
properties:
  spec:
    type: object
    required: [size]
    x-kubernetes-validations:
    - {rule: "!has(self.min) || !has(self.max) || self.min <= self.max", message: min must not exceed max}
    properties:
      size: {type: integer, minimum: 1, maximum: 10}
      email: {type: string, format: email}
      color: {type: string, enum: [red, green]}
      limit: {type: integer, x-kubernetes-validations: [{rule: self <= 100, message: limit is at most 100}]}
      min: {type: integer}
      max: {type: integer}
      nums: {type: array, items: {type: integer, minimum: 0}}
      set: {type: array, x-kubernetes-list-type: set, items: {type: string}}
      nested: {type: object, required: [id], properties: {id: {type: string}, note: {type: string}}}
`

// TestValidateUpdateRatchets: on an update of an object (a schema read
// with KubernetesObject), errors of a value left as it was are not
// reported, as kube-apiserver's validation ratcheting does (proven on the
// apiserver by kube's update corpus); schema errors and rules alike, and
// a ratcheted error does not keep the rules from running.
func TestValidateUpdateRatchets(t *testing.T) {
	s, err := schema.Parse([]byte(ratchetSchema), schema.KubernetesObject())
	require.NoError(t, err)
	notChecked := kerr{"", schema.KindInvalid, "x-kubernetes-validations", "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"}
	tests := []struct {
		name     string
		old, new string
		want     []kerr
	}{
		{name: "an out-of-range value kept", old: `{"spec":{"size":20,"min":0,"max":1}}`, new: `{"spec":{"size":20,"min":0,"max":2}}`},
		{name: "an out-of-range value changed", old: `{"spec":{"size":20}}`, new: `{"spec":{"size":30}}`, want: []kerr{
			{"/spec/size", schema.KindInvalid, "maximum", "must be <= 10 but found 30"}}},
		{name: "a format kept", old: `{"spec":{"size":1,"email":"nope"}}`, new: `{"spec":{"size":2,"email":"nope"}}`},
		{name: "a format changed: a type error that blocks the rules", old: `{"spec":{"size":1,"email":"nope"}}`, new: `{"spec":{"size":1,"email":"still-nope"}}`, want: []kerr{
			notChecked, {"/spec/email", schema.KindInvalid, "format", `must be of type email: "still-nope"`}}},
		{name: "an enum error kept does not block the rules", old: `{"spec":{"size":1,"color":"blue","limit":1}}`, new: `{"spec":{"size":1,"color":"blue","limit":600}}`, want: []kerr{
			{"/spec/limit", schema.KindInvalid, "x-kubernetes-validations", "limit is at most 100"}}},
		{name: "a rule failing on a value kept", old: `{"spec":{"size":1,"limit":500}}`, new: `{"spec":{"size":2,"limit":500}}`},
		{name: "a rule on a parent that changed", old: `{"spec":{"size":1,"min":5,"max":1}}`, new: `{"spec":{"size":2,"min":5,"max":1}}`, want: []kerr{
			{"/spec", schema.KindInvalid, "x-kubernetes-validations", "min must not exceed max"}}},
		{name: "an atomic list's item kept while another changed", old: `{"spec":{"size":1,"nums":[-1,2]}}`, new: `{"spec":{"size":1,"nums":[-1,3]}}`, want: []kerr{
			{"/spec/nums/0", schema.KindInvalid, "minimum", "must be >= 0 but found -1"}}},
		{name: "a required property missing in an object kept", old: `{"spec":{"size":1,"nested":{"note":"a"}}}`, new: `{"spec":{"size":2,"nested":{"note":"a"}}}`},
		{name: "a required property missing in an object changed", old: `{"spec":{"size":1,"nested":{"note":"a"}}}`, new: `{"spec":{"size":1,"nested":{"note":"b"}}}`, want: []kerr{
			notChecked, {"/spec/nested/id", schema.KindRequired, "required", `missing required property: "id"`}}},
		{name: "list types unchecked while the old object breaks them", old: `{"spec":{"size":1,"set":["x","x"]}}`, new: `{"spec":{"size":1,"set":["x","x","y","y"]}}`},
		{name: "list types checked when the old object keeps them", old: `{"spec":{"size":1,"set":["x"]}}`, new: `{"spec":{"size":1,"set":["y","y"]}}`, want: []kerr{
			{"/spec/set/1", schema.KindDuplicate, "x-kubernetes-list-type", `Duplicate value: "y"`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := kerrs(s.ValidateUpdate(kubeValue(t, tt.new), kubeValue(t, tt.old)))
			assert.Equal(t, tt.want, got)
		})
	}
	// A schema of values, not objects, ratchets its rules only.
	v, err := schema.Parse([]byte(ratchetSchema))
	require.NoError(t, err)
	got := kerrs(v.ValidateUpdate(kubeValue(t, `{"spec":{"size":20,"limit":500}}`), kubeValue(t, `{"spec":{"size":20,"limit":500}}`)))
	assert.Equal(t, []kerr{{"/spec/size", schema.KindInvalid, "maximum", "must be <= 10 but found 20"}}, got)
}

// TestRuleErrorInMapNamesTheKeyAsASubscript: the apiserver names a rule's
// error on a map entry spec.owners[alice] (field.Path's Key), where a
// schema error there is spec.owners.alice.
func TestRuleErrorInMapNamesTheKeyAsASubscript(t *testing.T) {
	s, err := schema.Parse([]byte(`
type: object
properties:
  spec:
    type: object
    properties:
      owners:
        type: object
        additionalProperties:
          type: string
          maxLength: 8
          x-kubernetes-validations: [{rule: self != 'nobody', message: an owner is somebody}]
`), schema.KubernetesObject())
	require.NoError(t, err)
	list := schema.ErrorsOf(s.Validate(kubeValue(t, `{"spec":{"owners":{"alice":"nobody"}}}`)))
	require.Len(t, list, 1)
	assert.Equal(t, "spec.owners[alice]", list[0].FieldPath(""))
	assert.Equal(t, "/spec/owners/alice", list[0].Pointer)
	list = schema.ErrorsOf(s.Validate(kubeValue(t, `{"spec":{"owners":{"alice":"far too long"}}}`)))
	require.Len(t, list, 2) // the rules did not run
	assert.Equal(t, "spec.owners.alice", list[1].FieldPath(""), "a schema error keeps the dotted path")
}
