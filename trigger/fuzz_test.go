package trigger_test

import (
	"testing"

	"github.com/paramkit/paramkit/trigger"
)

// FuzzResolve: any pointer resolves without panic to the nearest trigger
// or the default plan, and one change never conflicts with itself.
func FuzzResolve(f *testing.F) {
	r, err := trigger.New(parse(f, resolveSchema))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"", "/", "/pools/0/size", "/labels/a~1b", "/a~2", "//", "/pools/-/size", "/tuning/jvm.x", "/pair/00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		plan, err := r.Resolve([]string{p, p})
		if err != nil || plan == "" || plan != r.Effective(p) {
			t.Fatalf("%q: %q, %v", p, plan, err)
		}
	})
}
