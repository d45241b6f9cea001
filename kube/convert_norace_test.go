//go:build !race

package kube_test

const convRaceEnabled = false
