package figures

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/chromedp/chromedp"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/internal/agentsim"
)

// seenQuestions records, in the page, when each question's card first shows and how long
// after the question was asked (the engine's Asked, the same machine's clock).
const seenQuestions = `window.seen = {};
new MutationObserver(() => {
  for (const b of document.querySelectorAll(".question[data-question]")) {
    const k = b.closest(".card").dataset.id + "/" + b.dataset.question;
    if (!(k in window.seen)) window.seen[k] = Date.now() - Date.parse(b.dataset.asked.replace(/(\.\d{3})\d+/, "$1"));
  }
}).observe(document.body, {childList: true, subtree: true});
true`

// TestFigureWebQuestionToCard prints how long a question of the real claude takes to show in
// hooksup web's page, open in a headless Chromium, from the moment the session asks it: 20
// questions, each let stop from the API once shown, with the session on this machine and on
// another one reached over a real sshd (--host; the same machine's clock). It asserts nothing;
// run it with HOOKSUP_FIGURES=1 go test -run TestFigureWebQuestionToCard -v ./cmd/hooksup/
func TestFigureWebQuestionToCard(t *testing.T) {
	// Serial: a figure measures times, which tests running beside it would stretch.
	if os.Getenv("HOOKSUP_FIGURES") == "" {
		t.Skip("prints figures: set HOOKSUP_FIGURES=1")
	}
	local := webQuestionToCard(t, false)
	remote := webQuestionToCard(t, true)
	for _, f := range []struct {
		where string
		ms    []float64
	}{{"this machine", local}, {"--host over ssh", remote}} {
		t.Logf("question asked → card shown in the page, %s, %d questions: p50 %.0f ms, p99 %.0f ms, max %.0f ms (acceptance: within 1000 ms)",
			f.where, len(f.ms), f.ms[len(f.ms)/2], f.ms[(len(f.ms)*99+99)/100-1], f.ms[len(f.ms)-1])
	}
}

// webQuestionToCard is TestFigureWebQuestionToCard's times in milliseconds, sorted, for a
// session on this machine or on the remote of startSSHD.
func webQuestionToCard(t *testing.T, remote bool) []float64 {
	t.Helper()
	const runs = 20
	var replies []mockapi.Reply
	for i := range runs {
		replies = append(replies, mockapi.Text(fmt.Sprintf("ANSWER-%d", i)))
	}
	rc := e2e.NewRealClaudeTUI(t, &mockapi.Script{Main: replies})
	tm := rc.ClaudeTUI(rc.Config("mode = \"ask\"\ndecision_timeout = \"10m\"\n[[stop.checks]]\nname = \"tests\"\ncommand = \"echo FAIL; exit 1\"\n"), 160, 45)
	tm.WaitFor("claude's prompt", 45*time.Second, func(s string) bool { return strings.Contains(s, "manual mode on") })
	var w *e2e.WebServer
	host := ""
	if remote {
		srv := e2e.StartSSHD(t, rc.Run)
		home, env := e2e.OtherTerminal(t, t.TempDir())
		cfg, err := os.ReadFile(srv.HubConfigFile(t, ""))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(home, "config", "hooksup"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, "config", "hooksup", "config.toml"), cfg, 0o600); err != nil {
			t.Fatal(err)
		}
		w, host = e2e.StartWebIn(t, home, env, "--host", "remote"), "?host=remote"
	} else {
		home, env := e2e.OtherTerminal(t, rc.Run)
		w = e2e.StartWebIn(t, home, env)
	}
	ctx := e2e.Browser(t, 375, 800)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, 30*time.Second, "the session's card", `document.querySelectorAll(".card").length === 1`)
	e2e.EvalUntil(t, ctx, 5*time.Second, "the observer", seenQuestions)
	var ms []float64
	for i := range runs {
		e2e.TypeIntoClaude(t, tm, fmt.Sprintf("prompt %d", i))
		tm.Keys("Enter")
		e2e.EvalUntil(t, ctx, 30*time.Second, "question "+strconv.Itoa(i+1), fmt.Sprintf(`Object.keys(window.seen).length === %d`, i+1))
		v, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`Object.values(window.seen).at(-1)`))
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, v)
		id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".card").dataset.id`))
		if err != nil {
			t.Fatal(err)
		}
		if resp, body := w.Do(t, "POST", "/api/sessions/"+id+"/deny"+host, "", map[string]string{"Authorization": "Bearer " + w.Token}); resp.StatusCode != http.StatusOK {
			t.Fatalf("deny: %d %s", resp.StatusCode, body)
		}
		tm.WaitFor("the answer let stop", 30*time.Second, func(s string) bool {
			return strings.Contains(s, "let stop by you (hooksup web)") && !strings.Contains(s, "⚑ claude wants to stop")
		})
	}
	slices.Sort(ms)
	return ms
}

// rss is a process's resident and peak resident memory in KiB (Linux /proc).
func rss(t *testing.T, pid int) (now, peak int) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "VmRSS:" {
			now, _ = strconv.Atoi(f[1])
		}
		if len(f) >= 2 && f[0] == "VmHWM:" {
			peak, _ = strconv.Atoi(f[1])
		}
	}
	return now, peak
}

// TestFigureWebMemory prints the memory of hooksup web with no session, then with 20 (each
// followed on its event stream) and the page open in a headless Chromium. It asserts nothing;
// run it with HOOKSUP_FIGURES=1 go test -run TestFigureWebMemory -v ./cmd/hooksup/
func TestFigureWebMemory(t *testing.T) {
	// Serial: a figure measures times, which tests running beside it would stretch.
	if os.Getenv("HOOKSUP_FIGURES") == "" {
		t.Skip("prints figures: set HOOKSUP_FIGURES=1")
	}
	const sessions = 20
	first := e2e.NewSandbox(t)
	run := filepath.Join(filepath.Dir(first.Project), "run")
	w := e2e.StartWeb(t, first)
	bearer := map[string]string{"Authorization": "Bearer " + w.Token}
	w.Do(t, "GET", "/api/sessions", "", bearer)
	idle, _ := rss(t, w.Cmd.Process.Pid)
	for i := range sessions {
		s := first
		if i > 0 {
			s = e2e.NewSandbox(t)
			s.Env = append(s.Env, "XDG_RUNTIME_DIR="+run)
		}
		ls := s.StartLive(s.Config(`mode = "auto"`), agentsim.Scenario{WorkDelay: agentsim.Duration{Duration: 10 * time.Minute}}, nil, "-p", "go")
		ls.WaitReady()
	}
	ctx := e2e.Browser(t, 1280, 800)
	if err := chromedp.Do(ctx, chromedp.Navigate(w.Link)); err != nil {
		t.Fatal(err)
	}
	e2e.EvalUntil(t, ctx, 60*time.Second, "20 cards", fmt.Sprintf(`document.querySelectorAll(".card").length === %d`, sessions))
	time.Sleep(5 * time.Second) // a few rounds of listing and of the page's own refreshes
	now, peak := rss(t, w.Cmd.Process.Pid)
	t.Logf("hooksup web: RSS %d KiB with no session; with %d sessions followed and the page open: RSS %d KiB, peak %d KiB",
		idle, sessions, now, peak)
}
