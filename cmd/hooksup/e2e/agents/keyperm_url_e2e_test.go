package agents

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
	"github.com/hooksup/hooksup/web"
)

// A URL to fetch raises a dialog of its own, which no hook answers either: hooksup reads it on
// the agent's screen, lists the tool and the URL, and answers it with keys. The URL is served
// by the test on loopback, so that the test sees whether the agent fetched it.

// urlPage is what the test's server serves.
const urlPage = "THE-PAGE-SAYS-7F3A\n"

// urlServer is a loopback server that counts the requests it serves.
type urlServer struct {
	*httptest.Server
	hits atomic.Int32
}

func newURLServer(t *testing.T) *urlServer {
	t.Helper()
	s := &urlServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(urlPage))
	}))
	t.Cleanup(s.Close)
	return s
}

// urlQuestion checks the one pending question: the tool and the URL as the dialog shows them,
// and the question's always as it begins.
func urlQuestion(t *testing.T, s web.Session, tool, url, always string) {
	t.Helper()
	fileQuestion(t, s, tool, url)
	if a := s.Pending[0].Permission.Always; !strings.HasPrefix(a, always) || always == "" && a != "" {
		t.Fatalf("the question's always: %q", a)
	}
}

// copilotURLQuestion is copilot's URL dialog's question.
const copilotURLQuestion = "Do you want to allow this access?"

// copilotURLDialog starts the real copilot, on its default settings, under hooksup's TUI and
// has it fetch a page of a loopback server with its web_fetch tool, which it asks about; then
// are the replies after the fetch (given the server). Offline (COPILOT_OFFLINE) copilot offers
// no web_fetch tool, so this copilot is not told it is offline; it talks to the mock all the
// same, and is told not to download a newer copilot (COPILOT_AUTO_UPDATE), which offline implies.
func copilotURLDialog(t *testing.T, then func(srv *urlServer) []mockapi.ChatReply) (*realCopilot, *e2e.Tmux, *urlServer, string) {
	t.Helper()
	e2e.RequireTmux(t)
	pages := newURLServer(t)
	url := pages.URL + "/page.txt"
	srv := mockapi.NewChatServer(t, &mockapi.ChatScript{Replies: append([]mockapi.ChatReply{mockapi.ChatCall("web_fetch", map[string]any{"url": url})}, then(pages)...)},
		mockapi.WithQuiet())
	env := mockapi.NewCopilotEnv(t, srv.URL, "")
	env.Setenv("TERM", "xterm-256color")
	env.Setenv("HOOKSUP_COPILOT_BIN", env.Copilot)
	env.Setenv("COPILOT_OFFLINE", "false")
	env.Setenv("COPILOT_AUTO_UPDATE", "false")
	rc := &realCopilot{HooksupEnv: e2e.NewHooksupEnv(t, "hp", env.Home, env.Setenv, srv.Run, env.Command), Srv: srv, Env: env}
	tm := e2e.StartTmux(t, 160, 45, env.Environ(), env.WorkDir, e2e.HooksupBin, "--debug", "--config", rc.Config(`mode = "auto"`), "copilot")
	const wait = 60 * time.Second
	tm.WaitText(wait, "Do you trust the files in this folder?", "❯ 1. Yes")
	tm.Keys("Enter")
	tm.WaitText(wait, "hooksup copilot", "Manual Approval")
	promptCopilot(t, tm, rc, "fetch the page")
	tm.WaitText(wait, copilotURLQuestion)
	s := e2e.WaitPermission(t, rc.Run, wait)
	urlQuestion(t, s, "web_fetch", url, "allow every URL from "+pages.URL+" for the rest of this copilot session")
	tm.WaitText(10*time.Second, "⚑ web_fetch: http://127.0.0.1")
	return rc, tm, pages, url
}

// copilotBlocked is what copilot 1.0.102's web_fetch answers, once allowed, for a loopback
// address: it fetches no loopback, private or link-local address (not even with its sandbox's
// "allow local network", which needs bubblewrap).
const copilotBlocked = "WebFetchBlockedUrlError"

