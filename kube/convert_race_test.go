//go:build race

package kube_test

// convRaceEnabled: the race detector makes each round trip ten times
// slower; TestConvertRoundTrip then runs fewer.
const convRaceEnabled = true
