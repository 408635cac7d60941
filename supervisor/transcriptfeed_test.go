package supervisor

import "testing"

func TestHasMessage(t *testing.T) {
	for _, tc := range []struct {
		lastText, message string
		want              bool
	}{
		{"The answer is 42.", "The answer is 42.", true},
		{"Second block.", "First block.\n\nSecond block.", true},
		{"The answer is", "The answer is 42.", true},  // cut by the transcript's text cap…
		{"The answer is…", "The answer is 42.", true}, // …which marks the cut
		{"An older message.", "The answer is 42.", false},
		{"", "The answer is 42.", false},
	} {
		if got := hasMessage(tc.lastText, tc.message); got != tc.want {
			t.Errorf("hasMessage(%q, %q) = %v", tc.lastText, tc.message, got)
		}
	}
}