// Allowed, copilot goes on with the call: its web_fetch refuses the loopback address itself
// (it never requests the test's server), and the model gets that as the call's result; the
// turn goes on.
func TestKeysCopilotURLApproved(t *testing.T) {
	t.Parallel()
	rc, tm, pages, url := copilotURLDialog(t, func(*urlServer) []mockapi.ChatReply {
		return []mockapi.ChatReply{mockapi.ChatText("FETCHED-IT"), mockapi.ChatText("NEXT-TURN")}
	})
	answerAndTime(t, rc.Run, tm, copilotURLQuestion, "allowed web_fetch: "+url, "approve")
	tm.WaitText(60*time.Second, "FETCHED-IT")
	turns := rc.Srv.Turns()
	if len(turns) < 2 || len(turns[1].ToolResults()) != 1 {
		t.Fatalf("the model did not get the fetch's result: %d turns", len(turns))
	}
	res := turns[1].ToolResults()[0].Text()
	t.Logf("the fetch's result: %q; the server was requested %d times", res, pages.hits.Load())
	if !strings.Contains(res, copilotBlocked) || !strings.Contains(res, url) {
		t.Fatalf("the call's result is not copilot's fetch of the URL: %q", res)
	}
	nothingPending(t, rc.Run)
	keyVerdict(t, rc.Verdicts(), "allow", "manual (hooksup approve)", url)
	copilotPromptClean(t, rc, tm)
}

// Always presses copilot's own "Yes, and approve all URLs from … for the rest of the running
// session": a second URL of the same origin in the same turn is fetched with no dialog and no
// new question, and copilot keeps nothing in its settings.
func TestKeysCopilotURLAlways(t *testing.T) {
	t.Parallel()
	rc, tm, pages, url := copilotURLDialog(t, func(pages *urlServer) []mockapi.ChatReply {
		return []mockapi.ChatReply{mockapi.ChatCall("web_fetch", map[string]any{"url": pages.URL + "/other.txt"}), mockapi.ChatText("FETCHED-BOTH")}
	})
	answerAndTime(t, rc.Run, tm, copilotURLQuestion, "allowed web_fetch: "+url, "approve", "--always")
	tm.WaitText(60*time.Second, "FETCHED-BOTH")
	nothingPending(t, rc.Run)
	turns := rc.Srv.Turns()
	if n := len(turns); n != 3 || len(turns[2].ToolResults()) != 2 || !strings.Contains(turns[2].ToolResults()[1].Text(), pages.URL+"/other.txt") {
		t.Fatalf("the second fetch was not made: %d turns", n)
	}
	if conf, err := os.ReadFile(filepath.Join(rc.Env.Home, ".copilot", "permissions-config.json")); err == nil && strings.Contains(string(conf), "127.0.0.1") {
		t.Fatalf("always for the session kept the URL in copilot's settings: %s", conf)
	}
	keyVerdict(t, rc.Verdicts(), "always", "manual (hooksup approve)", url)
}

func TestKeysCopilotURLDenied(t *testing.T) {
	t.Parallel()
	rc, tm, pages, url := copilotURLDialog(t, func(*urlServer) []mockapi.ChatReply {
		return []mockapi.ChatReply{mockapi.ChatText("NEXT-TURN")}
	})
	answerAndTime(t, rc.Run, tm, copilotURLQuestion, "denied web_fetch: "+url, "deny")
	tm.WaitText(60*time.Second, "Operation cancelled by user")
	keyVerdict(t, rc.Verdicts(), "deny", "manual (hooksup deny)", url)
	// Escape ends copilot's turn: the next prompt's request carries the call as refused, not as
	// a fetch copilot made (and blocked, on loopback).
	r := copilotPromptClean(t, rc, tm)
	res := r.ToolResults()
	if len(res) != 1 || res[0].Text() != "The user rejected this tool call." {
		t.Fatalf("the next request does not carry the refused call: %+v", res)
	}
	if n := pages.hits.Load(); n != 0 {
		t.Fatalf("the denied URL was requested %d times", n)
	}
}

// qwenURLQuestion is qwen's URL dialog's question.
const qwenURLQuestion = "URLs to fetch:"

// qwenURLDialog starts the real qwen under hooksup's TUI with its own arguments args (none: its
// defaults, auto mode, whose classifier cannot judge the call offline) and has it fetch a page
// of a loopback server with its web_fetch tool, which it asks about; then are the replies after
// the fetch (given the server), always the question's always as it begins.
func qwenURLDialog(t *testing.T, args []string, always string, then func(srv *urlServer) []mockapi.ChatReply) (*realQwen, *e2e.Tmux, *urlServer, string) {
	t.Helper()
	pages := newURLServer(t)
	url := pages.URL + "/page.txt"
	rq := newRealQwenTUI(t, append([]mockapi.ChatReply{mockapi.ChatCall("web_fetch", map[string]any{"url": url, "prompt": "what does it say"})}, then(pages)...)...)
	tm := e2e.StartTmux(t, 160, 45, rq.env.Environ(), rq.env.WorkDir,
		append([]string{e2e.HooksupBin, "--debug", "--config", rq.Config(`mode = "auto"`), "qwen"}, args...)...)
	const wait = 90 * time.Second
	tm.WaitText(wait, "hooksup qwen", "Type your message")
	promptQwen(t, tm, rq, "fetch the page")
	tm.WaitText(wait, qwenURLQuestion)
	s := e2e.WaitPermission(t, rq.Run, wait)
	urlQuestion(t, s, "WebFetch", url, always)
	tm.WaitText(10*time.Second, "⚑ WebFetch: http://127.0.0.1")
	return rq, tm, pages, url
}

