package suggest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"replicas", "replicas", 0},
		{"replicsa", "replicas", 1}, // one transposition
		{"replica", "replicas", 1},
		{"replicass", "replicas", 1},
		{"replixas", "replicas", 1},
		{"ca", "abc", 3}, // optimal string alignment: no edit of a transposed pair
		{"kitten", "sitting", 3},
		{"größe", "grösse", 2},
		{"日本語", "日語本", 1},
	}
	for _, tt := range tests {
		t.Run(tt.a+"/"+tt.b, func(t *testing.T) {
			assert.Equal(t, tt.want, Distance(tt.a, tt.b))
			assert.Equal(t, tt.want, Distance(tt.b, tt.a), "symmetric")
		})
	}
}

func TestClosest(t *testing.T) {
	tests := []struct {
		name       string
		candidates []string
		want       []string
	}{
		{"replicsa", []string{"image", "replicas", "resources"}, []string{"replicas"}},
		{"Replicas", []string{"replica", "replicas"}, []string{"replicas", "replica"}}, // case alone is nearest
		{"prot", []string{"port", "proto", "pr"}, []string{"port", "proto"}},           // ties keep candidate order
		{"cpu", []string{"cpus", "gpu", "memory"}, []string{"cpus", "gpu"}},            // short names: one edit
		{"cu", []string{"cpus"}, nil}, // two edits are too many for 2 letters
		{"storageclas", []string{"storageClass", "storage"}, []string{"storageClass"}}, // case-insensitive
		{"a", []string{"b", "c", "d", "e"}, []string{"b", "c", "d"}},                   // at most three
		{"port", []string{"port", "port", "ports", "ports"}, []string{"ports"}},        // itself and repeats left out
		{"enabled", nil, nil},
		{"zzzzzzzz", []string{"replicas"}, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s in %v", tt.name, tt.candidates), func(t *testing.T) {
			assert.Equal(t, tt.want, Closest(tt.name, tt.candidates))
		})
	}
}

func ExampleClosest() {
	fmt.Println(Closest("replicsa", []string{"image", "replicas", "resources"}))
	// Output: [replicas]
}

func FuzzDistance(f *testing.F) {
	f.Add("replicsa", "replicas")
	f.Add("", "x")
	f.Add("日本語", "日語本")
	f.Fuzz(func(t *testing.T, a, b string) {
		d := Distance(a, b)
		if d != Distance(b, a) {
			t.Fatalf("not symmetric: %q %q", a, b)
		}
		la, lb := len([]rune(a)), len([]rune(b))
		if d < max(la, lb)-min(la, lb) || d > max(la, lb) {
			t.Fatalf("distance %d of %q and %q out of bounds", d, a, b)
		}
		if (d == 0) != (string([]rune(a)) == string([]rune(b))) {
			t.Fatalf("distance 0 means equal: %q %q", a, b)
		}
	})
}
