// Package kubectlyaml reads a Kubernetes manifest as kubectl sends it to
// the apiserver: each document converted from YAML to JSON by
// sigs.k8s.io/yaml (YAML 1.1 booleans such as yes and on, integers as
// int64, every other number through float64, the last of duplicate
// keys), then decoded as the apiserver decodes JSON. It is the third
// reading of values beside paramkit's schema-typed one and Helm's
// (internal/helmvalues): the one that decides what a Kubernetes object
// holds once kubectl has sent it.
//
// Numbers come back as json.Number holding the JSON text kubectl sends
// (2160, 1.1 for 1.10, 1e+23 for 99999999999999999999999), never as
// float64 values.
package kubectlyaml

import (
	"bytes"
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/paramkit/paramkit/internal/document"
)

// Read reads one manifest document (YAML or JSON) as kubectl sends it. An
// empty document reads as nil. The error says what kubectl would say of
// the text, without a position where the YAML library gives none.
func Read(data []byte) (any, error) {
	if len(data) > document.MaxDocumentBytes {
		return nil, fmt.Errorf("the document is %d bytes, larger than the %d MiB limit", len(data), document.MaxDocumentBytes>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "error converting YAML to JSON: "))
	}
	if bytes.Equal(bytes.TrimSpace(js), []byte("null")) {
		return nil, nil
	}
	return document.DecodeJSON(js)
}
