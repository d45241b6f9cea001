module github.com/paramkit/paramkit

go 1.26.0

require (
	github.com/evanphx/json-patch/v5 v5.9.11
	github.com/go-openapi/jsonpointer v1.0.2
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
	github.com/stretchr/testify v1.12.1
	go.yaml.in/yaml/v3 v3.0.6
	sigs.k8s.io/yaml v1.6.0
)

require go.yaml.in/yaml/v2 v2.4.2 // indirect
