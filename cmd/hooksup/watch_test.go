package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// hooksup watch --help says what the watch shows and every key it reads, Escape included; any
// other argument is refused.
func TestWatchHelp(t *testing.T) {
	t.Parallel()
	out, err := exec.Command(e2e.HooksupBin, "watch", "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("hooksup watch --help: %v\n%s", err, out)
	}
	for _, want := range []string{
		"usage: hooksup watch [--host DEST] [--local]\n",
		"  --host DEST  also the sessions on DEST, over ssh",
		"  --local      this machine only",
		"the prefix ctrl+] before them is\naccepted",
		"  ↑/k  ↓/j   select the previous / the next session\n",
		"  a          approve the forced continuation",
		"  d          deny it: the agent may stop\n",
		"  e          edit the reason the agent will read, then continue (enter sends it, ctrl+l clears it, ctrl+c cancels)\n",
		"  x          halt: end the turn now\n",
		"  esc        interrupt, as Escape pressed in the session: its questions are let stop",
		"  q          quit the watch (the sessions run on)\n",
		"source is manual (hooksup watch); Escape's is escape.",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("hooksup watch --help lacks %q:\n%s", want, out)
		}
	}
	out, err = exec.Command(e2e.HooksupBin, "watch", "now").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), `watch takes no arguments, got ["now"]`) {
		t.Fatalf("hooksup watch now: %v\n%s", err, out)
	}
}

// Every command answers --help (and -h, -help) with its usage, its flags and what it does, and
// exits 0 without doing anything: `hooksup init --help` writes no .hooksup.toml, `doctor --help`
// checks nothing. claude and codex hand their arguments to the agent, and hook's are the
// agent's; watch has its own help (TestWatchHelp).
func TestEveryCommandHelp(t *testing.T) {
	t.Parallel()
	for _, c := range program().Visible() {
		if c.Passthrough || c.Name == "watch" {
			continue
		}
		for _, flag := range []string{"--help", "-h", "-help"} {
			dir := t.TempDir()
			cmd := exec.Command(e2e.HooksupBin, c.Name, flag)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_RUNTIME_DIR="+dir)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("hooksup %s %s: %v\n%s", c.Name, flag, err, out)
				continue
			}
			// The synopsis, wrapped to 80 columns when it is longer.
			want := "usage: " + program().Synopsis(c)
			usage, _, _ := strings.Cut(string(out), "\n\n")
			if strings.Join(strings.Fields(usage), " ") != want || !strings.Contains(string(out), strings.Fields(c.Help)[0]) {
				t.Errorf("hooksup %s %s printed:\n%s\nwant it to start with %q and say what the command does", c.Name, flag, out, want)
			}
			for _, f := range c.Flags {
				if !strings.Contains(string(out), f.Synopsis()) {
					t.Errorf("hooksup %s %s lacks its flag %s:\n%s", c.Name, flag, f.Synopsis(), out)
				}
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("hooksup %s %s wrote %v", c.Name, flag, entries)
			}
		}
	}
}
