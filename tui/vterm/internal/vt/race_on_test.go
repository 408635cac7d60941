//go:build race

package vt

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = true
