// Package suggest finds the name a misspelt one most likely meant, for "did you mean" hints.
package suggest

// Closest returns the candidate nearest to name, or "" when none is near enough to be a
// likely misspelling: at most two edits away, and fewer for short names.
func Closest(name string, candidates []string) string {
	limit := min(2, max(1, len(name)/3))
	best, bestD := "", limit+1
	for _, c := range candidates {
		if d := Distance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Distance is the number of single-byte insertions, deletions, substitutions and swaps of two
// neighbours that turn a into b (optimal string alignment distance).
func Distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
