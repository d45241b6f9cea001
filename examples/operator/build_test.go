package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildsInItsOwnModule: the operator is a module of its own
// (controller-runtime stays out of the library's go.mod); it builds in
// place, as its README says (`cd examples/operator && go build .`), with
// the modules its go.sum names, and the binary offers the flags of its
// contract. This check lives here, not in the library's tests, so that the
// library's `go test ./...` never compiles controller-runtime.
func TestBuildsInItsOwnModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module: not in -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	bin := filepath.Join(t.TempDir(), "operator")
	cmd := exec.Command(goBin, "build", "-o", bin, ".")
	// -buildvcs=false: whether the checkout is a git repository, and
	// which, is no part of what this checks.
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=readonly -buildvcs=false")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build in examples/operator:\n%s", out)

	var stderr bytes.Buffer
	help := exec.Command(bin, "-h")
	help.Stderr = &stderr
	_ = help.Run() // -h exits 0 or 2 by flag package version
	for _, flag := range []string{"kubeconfig", "webhook-host", "webhook-port", "webhook-cert-dir", "metrics-bind-address", "health-probe-bind-address", "leader-elect"} {
		assert.Regexp(t, `(?m)^  -`+flag+`( |$)`, stderr.String(), "the operator's flags name --%s", flag)
	}
}
