package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paramkit/paramkit/internal/pointer"
)

// FuzzLint: no input makes a rule crash, and every finding points into
// the document.
func FuzzLint(f *testing.F) {
	files, _ := filepath.Glob("testdata/rules/*/*.yaml")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fs, err := Document(data, kudoSet, clusterAppSet)
		if err != nil {
			return
		}
		doc, _, err := decode(data)
		if err != nil {
			t.Fatalf("Lint accepted what decode refuses: %v", err)
		}
		for _, x := range fs {
			if strings.HasPrefix(x.Message, "rule crashed") {
				t.Fatalf("%s: %s", x.Rule, x.Message)
			}
			if _, ok := pointer.Get(doc, x.Pointer); !ok {
				t.Fatalf("%s: pointer %q does not resolve", x.Rule, x.Pointer)
			}
		}
	})
}
