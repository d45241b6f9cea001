// Package helm compares paramctl with Helm v4 itself: it builds Helm from
// its Go module (the version in go.mod), runs `helm template` on charts
// and overlays paramkit did not write and on every case of issue 27, and
// records Helm's verdicts and computed values as golden files that the
// ordinary suite of examples/paramctl compares `paramctl values` against.
// Its tests carry the build tag helm; see README.md.
package helm
