package vterm

import (
	"encoding/base64"
	"strings"
	"sync"
	"testing"
)

// statusLog collects what a Terminal reports to OnProgramStatus.
type statusLog struct {
	mu  sync.Mutex
	got []ProgramStatus
}

func (l *statusLog) add(s ProgramStatus) {
	l.mu.Lock()
	l.got = append(l.got, s)
	l.mu.Unlock()
}

func (l *statusLog) all() []ProgramStatus {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]ProgramStatus(nil), l.got...)
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// Claude Code asks with OSC 7501 ; ? right before its DA1 sentinel and takes the protocol as
// supported only when the answer comes first. With a listener the Terminal answers in order,
// as the protocol asks (the query's own body, ST-terminated); without one it stays silent, as
// a terminal without the protocol does.
func TestProgramStatusQueryAnsweredBeforeDA1(t *testing.T) {
	var log statusLog
	term, s := newTerm(t, 80, 24, Options{OnProgramStatus: log.add})
	write(t, term, "\x1b[>0q\x1b[?u\x1b]7501;?\x07\x1b[c")
	got := replies(t, term, s)
	want := "\x1bP>|hooksup(dev)\x1b\\" + "\x1b[?0u" + "\x1b]7501;?\x1b\\" + "\x1b[?62;22c"
	if got != want {
		t.Fatalf("replies:\n got %q\nwant %q", got, want)
	}
	if n := len(log.all()); n != 0 {
		t.Fatalf("the query is not a report: %+v", log.all())
	}

	quiet, qs := newTerm(t, 80, 24, Options{})
	write(t, quiet, "\x1b]7501;?\x07\x1b[c")
	if got := replies(t, quiet, qs); got != "\x1b[?62;22c" {
		t.Fatalf("without a listener the query must go unanswered: %q", got)
	}
}

