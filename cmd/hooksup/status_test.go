package main

import (
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/hub"
)

func TestStatusLine(t *testing.T) {
	t.Parallel()
	live := []hub.Live{
		{Snapshot: hub.Snapshot{State: "working"}},
		{Snapshot: hub.Snapshot{State: "stopping", Pending: []hub.Question{{ID: 1}}}},
		{Snapshot: hub.Snapshot{State: "stopping"}},
		{Snapshot: hub.Snapshot{State: "needs permission"}},
		{Snapshot: hub.Snapshot{State: "waiting for input"}},
	}
	c := countSessions(live)
	for _, tc := range []struct{ format, want string }{
		{"", "2 working · 2 waiting on you · 1 idle"},
		{"{waiting}/{sessions} ({pending} pending)", "2/5 (1 pending)"},
	} {
		if got := statusLine(c, tc.format); got != tc.want {
			t.Errorf("format %q: %q, want %q", tc.format, got, tc.want)
		}
	}
	if got := statusLine(countSessions(nil), ""); got != "" {
		t.Errorf("no sessions: %q, want nothing", got)
	}
}

// A format's {field} that status does not know is refused, naming the fields it knows, rather
// than printed as it is in someone's prompt.
func TestStatusFormatRefusesAnUnknownField(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	code, out := s.Hooksup(t, "status", "--local", "--format", "{working} {nope}")
	if code != 2 || !strings.Contains(out, "{nope}") || !strings.Contains(out, "{sessions}, {working}, {waiting}, {idle}, {pending} and {goals}") {
		t.Fatalf("exit %d, want 2 naming {nope} and the known fields:\n%s", code, out)
	}
	if code, out := s.Hooksup(t, "status", "--local", "--format", "{working}/{waiting} {x y} {}"); code != 0 || out != "0/0 {x y} {}\n" {
		t.Fatalf("a format of known fields: exit %d %q", code, out)
	}
}
