package main

import (
	"testing"

	"github.com/hooksup/hooksup/hub"
)

func TestStatusLine(t *testing.T) {
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
