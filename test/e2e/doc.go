// Package e2e is paramkit's opt-in end-to-end test: it starts etcd and a
// real kube-apiserver on loopback, installs the kudo.dev CRDs with a
// conversion webhook and admission webhooks served by `paramctl webhook`,
// and drives conversion and admission through the apiserver as a client
// would.
//
// The tests carry the build tag e2e and live in their own module so that
// the library's go.mod stays free of Kubernetes. Build the servers first,
// then run the tests:
//
//	cd test/e2e
//	./build.sh                    # bin/kube-apiserver and bin/etcd, from the Go module proxy
//	go test -tags e2e -v ./...
//
// Without the binaries the run fails, saying how to build them;
// PARAMKIT_E2E=skip skips every test instead (and still says why).
package e2e
