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

// TestDemoStepZero: --step 0 is out of range like --step 12 (the whole
// tour is run by leaving --step out, as the help says).
func TestDemoStepZero(t *testing.T) {
	code, out, errs := paramctl(t, "", "demo", "--step", "0")
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Contains(t, errs, "--step 0: expected a step from 1 to 11")
	_, help, _ := paramctl(t, "", "help", "demo")
	assert.Contains(t, help, "--step N\n    \trun step N only, 1 to 11 (without it, the whole tour)\n")
}
