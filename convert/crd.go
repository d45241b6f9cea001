package convert

import (
	"github.com/paramkit/paramkit/internal/crdread"
	"github.com/paramkit/paramkit/schema"
)

// loadCRD compiles one version's schema of a CustomResourceDefinition
// manifest (the storage version's when version is ""); errors point into
// the manifest. Listing a manifest's versions is kube's
// CRDVersions.
func loadCRD(data []byte, version string) (*schema.Schema, error) {
	v, err := crdread.Pick(data, version)
	if err != nil {
		return nil, readError(err)
	}
	js, err := v.JSON()
	if err != nil {
		return nil, prefixErrors(notPlainError(err), v.Pointer)
	}
	s, err := schema.Parse(js)
	if err != nil {
		return nil, prefixErrors(err, v.Pointer)
	}
	return s, nil
}
