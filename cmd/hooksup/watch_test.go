package main

import (
	"os/exec"
	"strings"
	"testing"
)

// hooksup watch --help says what the watch shows and every key it reads, Escape included; any
// other argument is refused.
func TestWatchHelp(t *testing.T) {
	out, err := exec.Command(hooksupBin, "watch", "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("hooksup watch --help: %v\n%s", err, out)
	}
	for _, want := range []string{
		"usage: hooksup watch\n",
		"the prefix ctrl+] before them is\naccepted",
		"  ↑/k  ↓/j   select the previous / the next session\n",
		"  a          approve the forced continuation",
		"  d          deny it: claude may stop\n",
		"  e          edit the reason claude will read, then continue (enter sends it, ctrl+c cancels)\n",
		"  x          halt: end the turn now\n",
		"  esc        interrupt, as Escape pressed in the session: its questions are let stop",
		"  q          quit the watch (the sessions run on)\n",
		"source is manual (hooksup watch); Escape's is escape.",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("hooksup watch --help lacks %q:\n%s", want, out)
		}
	}
	out, err = exec.Command(hooksupBin, "watch", "now").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), `watch takes no arguments, got ["now"]`) {
		t.Fatalf("hooksup watch now: %v\n%s", err, out)
	}
}
