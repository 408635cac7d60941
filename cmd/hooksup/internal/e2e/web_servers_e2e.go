package e2e

import (
	"strings"
)

// PairLinks are the pairing links hooksup web pair printed, by the page's URL they open.
func PairLinks(out string) map[string]string {
	links := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if base, code, ok := strings.Cut(l, "#pair="); ok && (strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")) {
			links[base] = code
		}
	}
	return links
}
