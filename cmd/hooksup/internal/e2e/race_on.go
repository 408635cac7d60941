//go:build race

package e2e

// RaceEnabled is true when the tests run under the race detector.
const RaceEnabled = true
