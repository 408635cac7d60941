package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// bannerRows are the rows between the status line and the top of claude's pane.
func bannerRows(scr string) []string {
	lines := strings.Split(scr, "\n")
	var rows []string
	for _, l := range lines[1:] {
		if strings.HasPrefix(strings.TrimSpace(l), "╭") {
			break
		}
		rows = append(rows, strings.TrimSpace(l))
	}
	return rows
}

// In a narrow terminal the decision banner wraps instead of cutting: the whole proposal, every
// key hint and the time left are on screen; where the checks pane is hidden, the banner says
// what failed; wide, its headline does not end on "Its output:" as if cut off.
func TestDecisionBannerWrapsWhenNarrow(t *testing.T) {
	t.Parallel()
	for _, size := range []struct {
		w, h       int
		checksPane bool
	}{{200, 40, true}, {90, 40, true}, {60, 24, false}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			s := e2e.NewSandbox(t)
			env := append(append([]string{}, s.Env...), "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
			tm := e2e.StartTmux(t, size.w, size.h, env, s.Project, e2e.HooksupBin, "demo")
			const wait = 20 * time.Second
			tm.WaitText(wait, "Allow Bash(go test ./...)?")
			tm.Text("y")
			wants := []string{`the checks say continue: The check "demo-tests" failed (exit 1).`,
				"ctrl+] then a continue", "d let it stop", "e edit reason", "x halt", "esc interrupts"}
			if !size.checksPane {
				// The checks pane is hidden: the banner says what failed.
				wants = append(wants, "main_test.go:42: -v did not enable verbose output")
			}
			timeLeft := regexp.MustCompile(`\b[0-5]:[0-5]\d left\b`)
			// The banner comes as the question is asked, and the check's output with it.
			scr := tm.WaitFor("the whole banner: "+strings.Join(wants, ", ")+", the time left", wait, func(scr string) bool {
				banner := strings.Join(bannerRows(scr), " ")
				for _, w := range wants {
					if !strings.Contains(banner, w) {
						return false
					}
				}
				return timeLeft.MatchString(banner)
			})
			rows := bannerRows(scr)
			banner := strings.Join(rows, " ")
			if strings.Contains(banner, "Its output:") {
				t.Errorf("the banner's headline ends on the sentence that introduces the output it does not show:\n%s", scr)
			}
			if strings.Contains(banner, "…") {
				t.Errorf("the banner is cut:\n%s", scr)
			}
			for _, r := range rows {
				if len([]rune(r)) > size.w {
					t.Errorf("a banner row is wider than the terminal: %q", r)
				}
			}
			// The hints work: approve continues claude.
			tm.Keys("C-]", "a")
			tm.WaitText(wait, "Stop hook feedback")
		})
	}
}

// The banner never breaks the check's name: at widths where a wrap at its hyphen would have
// put "demo-" on one row and "tests" on the next, the name is whole on one row. Where the checks
// pane is hidden and the banner has room for one row of what failed, it quotes the failing
// test's message, as the reason does, not the runner's last word ("FAIL").
func TestBannerKeepsTheCheckNameAndQuotesTheFailure(t *testing.T) {
	t.Parallel()
	for _, size := range []struct {
		w, h  int
		quote string // what the banner quotes of the failure ("": the checks pane shows it)
	}{{70, 40, ""}, {74, 40, ""}, {58, 18, "main_test.go:42: -v did not enable verbose output"}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			s := e2e.NewSandbox(t)
			env := append(append([]string{}, s.Env...), "HOOKSUP_DEMO_SPEED=0.3", "TERM=xterm-256color")
			tm := e2e.StartTmux(t, size.w, size.h, env, s.Project, e2e.HooksupBin, "demo")
			const wait = 20 * time.Second
			tm.WaitText(wait, "Allow Bash(go test ./...)?")
			tm.Text("y")
			scr := tm.WaitFor("the banner with the check's name", wait, func(scr string) bool {
				return strings.Contains(strings.Join(bannerRows(scr), " "), "the checks say continue: The check")
			})
			rows := bannerRows(scr)
			named := false
			for _, r := range rows {
				named = named || strings.Contains(r, `"demo-tests"`)
			}
			if !named {
				t.Errorf("the check's name is broken across rows:\n%s", strings.Join(rows, "\n"))
			}
			if size.quote != "" {
				var detail []string
				for _, r := range rows {
					if r == "FAIL" || strings.Contains(r, "main_test.go") || strings.HasPrefix(r, "--- FAIL") {
						detail = append(detail, r)
					}
				}
				if len(detail) != 1 || detail[0] != size.quote {
					t.Errorf("the banner quotes %q of what failed, want %q:\n%s", detail, size.quote, strings.Join(rows, "\n"))
				}
			}
		})
	}
}
