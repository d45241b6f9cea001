package migrate

import "testing"

// FuzzParseVersionsFile: versions.yaml never panics, and what it accepts
// names every version.
func FuzzParseVersionsFile(f *testing.F) {
	for _, s := range []string{"- v1\n- v2\n", "[v1, {name: v2, preview: true}, {name: v3, downgrade: false}]", "v1: x", "- {name: }", "- [a]", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vs, err := parseVersionsFile(data)
		if err != nil {
			return
		}
		for _, v := range vs {
			if v.Name == "" {
				t.Fatalf("accepted a version without a name: %q", data)
			}
		}
	})
}

// FuzzVersionOrder: the order of names is a strict weak order.
func FuzzVersionOrder(f *testing.F) {
	f.Add("v1alpha1", "v1", "0.2.0")
	f.Add("1.0.0-rc.1", "1.0.0", "v2beta3")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		ka, ea := parseVersionKey(a)
		kb, eb := parseVersionKey(b)
		kc, ec := parseVersionKey(c)
		if ea != nil || eb != nil || ec != nil {
			return
		}
		if compareVersionKeys(ka, kb) != -compareVersionKeys(kb, ka) {
			t.Fatalf("not antisymmetric: %q %q", a, b)
		}
		if compareVersionKeys(ka, kb) < 0 && compareVersionKeys(kb, kc) < 0 && compareVersionKeys(ka, kc) >= 0 {
			t.Fatalf("not transitive: %q %q %q", a, b, c)
		}
	})
}
