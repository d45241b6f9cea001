package kube_test

import (
	"context"
	"fmt"

	"github.com/paramkit/paramkit/kube"
)

// ExampleDefinition_Judge: a CustomResourceDefinition compiled once,
// then an object judged as kube-apiserver judges a create: what kubectl
// sends for an unquoted number on a string field, an unknown field under
// Strict field validation, and a name the apiserver refuses.
func ExampleDefinition_Judge() {
	crd := []byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: certs.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Cert, plural: certs}
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
              duration: {type: string}
              renewBefore: {type: string, default: 360h}
`)
	def, err := kube.ReadDefinition(crd)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := def.Judge(context.Background(), []byte(`
apiVersion: example.com/v1
kind: Cert
metadata: {name: My_Cert}
spec:
  duration: 2160
  dnsNames: [example.com]
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range v.Errors {
		fmt.Printf("%d %s: %s\n", e.Line, e.FieldPath(""), e.Message)
	}
	// Output:
	// 4 metadata.name: Invalid value: "My_Cert": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
	// 6 spec.duration: expected string, but got number 2160 (kubectl reads the unquoted 2160 as a number: write "2160" to send a string)
	// 7 spec.dnsNames: unknown field "spec.dnsNames"
}