// Allowed, qwen fetches the page from the test's server and the model reads it.
func TestKeysQwenURLApproved(t *testing.T) {
	t.Parallel()
	rq, tm, pages, url := qwenURLDialog(t, nil, "", func(*urlServer) []mockapi.ChatReply {
		return []mockapi.ChatReply{mockapi.ChatText("FETCHED-IT"), mockapi.ChatText("NEXT-TURN")}
	})
	answerAndTime(t, rq.Run, tm, qwenURLQuestion, "allowed WebFetch: "+url, "approve")
	tm.WaitText(90*time.Second, "FETCHED-IT")
	if n := pages.hits.Load(); n != 1 {
		t.Fatalf("the allowed URL was requested %d times", n)
	}
	keyVerdict(t, rq.Verdicts(), "allow", "manual (hooksup approve)", url)
	turns := rq.srv.Turns()
	var got []string
	for _, r := range turns {
		for _, m := range r.ToolResults() {
			got = append(got, m.Text())
		}
	}
	t.Logf("%d turn requests; the tool results: %q", len(turns), got)
	if len(got) != 1 || !strings.Contains(got[0], "URL: "+url) || !strings.Contains(got[0], "Status: 200 OK") {
		t.Fatalf("the model did not get the fetch's result: %q", got)
	}
	qwenPromptClean(t, rq, tm)
}

// On --approval-mode default always presses qwen's own "Always allow fetch from 127.0.0.1 in
// this project": qwen writes the rule to the project's settings, and a second URL of that host
// in the same turn is fetched with no dialog and no new question.
func TestKeysQwenURLAlways(t *testing.T) {
	t.Parallel()
	rq, tm, pages, url := qwenURLDialog(t, []string{"--approval-mode", "default"}, "always allow fetch from 127.0.0.1 in this project", func(pages *urlServer) []mockapi.ChatReply {
		return []mockapi.ChatReply{mockapi.ChatCall("web_fetch", map[string]any{"url": pages.URL + "/other.txt", "prompt": "and this"}), mockapi.ChatText("FETCHED-BOTH")}
	})
	answerAndTime(t, rq.Run, tm, qwenURLQuestion, "allowed WebFetch: "+url, "approve", "--always")
	tm.WaitText(90*time.Second, "FETCHED-BOTH")
	if n := pages.hits.Load(); n != 2 {
		t.Fatalf("the URLs allowed always were requested %d times, not 2", n)
	}
	nothingPending(t, rq.Run)
	conf, err := os.ReadFile(filepath.Join(rq.env.WorkDir, ".qwen", "settings.json"))
	t.Logf("qwen's project settings: %s", conf)
	if err != nil || !strings.Contains(string(conf), "127.0.0.1") {
		t.Fatalf("always wrote no rule for the host in qwen's project settings: %v", err)
	}
	keyVerdict(t, rq.Verdicts(), "always", "manual (hooksup approve)", url)
}

func TestKeysQwenURLDenied(t *testing.T) {
	t.Parallel()
	rq, tm, pages, url := qwenURLDialog(t, nil, "", func(*urlServer) []mockapi.ChatReply {
		return []mockapi.ChatReply{mockapi.ChatText("NEXT-TURN")}
	})
	answerAndTime(t, rq.Run, tm, qwenURLQuestion, "denied WebFetch: "+url, "deny")
	tm.WaitText(60*time.Second, "Type your message")
	keyVerdict(t, rq.Verdicts(), "deny", "manual (hooksup deny)", url)
	// Escape cancels the call and ends qwen's turn: the model reads the refusal with the next
	// prompt, as the call's result.
	r := qwenPromptClean(t, rq, tm)
	if len(rq.srv.Turns()) != 2 {
		t.Fatalf("%d turn requests: the denied call went on to the model before the next prompt", len(rq.srv.Turns()))
	}
	if res := r.ToolResults(); len(res) != 1 || !strings.Contains(res[0].Text(), "User did not allow tool call") {
		t.Fatalf("the next request does not carry the refusal: %+v", res)
	}
	if n := pages.hits.Load(); n != 0 {
		t.Fatalf("the denied URL was requested %d times", n)
	}
}

// geminiURLQuestion is gemini's URL dialog's heading of the URLs it would fetch.
const geminiURLQuestion = "URLs to fetch:"

