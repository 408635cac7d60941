// Package semver compares semantic versions.
package semver

import (
	"strconv"
	"strings"
)

// Compare returns -1, 0 or 1 as a is older than, the same as or newer than b ("1.2.3").
func Compare(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < 3; i++ {
		x, y := part(pa, i), part(pb, i)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
	}
	return 0
}

func part(p []string, i int) int {
	if i >= len(p) {
		return 0
	}
	n, _ := strconv.Atoi(p[i])
	return n
}
