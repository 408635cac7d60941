package headless

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// leftRe is the decision banner's countdown.
var leftRe = regexp.MustCompile(`(\d+):(\d\d) left`)

// secondsLeft is the countdown shown on scr in seconds, or -1 when none is shown.
func secondsLeft(scr string) int {
	m := leftRe.FindStringSubmatch(scr)
	if m == nil {
		return -1
	}
	min, _ := strconv.Atoi(m[1])
	sec, _ := strconv.Atoi(m[2])
	return min*60 + sec
}

// After a quiet spell in which nothing on the screen changes (hooksup draws no frame then),
// what claude prints still appears at once, and the decision banner's countdown counts down.
func TestDemoAnimatesAfterIdle(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	env := append([]string{}, s.Env...)
	env = append(env, "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
	tm := e2e.StartTmux(t, 200, 50, env, s.Project, e2e.HooksupBin, "demo")
	const wait = 20 * time.Second

	// claude asks for permission and waits: once the header shows all three things that dialog
	// brings (the state, the question's alert from the permission hook, the transcript's count;
	// each arrives on its own path, in no set order), nothing changes on the screen from here on.
	idle := tm.WaitText(wait, "Allow Bash(go test ./...)?", "needs permission", "⚑ Bash: go test ./... (question 1)", "15 tokens · 1 tool call")
	time.Sleep(3 * time.Second)
	if scr := tm.Screen(); scr != idle {
		t.Fatalf("the screen changed while nothing happened:\n%s\nwas:\n%s", scr, idle)
	}

	// claude's output after the quiet spell reaches the pane.
	tm.Text("y")
	scr := tm.WaitText(wait, "claude wants to stop", `"demo-tests" failed`)
	first := secondsLeft(scr)
	if first < 0 {
		t.Fatalf("no countdown in the decision banner:\n%s", scr)
	}
	// The countdown goes on by itself, with nothing else happening.
	tm.WaitFor("the countdown to count down from "+strconv.Itoa(first)+"s", wait, func(scr string) bool {
		left := secondsLeft(scr)
		return left >= 0 && left < first
	})
}
