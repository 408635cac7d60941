package claude

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func screen(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

// The screens are claude 2.1.330's, captured offline.
func TestKeyDialog(t *testing.T) {
	for _, tc := range []struct {
		screen string
		ok     bool
		allow  []string
	}{
		{"claude-auto-fallback-dialog.txt", true, []string{"Down", "Enter"}},
		{"claude-auto-fallback-yes-selected.txt", true, []string{"Enter"}},
		// The person is typing what to do instead: not the dialog hooksup answers.
		{"claude-auto-fallback-tab-on-no-typed.txt", false, nil},
		// Auto mode's notice is no permission dialog; the numbered dialogs are the hook's.
		{"claude-auto-notice-cannot-check.txt", false, nil},
		{"claude-default-bash-rm-outside.txt", false, nil},
		{"claude-auto-pretooluse-ask-dialog.txt", false, nil},
	} {
		d, ok := Agent{}.KeyDialog(screen(t, tc.screen))
		if ok != tc.ok {
			t.Errorf("%s: ok %v, want %v (%+v)", tc.screen, ok, tc.ok, d)
			continue
		}
		if !ok {
			continue
		}
		if d.Tool != "Bash" || !strings.HasPrefix(d.Command, "rm -rf SCRATCH/runs/b330/") || strings.Contains(d.Command, "\n") ||
			!slices.Equal(d.Allow, tc.allow) || !slices.Equal(d.Deny, []string{"Escape"}) {
			t.Errorf("%s: %+v", tc.screen, d)
		}
	}
}
