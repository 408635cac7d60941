package clip

import "testing"

func TestHeadAndTail(t *testing.T) {
	for _, tc := range []struct {
		s          string
		n          int
		head, tail string
	}{
		{"short", 10, "short", "short"},
		{"abcdef", 3, "abc…", "def"},
		{"héllo", 2, "h…", "lo"}, // é is two bytes: the head stops before it
		{"aé", 2, "a…", "é"},     // the tail starts at é's first byte
		{"ééé", 3, "é…", "é"},    // never half a character
		{"", 0, "", ""},
	} {
		if got := Head(tc.s, tc.n); got != tc.head {
			t.Errorf("Head(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.head)
		}
		if got := Tail(tc.s, tc.n); got != tc.tail {
			t.Errorf("Tail(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.tail)
		}
	}
}
