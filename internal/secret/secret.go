// Package secret keeps the values of secret parameters out of messages.
// A schema node marked writeOnly: true or format: password, and every node
// below it, holds a secret: wherever paramkit would quote such a value in a
// message, warning, report or annotation it writes Hidden instead. The
// schema package decides what is secret; this package only turns a value
// into text, so that every package hides it the same way.
package secret

import "strings"

// Hidden stands where a secret value would have been quoted.
const Hidden = "(value hidden)"

// Text returns text, or Hidden when secret is true.
func Text(secret bool, text string) string {
	if secret {
		return Hidden
	}
	return text
}

// Assignment returns an assignment as the user typed it (KEY=VALUE, or
// "OP PATH=VALUE" for a patch operation), with everything after the first
// "=" replaced by Hidden when secret is true. The key stays, so that the
// message still says which assignment it is about.
func Assignment(secret bool, input string) string {
	if !secret {
		return input
	}
	if i := strings.IndexByte(input, '='); i >= 0 {
		return input[:i+1] + Hidden
	}
	return input
}
