package kube_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/internal/crdread"
	"github.com/paramkit/paramkit/schema"
)

// TestCorpusCRDRulesCompile: kube-apiserver v1.37.2 created every CRD of
// the verdict corpora (test/e2e's oracles install them), so
// schema.CheckRules, which lint's structural set runs, finds nothing in
// any of their versions: no rule it refuses to compile and no cost over
// the apiserver's budgets.
func TestCorpusCRDRulesCompile(t *testing.T) {
	files, err := filepath.Glob("testdata/verdict/*/*.yaml")
	require.NoError(t, err)
	before, err := filepath.Glob("testdata/verdict/*/before/*.yaml")
	require.NoError(t, err)
	checked := 0
	for _, f := range append(files, before...) {
		switch filepath.Base(f) {
		case "objects.yaml", "updates.yaml", "probe.yaml":
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		vs, err := crdread.Versions(data)
		require.NoError(t, err, f)
		for _, v := range vs {
			assert.Empty(t, schema.CheckRules(v.Schema, v.Pointer), "%s %s", f, v.Name)
			checked++
		}
	}
	assert.Greater(t, checked, 10)
}

// TestCheckRulesRefusesWhatTheApiserverRefused: a first draft of
// updates/gadgets.crd.yaml had these messageExpressions; kube-apiserver
// v1.37.2 refused the CRD ("estimated messageExpression cost exceeds
// budget by factor of more than 100x", for both, and the schema's total),
// and CheckRules refuses them the same way: string() of an int, and an
// optional's value, have no size bound.
func TestCheckRulesRefusesWhatTheApiserverRefused(t *testing.T) {
	vs, err := crdread.Versions([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Gadget, plural: gadgets}
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
            properties:
              replicas:
                type: integer
                x-kubernetes-validations:
                - rule: self >= oldSelf
                  messageExpression: "'replicas may not shrink from ' + string(oldSelf) + ' to ' + string(self)"
              zone:
                type: string
                maxLength: 16
                x-kubernetes-validations:
                - rule: "oldSelf.hasValue() ? self == oldSelf.value() : self.startsWith('z-')"
                  optionalOldSelf: true
                  messageExpression: "oldSelf.hasValue() ? 'zone stays ' + oldSelf.value() : 'zone must start with z-'"
`))
	require.NoError(t, err)
	var got []string
	for _, e := range schema.CheckRules(vs[0].Schema, vs[0].Pointer) {
		got = append(got, e.Pointer+": "+e.Message)
	}
	const base = "/spec/versions/0/schema/openAPIV3Schema"
	assert.Contains(t, got, base+"/properties/spec/properties/replicas/x-kubernetes-validations/0/messageExpression: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)")
	assert.Contains(t, got, base+"/properties/spec/properties/zone/x-kubernetes-validations/0/messageExpression: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)")
	assert.Contains(t, got, base+": x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)")
}
