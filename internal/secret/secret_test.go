package secret

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestText(t *testing.T) {
	assert.Equal(t, `"hunter2"`, Text(false, `"hunter2"`))
	assert.Equal(t, Hidden, Text(true, `"hunter2"`))
	assert.Equal(t, "(value hidden)", Hidden)
}

func TestAssignment(t *testing.T) {
	for _, tc := range []struct {
		secret   bool
		in, want string
	}{
		{false, "db.password=hunter2", "db.password=hunter2"},
		{true, "db.password=hunter2", "db.password=(value hidden)"},
		{true, "replace /db/password=a=b", "replace /db/password=(value hidden)"},
		{true, "remove /db/password", "remove /db/password"},
		{true, "db.password=", "db.password=(value hidden)"},
	} {
		assert.Equal(t, tc.want, Assignment(tc.secret, tc.in), tc.in)
	}
}
