package hooks

import "testing"

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]Version{
		"2.1.330 (Claude Code)": {2, 1, 330},
		"2.0.77":                {2, 0, 77},
		"claude 10.2.3-beta":    {10, 2, 3},
	} {
		if v, ok := ParseVersion(in); !ok || v != want {
			t.Errorf("ParseVersion(%q) = %v %v, want %v", in, v, ok, want)
		}
	}
	if _, ok := ParseVersion("Usage: claude"); ok {
		t.Error("no version parsed as one")
	}
	if !(Version{2, 1, 58}).Less(Version{2, 1, 59}) || (Version{2, 2, 0}).Less(Version{2, 1, 330}) {
		t.Error("Less")
	}
}
