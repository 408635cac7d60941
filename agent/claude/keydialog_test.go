package claude

import (
	"slices"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/agent/agenttest"
	"github.com/hooksup/hooksup/session"
)

func screen(t *testing.T, name string) []string { return agenttest.Screen(t, name) }

// The screens are claude 2.1.330's, captured offline.
func TestKeyDialog(t *testing.T) {
	for _, tc := range []struct {
		screen string
		ok     bool
		allow  []string
	}{
		{"claude-auto-fallback-dialog.txt", true, []string{"Down", "Enter"}},
		{"claude-auto-fallback-yes-selected.txt", true, []string{"Enter"}},
		// Someone is typing what to do instead (Typing: the person, unless it is hooksup).
		{"claude-auto-fallback-tab-on-no-typed.txt", true, []string{"Down", "Enter"}},
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

// A deny's reason goes into No's field for the model's feedback: No selected, Tab, the reason
// typed, Enter once the field shows it; the same keys while it is still being drawn, none when
// the field holds other words. An open field says someone is typing there.
func TestKeyDialogDenyWith(t *testing.T) {
	typed := func(s string) string { return session.Typed(s) }
	open := screen(t, "claude-auto-fallback-dialog.txt")
	for i, r := range open {
		open[i] = strings.Replace(r, "❯ No", "❯ No, and tell Claude what to do differently", 1)
	}
	for _, c := range []struct {
		name, screen string
		rows         []string
		reason       string
		typing       bool
		want         []string
	}{
		{"No selected", "claude-auto-fallback-dialog.txt", nil, "list it", false, []string{"Tab", typed("list it"), "Enter"}},
		{"Yes selected", "claude-auto-fallback-yes-selected.txt", nil, "list it", false, []string{"Up", "Tab", typed("list it"), "Enter"}},
		{"the field open, empty", "", open, "list it", true, []string{typed("list it"), "Enter"}},
		{"the reason shown", "claude-auto-fallback-tab-on-no-typed.txt", nil, "do not delete it, list it with ls instead", true, []string{"Enter"}},
		{"the reason being drawn", "claude-auto-fallback-tab-on-no-typed.txt", nil, "do not delete it, list it with ls instead please", true,
			[]string{typed("do not delete it, list it with ls instead please"), "Enter"}},
		{"other words in the field", "claude-auto-fallback-tab-on-no-typed.txt", nil, "keep it", true, nil},
	} {
		rows := c.rows
		if rows == nil {
			rows = screen(t, c.screen)
		}
		d, ok := Agent{}.KeyDialog(rows)
		if !ok || d.DenyWith == nil || d.Typing != c.typing {
			t.Errorf("%s: ok %v, DenyWith %v, Typing %v", c.name, ok, d.DenyWith != nil, d.Typing)
			continue
		}
		if got := d.DenyWith(c.reason); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
