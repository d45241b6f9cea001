package convert

import (
	"github.com/paramkit/paramkit/internal/crdread"
	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/schema"
)

// loadCRDDoc compiles the storage version's schema (the only version's
// when there is one) of a CustomResourceDefinition manifest already read
// with crdread.ReadOptions; errors point into the manifest. Listing a
// manifest's versions is kube's CRDVersions.
func loadCRDDoc(d document.Doc) (*schema.Schema, error) {
	vs, err := crdread.VersionsOf(d)
	if err != nil {
		return nil, readError(err)
	}
	v, err := crdread.PickFrom(vs, "")
	if err != nil {
		return nil, readError(err)
	}
	return loadCRDVersion(v)
}

// loadCRDVersion compiles one version's schema, its errors pointing into
// the manifest.
func loadCRDVersion(v *crdread.Version) (*schema.Schema, error) {
	js, err := v.JSON()
	if err != nil {
		return nil, prefixErrors(notPlainError(err), v.Pointer)
	}
	s, err := schema.Parse(js, schema.KubernetesObject())
	if err != nil {
		return nil, prefixErrors(err, v.Pointer)
	}
	return s, nil
}
