package convert_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paramkit/paramkit/convert"
)

// BenchmarkLoadSchema measures LoadSchema on each shape it dispatches:
// a CRD manifest (its storage version), a v1beta2 schema as YAML, a
// v1beta1 OperatorVersion converted on the fly. Run with -benchmem: the
// allocations show how many times the input is read.
func BenchmarkLoadSchema(b *testing.B) {
	for _, bc := range []struct{ name, file string }{
		{"crd", "testdata/load/crd.yaml"},
		{"schema-yaml", "testdata/golden/all-fields.v1beta2.yaml"},
		{"schema-json", "testdata/golden/all-fields.v1beta2.json"},
		{"operatorversion-v1beta1", "testdata/kep/operatorversion-upgrade.v1beta1.yaml"},
	} {
		data, err := os.ReadFile(bc.file)
		require.NoError(b, err)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := convert.LoadSchema(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
