//go:build race

package paramkit_test

// raceEnabled is true under -race, where touching 100 MB costs minutes.
const raceEnabled = true
