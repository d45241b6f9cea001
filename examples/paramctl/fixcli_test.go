package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHelpHelp: `paramctl help help` is the general help, not an unknown
// command.
func TestHelpHelp(t *testing.T) {
	code, out, errs := paramctl(t, "", "help", "help")
	assert.Equal(t, exitOK, code, errs)
	assert.Empty(t, errs)
	assert.Contains(t, out, "Commands:")
	_, general, _ := paramctl(t, "", "help")
	assert.Equal(t, general, out)
}
