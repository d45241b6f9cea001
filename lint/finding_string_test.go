package lint_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/paramkit/paramkit/lint"
)

func TestFindingString(t *testing.T) {
	tests := []struct {
		name string
		f    lint.Finding
		want string
	}{
		{"schema alone", lint.Finding{Rule: "kudo-enum-default", Severity: lint.Error, Pointer: "/properties/a/default", Message: "bad default"},
			"/properties/a/default: bad default [error kudo-enum-default]"},
		{"root", lint.Finding{Rule: "schema-compile", Severity: lint.Error, Message: "not a schema"},
			`"": not a schema [error schema-compile]`},
		{"file and line", lint.Finding{Rule: "kudo-pkg-unused", Severity: lint.Warning, Pointer: "/parameters/2", Message: "unused", File: "params.yaml", Line: 12},
			"params.yaml:12: /parameters/2: unused [warning kudo-pkg-unused]"},
		{"template, no pointer", lint.Finding{Rule: "kudo-pkg-undefined", Severity: lint.Error, Message: "no such parameter", File: "templates/a.yaml", Line: 3},
			"templates/a.yaml:3: no such parameter [error kudo-pkg-undefined]"},
		{"file, line unknown", lint.Finding{Rule: "r", Severity: lint.Info, Message: "m", File: "params.yaml"},
			"params.yaml: m [info r]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.f.String())
		})
	}
}
