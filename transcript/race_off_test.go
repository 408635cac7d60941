//go:build !race

package transcript

// raceEnabled is true when the tests run under the race detector.
const raceEnabled = false