// The reports Claude Code 2.1.330 wrote in a real session (a prompt, a tool run, its auto-mode
// dialog, a Bash approval, a question, the end), in order, with nothing reaching the screen.
func TestProgramStatusReportsFromClaude(t *testing.T) {
	var log statusLog
	term, _ := newTerm(t, 80, 5, Options{OnProgramStatus: log.add})
	stream := "\x1b]7501;state=idle:app=claude-code\x07" +
		"\x1b]7501;state=working:app=claude-code\x07" +
		"\x1b]7501;state=working:app=claude-code:msg=RG9pbmcgaXQ=\x07" +
		"\x1b]7501;state=blocked:app=claude-code:msg=ZGlhbG9nIG9wZW4=\x07" +
		"\x1b]7501;state=blocked:app=claude-code:kind=permission:msg=" + b64("approve Bash: rm -rf ./build") + "\x07" +
		"\x1b]7501;state=blocked:app=claude-code:kind=question:msg=YW5zd2VyOiBXaGljaCBjb2xvdXI/IChSZWQgwrcgQmx1ZSk=\x07" +
		"\x1b]7501;state=working:app=claude-code:id=task/a1:title=" + b64("Explore") + ":progress=40\x1b\\" +
		"\x1b]7501;state=clear\x07ok"
	write(t, term, stream)
	want := []ProgramStatus{
		{State: "idle", App: "claude-code", Progress: -1},
		{State: "working", App: "claude-code", Progress: -1},
		{State: "working", App: "claude-code", Progress: -1, Msg: "Doing it"},
		{State: "blocked", App: "claude-code", Progress: -1, Msg: "dialog open"},
		{State: "blocked", Kind: "permission", App: "claude-code", Progress: -1, Msg: "approve Bash: rm -rf ./build"},
		{State: "blocked", Kind: "question", App: "claude-code", Progress: -1, Msg: "answer: Which colour? (Red · Blue)"},
		{ID: "task/a1", State: "working", App: "claude-code", Progress: 40, Title: "Explore"},
		{State: "clear", Progress: -1},
	}
	got := log.all()
	if len(got) != len(want) {
		t.Fatalf("got %d reports, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("report %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if txt := strings.TrimRight(term.Text(), "\n"); txt != "ok" {
		t.Errorf("screen = %q, want ok", txt)
	}
}

// A report split anywhere across writes arrives once, whole.
func TestProgramStatusSplitAtEveryByte(t *testing.T) {
	seq := "ab\x1b]7501;state=blocked:app=claude-code:kind=permission:msg=" + b64("approve Bash: ✳ ls") + "\x07cd"
	for cut := 0; cut <= len(seq); cut++ {
		var log statusLog
		term, _ := loopTerm(20, 2, Options{OnProgramStatus: log.add})
		write(t, term, seq[:cut])
		write(t, term, seq[cut:])
		got := log.all()
		if len(got) != 1 || got[0].Kind != "permission" || got[0].Msg != "approve Bash: ✳ ls" {
			t.Fatalf("cut %d: %+v", cut, got)
		}
		if txt := strings.TrimRight(term.Text(), "\n"); txt != "abcd" {
			t.Fatalf("cut %d: screen %q", cut, txt)
		}
		term.Close()
	}
}

// Reports the protocol says a terminal discards are not passed on; a bad kind or app is
// dropped from a report that is otherwise good; keys and values are trimmed, unknown keys
// ignored, and a repeated key keeps its last value.
func TestProgramStatusValidation(t *testing.T) {
	for _, tc := range []struct {
		body string
		want *ProgramStatus
	}{
		{"state=paused", nil},
		{"app=claude-code", nil},
		{"state=", nil},
		{"state=idle:msg=not*base64", nil},
		{"state=idle:msg=" + b64("two\nlines"), nil},
		{"state=idle:msg=" + b64("\x1b[31mred"), nil},
		{"state=idle:msg=" + base64.StdEncoding.EncodeToString([]byte{0xff, 0xfe}), nil},
		{"state=idle:msg=" + b64(strings.Repeat("m", 2049)), nil},
		{"state=idle:title=" + b64(strings.Repeat("t", 193)), nil},
		{"state=idle:" + strings.Repeat("k", 17) + "=1", nil},
		{"state=idle:id=a//b", nil},
		{"state=idle:id=sub task", nil},
		{"state=idle:id=a/b/c/d/e/f/g/h/i", nil},
		{"state=idle:id=" + strings.Repeat("x", 33), nil},
		{"state=clear:msg=!!", nil},
		{"state=working:kind=question", &ProgramStatus{State: "working", Progress: -1}},
		{"state=blocked:kind=approve", &ProgramStatus{State: "blocked", Progress: -1}},
		{"state=blocked:kind=auth", &ProgramStatus{State: "blocked", Kind: "auth", Progress: -1}},
		{"state=idle:app=has space", &ProgramStatus{State: "idle", Progress: -1}},
		{"state=working:progress=101", &ProgramStatus{State: "working", Progress: -1}},
		{"state=idle:progress=50", &ProgramStatus{State: "idle", Progress: -1}},
		{" state = idle : junk : =x : Bad=1 : state=working : app=pi ", &ProgramStatus{State: "working", App: "pi", Progress: -1}},
		{"state=done:msg=" + strings.TrimRight(b64("ok"), "="), &ProgramStatus{State: "done", Msg: "ok", Progress: -1}},
		{"state=error:msg=" + b64("\u202eevil\u200b name"), &ProgramStatus{State: "error", Msg: "evil name", Progress: -1}},
		{"state=clear:id=task", &ProgramStatus{ID: "task", State: "clear", Progress: -1}},
	} {
		got, ok := parseProgramStatus([]byte(tc.body))
		switch {
		case tc.want == nil && ok:
			t.Errorf("%q: kept %+v, want it discarded", tc.body, got)
		case tc.want != nil && !ok:
			t.Errorf("%q: discarded, want %+v", tc.body, *tc.want)
		case tc.want != nil && got != *tc.want:
			t.Errorf("%q: %+v, want %+v", tc.body, got, *tc.want)
		}
	}
}

// The listener runs after the Terminal's lock is released, so it may read the Terminal (the
// TUI reads the screen while it handles a report).
func TestProgramStatusListenerMayUseTheTerminal(t *testing.T) {
	var term *Terminal
	var title string
	term, _ = newTerm(t, 20, 2, Options{OnProgramStatus: func(ProgramStatus) { title = term.Title() }})
	write(t, term, "\x1b]2;T\x07\x1b]7501;state=idle\x07")
	if title != "T" {
		t.Fatalf("title seen by the listener %q", title)
	}
}
