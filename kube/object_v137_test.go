package kube_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/kube"
)

// scalerCRD is a CRD whose spec carries an x-kubernetes-validations rule,
// with the status subresource on.
const scalerCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: scalers.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Scaler, plural: scalers}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}, scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "!has(self.min) || self.min <= self.max"
              message: min must not exceed max
            properties:
              min: {type: integer}
              max: {type: integer, default: 10}
              limit: {type: integer, format: int64}
              replicas: {type: integer}
          status:
            type: object
            properties:
              ready: {type: boolean}
`

// TestJudgeAsTheApiserverV137: what kube-apiserver v1.37.2 did on the
// verdict corpora (kube/testdata/verdict/{prometheus,keda,
// externalsecrets,argocd}) where Judge once differed: errors of metadata
// and of the apiserver's decoding keep the rules from running as schema
// errors do; unknown fields of a status are reported though the status
// is dropped; a generateName's generated name is judged too; owner
// references are judged at their index; a creationTimestamp must be a
// time; the scale subresource's replicas are judged beside the schema.
func TestJudgeAsTheApiserverV137(t *testing.T) {
	d, err := kube.ReadDefinition([]byte(scalerCRD))
	require.NoError(t, err)
	const head = "apiVersion: example.com/v1\nkind: Scaler\n"
	const notRun = `: invalid: some validation rules were not checked because the object was invalid`
	for _, tc := range []struct {
		name   string
		object string
		errs   []string // each a prefix of one line of verdictLines, in order
	}{
		{name: "the rule runs", object: head + "metadata: {name: s}\nspec: {min: 20}\n",
			errs: []string{"spec: invalid: min must not exceed max"}},
		{name: "an owner reference without uid keeps the rule from running",
			object: head + "metadata:\n  name: s\n  ownerReferences: [{apiVersion: v1, kind: A, name: a}]\nspec: {min: 20}\n",
			errs:   []string{notRun, "metadata.ownerReferences[0].uid: required: Required value: must not be empty"}},
		{name: "no name keeps the rule from running", object: head + "metadata: {}\nspec: {min: 20}\n",
			errs: []string{notRun, "metadata.name: required: Required value: name or generateName is required"}},
		{name: "an integer decoded as a float keeps the rule from running",
			object: head + "metadata: {name: s}\nspec: {min: 20, limit: 99999999999999999999}\n",
			errs:   []string{notRun, "spec.limit: type: must be of type integer: the apiserver decodes", "spec.limit: invalid: must fit in a 64-bit integer"}},
		{name: "an invalid label does not", object: head + "metadata: {name: s, labels: {a: b c}}\nspec: {min: 20}\n",
			errs: []string{`metadata.labels: invalid: Invalid value: "b c"`, "spec: invalid: min must not exceed max"}},
		{name: "an unknown status field is reported on create", object: head + "metadata: {name: s}\nspec: {}\nstatus: {ready: true, phase: Up}\n",
			errs: []string{`status.phase: undeclared: unknown field "status.phase"`}},
		{name: "a known status field of the wrong type is dropped", object: head + "metadata: {name: s}\nspec: {}\nstatus: {ready: maybe}\n"},
		{name: "the generated name is judged", object: head + "metadata: {generateName: my_scaler-}\nspec: {}\n",
			errs: []string{`metadata.name: invalid: Invalid value: "my_scaler-" and 5 random characters`, `metadata.generateName: invalid: Invalid value: "my_scaler-"`}},
		{name: "a long generateName is cut to 58 characters", object: head + "metadata: {generateName: " + longGenerateName + "}\nspec: {}\n"},
		{name: "two controllers named Kind/name",
			object: head + "metadata:\n  name: s\n  ownerReferences:\n  - {apiVersion: v1, kind: A, name: a, uid: '1', controller: true}\n  - {apiVersion: v1, kind: B, name: b, uid: '2', controller: true}\nspec: {}\n",
			errs:   []string{`metadata.ownerReferences: invalid: Only one reference can have Controller set to true. Found "true" in references for A/a and B/b`}},
		{name: "a creationTimestamp that is no time", object: head + "metadata: {name: s, creationTimestamp: yesterday}\nspec: {}\n",
			errs: []string{notRun, `metadata.creationTimestamp: type: must be a time in RFC 3339 form`}},
		{name: "a null creationTimestamp", object: head + "metadata: {name: s, creationTimestamp: null}\nspec: {}\n"},
		{name: "a creationTimestamp that is a time", object: head + "metadata: {name: s, creationTimestamp: \"2026-01-01T00:00:00Z\"}\nspec: {}\n"},
		{name: "scale: replicas in range", object: head + "metadata: {name: s}\nspec: {replicas: 3}\n"},
		{name: "scale: negative replicas, which the schema allows", object: head + "metadata: {name: s}\nspec: {replicas: -1}\n",
			errs: []string{"spec.replicas: invalid: Invalid value: -1: should be a non-negative integer"}},
		{name: "scale: replicas beyond int32", object: head + "metadata: {name: s}\nspec: {replicas: 3000000000}\n",
			errs: []string{"spec.replicas: invalid: Invalid value: 3000000000: should be less than or equal to 2147483647"}},
		{name: "an empty finalizer", object: head + "metadata: {name: s, finalizers: [\"\"]}\nspec: {}\n",
			errs: []string{`metadata.finalizers: invalid: Invalid value: "": name part must be non-empty`, `metadata.finalizers: invalid: Invalid value: "": name part must consist of`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := d.Judge(context.Background(), []byte(tc.object), nil)
			require.NoError(t, err)
			assertPrefixes(t, tc.errs, verdictLines(v.Errors))
			assert.Equal(t, len(tc.errs) == 0, v.Valid(), verdictLines(v.Errors))
			if _, ok := v.Object["status"]; ok {
				t.Errorf("status stored on a create: %v", v.Object["status"])
			}
		})
	}
}

// longGenerateName is a valid generateName of 250 characters: the generated
// name keeps 58 of them (63 in all), where 255 would be too long.
var longGenerateName = strings.Repeat("a", 249) + "-"
