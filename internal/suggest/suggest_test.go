package suggest

import "testing"

func TestClosest(t *testing.T) {
	keys := []string{"max_continuations", "checks", "timeout", "name", "cwd", "env"}
	for _, tc := range []struct{ in, want string }{
		{"max_continuation", "max_continuations"},
		{"timout", "timeout"},
		{"tiemout", "timeout"},
		{"nmae", "name"},
		{"cdw", "cwd"},
		{"dir", ""}, // two edits in three letters: no guess
		{"colour", ""},
		{"checks", "checks"},
	} {
		if got := Closest(tc.in, keys); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"approve", "aprove", 1}, {"nmae", "name", 1}} {
		if got := Distance(tc.a, tc.b); got != tc.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}
