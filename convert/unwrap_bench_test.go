package convert

import (
	"os"
	"path/filepath"
	"testing"
)

// The conversion webhook unwraps and wraps every Instance of a cluster
// during a storage migration: these are its per-object costs.

var kepInstance = map[string]string{
	"NODE_COUNT":     "3",
	"BACKUP_ENABLED": "false",
	"ARRAY_PARAM":    "[foo,bar,bazz]",
	"MAP_PARAM":      `{foo:"bar"}`,
}

func BenchmarkUnwrapValues(b *testing.B) {
	s := loadTestSchema(b, string(benchData(b, "kep/instance-unwrap.params.v1beta1.yaml")))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := UnwrapValues(s, kepInstance); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrapValues(b *testing.B) {
	s := loadTestSchema(b, string(benchData(b, "kep/instance-unwrap.params.v1beta1.yaml")))
	values, err := UnwrapValues(s, kepInstance)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := WrapValues(s, values); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGuessValues(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		guessValues(kepInstance)
	}
}

func BenchmarkFromV1beta1(b *testing.B) {
	data := benchData(b, "kep/operatorversion-upgrade.v1beta1.yaml")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromV1beta1(data); err != nil {
			b.Fatal(err)
		}
	}
}

func benchData(b *testing.B, name string) []byte {
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		b.Fatal(err)
	}
	return data
}
