//go:build race

package main

// raceEnabled is true under -race, where long streams take minutes.
const raceEnabled = true
