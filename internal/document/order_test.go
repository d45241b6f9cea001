package document

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKeysInOrder(t *testing.T) {
	m := map[string]any{"b": 1, "a": 2, "c": 3}
	tests := []struct {
		name  string
		order map[string][]string
		want  []string
	}{
		{"recorded order", map[string][]string{"/x": {"c", "a", "b"}}, []string{"c", "a", "b"}},
		{"nothing recorded: sorted", nil, []string{"a", "b", "c"}},
		{"another object's order: sorted", map[string][]string{"/y": {"c", "a", "b"}}, []string{"a", "b", "c"}},
		{"stale order (the map changed): sorted", map[string][]string{"/x": {"c", "a"}}, []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, KeysInOrder(tt.order, "/x", m))
		})
	}
}
