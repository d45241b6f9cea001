package lint_test

import (
	"fmt"
	"testing/fstest"

	"github.com/paramkit/paramkit/lint"
)

// A package folder is read from any fs.FS (os.DirFS(dir) on disk).
func ExampleReadPackage() {
	fsys := fstest.MapFS{
		"operator.yaml":      {Data: []byte("name: zk\nplans:\n  deploy: {}\n")},
		"params.yaml":        {Data: []byte("memory:\n  default: 1Gi\nCpus:\n  default: '1'\ncpus:\n  default: '1'\n")},
		"templates/sts.yaml": {Data: []byte("memory: {{ .Params.memory }}\ncpu: {{ .Params.cpus }}{{ .Params.Cpus }}\n")},
	}
	pkg, err := lint.ReadPackage(fsys)
	if err != nil {
		fmt.Println(err)
		return
	}
	fs, _ := pkg.Lint(lint.Kudo())
	for _, f := range fs {
		fmt.Printf("%s:%d %s: %s\n", f.File, f.Line, f.Rule, f.Message)
	}
	// Output:
	// params.yaml:5 kudo-package-name-case: parameter "cpus" differs from "Cpus" only by case: one is easily taken for the other
}

// Each version of a CRD is linted; findings point into the manifest.
func ExampleDocument_crd() {
	crd := []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  versions:
    - name: v1
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                mode: {type: string, enum: [a, b], default: c}
`)
	fs, err := lint.Document(crd, lint.Kudo())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range fs {
		fmt.Println(f.Pointer)
		fmt.Println(f.Message)
	}
	// Output:
	// /spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/mode/default
	// version v1: the default "c" is not one of the enum values ["a","b"]: add it to the enum or change the default
}