// geminiURLDialog starts the real gemini, on its defaults, under hooksup's TUI and has it fetch a
// page of a loopback server with its web_fetch tool, which it asks about; then are the replies
// after the fetch (given the server).
func geminiURLDialog(t *testing.T, then func(srv *urlServer) []mockapi.GeminiReply) (*e2e.RealGemini, *e2e.Tmux, *urlServer, string) {
	t.Helper()
	pages := newURLServer(t)
	url := pages.URL + "/page.txt"
	rg := newRealGeminiTUI(t, append([]mockapi.GeminiReply{mockapi.GeminiWebFetch("summarise " + url)}, then(pages)...)...)
	tm := e2e.StartTmux(t, 160, 45, rg.Env.Environ(), rg.Env.WorkDir, e2e.HooksupBin, "--debug", "--config", rg.Config(`mode = "auto"`), "gemini")
	const wait = 60 * time.Second
	tm.WaitText(wait, "hooksup gemini", "Type your message")
	promptGemini(t, tm, rg, "fetch the page")
	tm.WaitText(wait, geminiURLQuestion)
	s := e2e.WaitPermission(t, rg.Run, wait)
	urlQuestion(t, s, "WebFetch", url, "allow every URL fetched (WebFetch, any address) for the rest of this gemini session")
	tm.WaitText(10*time.Second, "⚑ WebFetch: http://127.0.0.1")
	return rg, tm, pages, url
}

// geminiResponses are the function responses the model read in the last turn request of rg (each
// carries the conversation so far).
func geminiResponses(rg *e2e.RealGemini) []string {
	turns := rg.Srv.Turns()
	if len(turns) == 0 {
		return nil
	}
	var out []string
	for _, c := range turns[len(turns)-1].Contents {
		for _, p := range c.Parts {
			if len(p.FunctionResponse) > 0 {
				out = append(out, string(p.FunctionResponse))
			}
		}
	}
	return out
}

// Allowed, gemini's web_fetch runs: it refuses a loopback address itself (its own rule, which
// hooksup does not change), and the model reads that as the call's result.
func TestKeysGeminiURLApproved(t *testing.T) {
	t.Parallel()
	rg, tm, _, url := geminiURLDialog(t, func(*urlServer) []mockapi.GeminiReply {
		return []mockapi.GeminiReply{mockapi.GeminiText("FETCHED-IT"), mockapi.GeminiText("NEXT-TURN")}
	})
	answerAndTime(t, rg.Run, tm, geminiURLQuestion, "allowed WebFetch: "+url, "approve")
	tm.WaitText(60*time.Second, "FETCHED-IT")
	if got := geminiResponses(rg); len(got) != 1 || !strings.Contains(got[0], "[Blocked Host] "+url) {
		t.Fatalf("the model did not get the fetch's result: %q", got)
	}
	nothingPending(t, rg.Run)
	keyVerdict(t, rg.Verdicts(), "allow", "manual (hooksup approve)", url)
	geminiPromptClean(t, rg, tm)
}

// Always presses gemini's own "Allow for this session": a second fetch in the same turn runs with
// no dialog and no new question.
func TestKeysGeminiURLAlways(t *testing.T) {
	t.Parallel()
	rg, tm, _, url := geminiURLDialog(t, func(pages *urlServer) []mockapi.GeminiReply {
		return []mockapi.GeminiReply{mockapi.GeminiWebFetch("and summarise " + pages.URL + "/other.txt"), mockapi.GeminiText("FETCHED-BOTH")}
	})
	answerAndTime(t, rg.Run, tm, geminiURLQuestion, "allowed WebFetch: "+url, "approve", "--always")
	tm.WaitText(60*time.Second, "FETCHED-BOTH")
	if got := geminiResponses(rg); len(got) != 2 {
		t.Fatalf("the model read %d results, not the two fetches': %q", len(got), got)
	}
	nothingPending(t, rg.Run)
	keyVerdict(t, rg.Verdicts(), "always", "manual (hooksup approve)", url)
}

func TestKeysGeminiURLDenied(t *testing.T) {
	t.Parallel()
	rg, tm, pages, url := geminiURLDialog(t, func(*urlServer) []mockapi.GeminiReply {
		return []mockapi.GeminiReply{mockapi.GeminiText("NEXT-TURN")}
	})
	answerAndTime(t, rg.Run, tm, geminiURLQuestion, "denied WebFetch: "+url, "deny")
	tm.WaitText(60*time.Second, "Request cancelled")
	keyVerdict(t, rg.Verdicts(), "deny", "manual (hooksup deny)", url)
	// Escape ends gemini's turn and drops the call, as at its other dialogs: the model never
	// hears of it, and the next prompt follows the one before.
	if r := geminiPromptClean(t, rg, tm); geminiHasResponse(r, "") {
		t.Fatalf("the next request carries a result of the cancelled fetch: %s", r.Body)
	}
	if n := pages.hits.Load(); n != 0 {
		t.Fatalf("the denied URL was requested %d times", n)
	}
}
