package kube_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/kube"
)

// ruledCRD is a CRD with a rule on spec, an embedded resource and a
// nullable field: what TestJudgeAsTheApiserver needs.
const ruledCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gizmos.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Gizmo, plural: gizmos}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - {rule: "self.size > 1", message: size must be over 1}
            properties:
              size: {type: integer}
              flag: {type: boolean, nullable: true}
              input:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
`

const rulesNotChecked = ": invalid: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"

// TestJudgeAsTheApiserver: what kube-apiserver v1.37 answered on the
// oracle corpus (kube/testdata/verdict/{certmanager,crossplane,gateway,
// istio}): owner references' fields are required values at their own
// index; a generateName the apiserver refuses makes a generated name it
// refuses too; an embedded resource needs apiVersion and kind, and its
// metadata is checked (its name only as a path segment); a required
// value missing in metadata or an embedded resource keeps the rules from
// running, as one missing in the schema does; a null on a nullable field
// does not.
func TestJudgeAsTheApiserver(t *testing.T) {
	d, err := kube.ReadDefinition([]byte(ruledCRD))
	require.NoError(t, err)
	const head = "apiVersion: example.com/v1\nkind: Gizmo\n"
	for _, tc := range []struct {
		name   string
		object string
		errs   []string // each a prefix of one line of verdictLines, in order
	}{
		{name: "valid", object: head + "metadata: {name: g}\nspec: {size: 2}\n"},
		{name: "the rule", object: head + "metadata: {name: g}\nspec: {size: 1}\n",
			errs: []string{"spec: invalid: size must be over 1"}},
		{name: "owner reference without kind and uid: required, blocking",
			object: head + "metadata:\n  name: g\n  ownerReferences: [{apiVersion: v1, kind: '', name: o}]\nspec: {size: 1}\n",
			errs: []string{
				rulesNotChecked[2:],
				"metadata.ownerReferences[0].uid: required: Required value: must not be empty", // at the reference's line
				"metadata.ownerReferences[0].kind: required: Required value: must not be empty",
			}},
		{name: "second owner reference without apiVersion and name",
			object: head + "metadata:\n  name: g\n  ownerReferences:\n  - {apiVersion: v1, kind: A, name: a, uid: '1'}\n  - {kind: B, uid: '2'}\nspec: {size: 2}\n",
			errs: []string{
				rulesNotChecked[2:],
				"metadata.ownerReferences[1].apiVersion: required: Required value: must not be empty",
				"metadata.ownerReferences[1].name: required: Required value: must not be empty",
			}},
		{name: "owner reference of a bad apiVersion, two controllers",
			object: head + "metadata:\n  name: g\n  ownerReferences:\n  - {apiVersion: a/b/c, kind: A, name: a, uid: '1', controller: true}\n  - {apiVersion: v1, kind: B, name: b, uid: '2', controller: true}\nspec: {size: 2}\n",
			errs: []string{
				`metadata.ownerReferences: invalid: Only one reference can have Controller set to true. Found "true" in references for A/a and B/b`,
				`metadata.ownerReferences[0].apiVersion: invalid: Invalid value: "a/b/c": must be <group>/<version> or <version>`,
			}},
		{name: "generateName refused: the generated name too",
			object: head + "metadata: {generateName: Class_}\nspec: {size: 2}\n",
			errs: []string{
				`metadata.name: invalid: Invalid value: "Class_" and 5 random characters: a lowercase RFC 1123 subdomain`,
				`metadata.generateName: invalid: Invalid value: "Class_": a lowercase RFC 1123 subdomain`,
			}},
		{name: "generateName cut to 58 characters: the generated name is valid",
			object: head + "metadata: {generateName: " + longPrefix + "}\nspec: {size: 2}\n",
			errs:   []string{`metadata.generateName: invalid: Invalid value: "` + longPrefix + `": a lowercase RFC 1123 subdomain`}},
		{name: "embedded resource without apiVersion and kind",
			object: head + "metadata: {name: g}\nspec: {size: 1, input: {spec: {x: 1}}}\n",
			errs: []string{
				rulesNotChecked[2:],
				"spec.input.apiVersion: required: Required value",
				"spec.input.kind: required: Required value",
			}},
		{name: "embedded resource of a bad apiVersion and kind",
			object: head + "metadata: {name: g}\nspec: {size: 2, input: {apiVersion: a/b/c, kind: My_Kind}}\n",
			errs: []string{
				`spec.input.apiVersion: invalid: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
				`spec.input.kind: invalid: Invalid value: "My_Kind": may have mixed case, but should otherwise match: a DNS-1035 label`,
			}},
		{name: "embedded metadata: a name is only a path segment, labels, namespace and finalizers as the object's",
			object: head + "metadata: {name: g}\nspec:\n  size: 2\n  input:\n    apiVersion: v1\n    kind: In\n    metadata: {name: Not_Valid, namespace: Bad_NS, labels: {team: web platform}, finalizers: [a/b/c]}\n",
			errs: []string{
				`spec.input.metadata.namespace: invalid: Invalid value: "Bad_NS": a lowercase RFC 1123 label`,
				`spec.input.metadata.labels: invalid: Invalid value: "web platform": a valid label`,
				`spec.input.metadata.finalizers: invalid: Invalid value: "a/b/c": a valid label key`,
			}},
		{name: "embedded metadata: a name with a slash, a generateName with '%', an owner reference without uid",
			object: head + "metadata: {name: g}\nspec:\n  size: 2\n  input:\n    apiVersion: v1\n    kind: In\n    metadata: {name: a/b, generateName: in%, ownerReferences: [{apiVersion: v1, kind: A, name: a}]}\n",
			errs: []string{
				rulesNotChecked[2:],
				`spec.input.metadata.name: invalid: Invalid value: "a/b": may not contain '/'`,
				`spec.input.metadata.generateName: invalid: Invalid value: "in%": may not contain '%'`,
				"spec.input.metadata.ownerReferences[0].uid: required: Required value: must not be empty",
			}},
		{name: "embedded metadata: a name of '..'", object: head + "metadata: {name: g}\nspec: {size: 2, input: {apiVersion: v1, kind: In, metadata: {name: ..}}}\n",
			errs: []string{`spec.input.metadata.name: invalid: Invalid value: "..": may not be '..'`}},
		{name: "embedded resource: valid", object: head + "metadata: {name: g}\nspec: {size: 2, input: {apiVersion: fn.example.org/v1, kind: Input, any: thing}}\n"},
		{name: "null on a nullable field: the rules run", object: head + "metadata: {name: g}\nspec: {size: 1, flag: null}\n",
			errs: []string{"spec: invalid: size must be over 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := d.Judge(context.Background(), []byte(tc.object), nil)
			require.NoError(t, err)
			got := verdictLines(v.Errors)
			for i := range got {
				if got[i] == rulesNotChecked {
					got[i] = rulesNotChecked[2:] // the root's field path is ""
				}
			}
			assertPrefixes(t, tc.errs, got)
			assert.Equal(t, len(tc.errs) == 0, v.Valid())
		})
	}
}

// longPrefix is a generateName of 62 characters with an underscore after
// the 58th: the prefix is refused, but the apiserver keeps 58 characters
// of it for the name, which is then valid.
const longPrefix = "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefgh_xyz"
