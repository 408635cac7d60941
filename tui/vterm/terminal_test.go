package vterm

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/hooksup/hooksup/tui/vterm/internal/vt"
)

// sink is a reply sink safe for the Terminal's writer goroutine.
type sink struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *sink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newTerm returns a Terminal whose replies go to the returned sink, closed
// when the test ends.
func newTerm(t testing.TB, cols, rows int, opts Options) (*Terminal, *sink) {
	t.Helper()
	term, s := loopTerm(cols, rows, opts)
	t.Cleanup(func() { _ = term.Close() })
	return term, s
}

// loopTerm is newTerm for tests that make many terminals: the caller closes
// it and drops it as soon as possible, because every x/vt emulator allocates
// a 4 MB buffer for escape sequence strings.
func loopTerm(cols, rows int, opts Options) (*Terminal, *sink) {
	s := &sink{}
	if opts.Replies == nil {
		opts.Replies = s
	}
	return New(cols, rows, opts), s
}

// replies closes term and returns everything its sink received.
func replies(t *testing.T, term *Terminal, s *sink) string {
	t.Helper()
	if err := term.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	<-term.replies.done
	return s.String()
}

func write(t testing.TB, term *Terminal, s string) {
	t.Helper()
	if n, err := term.Write([]byte(s)); err != nil || n != len(s) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(s))
	}
}

func readSample(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatalf("read sample: %v", err)
	}
	return b
}

// writeChunked writes p in chunks of 1..maxChunk bytes chosen by rng.
func writeChunked(t testing.TB, term *Terminal, p []byte, rng *rand.Rand, maxChunk int) {
	t.Helper()
	for len(p) > 0 {
		n := min(len(p), 1+rng.IntN(maxChunk))
		if _, err := term.Write(p[:n]); err != nil {
			t.Fatalf("Write: %v", err)
		}
		p = p[n:]
	}
}

// sampleEvent is one line of a .events file: at output offset off, the
// recorder did what (e.g. "send:please run touch").
type sampleEvent struct {
	off  int
	what string
}

func readEvents(t *testing.T, name string) []sampleEvent {
	t.Helper()
	var evs []sampleEvent
	sc := bufio.NewScanner(bytes.NewReader(readSample(t, name)))
	for sc.Scan() {
		off, what, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(off)
		if err != nil {
			t.Fatalf("bad event line %q", sc.Text())
		}
		evs = append(evs, sampleEvent{n, what})
	}
	return evs
}

// checkpoint is a screen expectation at an output offset of a sample.
type checkpoint struct {
	off  int
	want []string
}

// sampleCheckpoints derives what the screen must show from the sample: for
// claude-tty.raw, every text the recorder typed (from the .events file) must
// be on screen by the next event, and the permission dialog and the answer
// at known points; for the other two, the whole conversation and the typed
// /exit just before claude leaves the alternate screen.
func sampleCheckpoints(t *testing.T, name string, data []byte) []checkpoint {
	t.Helper()
	if name == "claude-tty.raw" {
		var cps []checkpoint
		evs := readEvents(t, name+".events")
		for i, ev := range evs {
			text, ok := strings.CutPrefix(ev.what, "send:")
			if !ok || text == `\r` || i+1 >= len(evs) {
				continue
			}
			cps = append(cps, checkpoint{evs[i+1].off, []string{text}})
		}
		if len(cps) != 2 {
			t.Fatalf("want 2 typed texts in the events, got %+v", cps)
		}
		// The second Enter (at 5852) answers the permission dialog; at
		// /exit (7812) the answer is on screen.
		cps = append(cps,
			checkpoint{5852, []string{"Do you want to proceed?", "1. Yes", "touch created-by-bash.txt && echo hello-from-bash"}},
			checkpoint{7812, []string{"please run touch", "The command printed hello-from-bash.", "manual mode on", "? for shortcuts"}},
		)
		slices.SortFunc(cps, func(a, b checkpoint) int { return a.off - b.off })
		return cps
	}
	leave := bytes.Index(data, []byte("\x1b[?1049l"))
	if leave < 0 {
		t.Fatalf("%s: never leaves the alternate screen", name)
	}
	return []checkpoint{{leave, []string{"please run touch", "The command printed hello-from-bash.", "/exit", "manual mode on"}}}
}

var samples = []string{"claude-tty.raw", "claude-tty-noanswer.raw", "claude-tty-tmux33.raw"}

// replaySample replays data into a fresh 160×50 terminal (the recording's
// size) in chunks (whole when rng is nil), checking the checkpoints, and
// returns the screen at each checkpoint and at the end.
func replaySample(t *testing.T, name string, data []byte, cps []checkpoint, rng *rand.Rand) (screens []string, term *Terminal) {
	t.Helper()
	term, _ = loopTerm(160, 50, Options{})
	defer term.Close()
	pos := 0
	for _, cp := range cps {
		if rng == nil {
			write(t, term, string(data[pos:cp.off]))
		} else {
			writeChunked(t, term, data[pos:cp.off], rng, 64)
		}
		pos = cp.off
		screen := term.Text()
		for _, w := range cp.want {
			if !strings.Contains(screen, w) {
				t.Errorf("%s at %d: screen lacks %q:\n%s", name, cp.off, w, screen)
			}
		}
		// The title "✳ Claude Code" must never leak: the only "Claude
		// Code" on screen is the banner's.
		if n := strings.Count(screen, "Claude Code"); n > 1 {
			t.Errorf("%s at %d: %q appears %d times (title leak):\n%s", name, cp.off, "Claude Code", n, screen)
		}
		if got := term.Title(); !strings.HasSuffix(got, " Claude Code") {
			t.Errorf("%s at %d: Title = %q", name, cp.off, got)
		}
		screens = append(screens, screen+"\n"+strings.Join(term.RenderLines(160, 50, 0), "\n"))
	}
	if rng == nil {
		write(t, term, string(data[pos:]))
	} else {
		writeChunked(t, term, data[pos:], rng, 64)
	}
	return append(screens, term.Text()), term
}

func TestReplayClaudeSamples(t *testing.T) {
	for _, name := range samples {
		t.Run(name, func(t *testing.T) {
			data := readSample(t, name)
			cps := sampleCheckpoints(t, name, data)
			whole, term := replaySample(t, name, data, cps, nil)

			// After /exit claude is back on the main screen with every mode
			// it set undone, and prints how to resume.
			final := whole[len(whole)-1]
			for _, w := range []string{"Resume this session with:", "claude --permission-mode manual --resume"} {
				if !strings.Contains(final, w) {
					t.Errorf("final screen lacks %q:\n%s", w, final)
				}
			}
			if strings.Contains(final, "Claude Code") {
				t.Errorf("final screen shows title text:\n%s", final)
			}
			if m := term.Modes(); m != (Modes{}) {
				t.Errorf("final modes = %+v, want all off", m)
			}
			if got := term.Title(); got != "" {
				t.Errorf("final Title = %q, want empty (claude clears it)", got)
			}
			if s := term.Stats(); s.Resets != 0 {
				t.Errorf("Resets = %d, want 0", s.Resets)
			}

			// Random chunking must not change a single cell or style.
			for seed := range uint64(8) {
				chunked, _ := replaySample(t, name, data, cps, rand.New(rand.NewPCG(seed, 42)))
				for i := range whole {
					if chunked[i] != whole[i] {
						t.Fatalf("seed %d: screen %d differs when written in chunks:\n%s\n--- whole:\n%s", seed, i, chunked[i], whole[i])
					}
				}
			}
		})
	}
}

// The answered sample shows claude pushing kitty flags and modifyOtherKeys
// once its kitty query was answered; while it runs, keys must be encoded
// accordingly.
func TestReplayClaudeModes(t *testing.T) {
	data := readSample(t, "claude-tty.raw")
	term, _ := newTerm(t, 160, 50, Options{})
	write(t, term, string(data[:7812]))
	want := Modes{BracketedPaste: true, FocusEvents: true, Mouse: MouseAnyEvent, MouseSGR: true,
		ModifyOtherKeys: 2, KittyFlags: KittyDisambiguate | KittyReportAlternates, AltScreen: true}
	if got := term.Modes(); got != want {
		t.Errorf("Modes = %+v, want %+v", got, want)
	}
	if got := string(EncodeKey(Key{Code: KeyEnter, Mod: ModShift}, term.Modes())); got != "\x1b[13;2u" {
		t.Errorf("Shift+Enter = %q", got)
	}

	// Without kitty support the flags stay 0 and Shift+Enter falls back.
	term2, _ := newTerm(t, 160, 50, Options{DisableKittyKeyboard: true})
	write(t, term2, string(data[:7812]))
	if got := term2.Modes().KittyFlags; got != 0 {
		t.Errorf("kitty disabled: KittyFlags = %d", got)
	}
}

func TestTitleSplitAtEveryByte(t *testing.T) {
	inputs := []struct{ in, title string }{
		{"\x1b]0;\u2733 Claude Code\x07hello", "\u2733 Claude Code"},
		{"\x1b]2;\u2733 Claude Code\x1b\\hello", "\u2733 Claude Code"},
		{"\x1b]2;\u2733\u2733\u2733\x1b\\hello", "\u2733\u2733\u2733"}, // 0x9C three times
		{"\x1b]0;\u25d0 Claude Code\x07hello", "\u25d0 Claude Code"},
		{"\x1bk\u2733 screen title\x1b\\hello", "\u2733 screen title"},
	}
	for _, tc := range inputs {
		if !strings.Contains(tc.in, "\x9c") && strings.Contains(tc.title, "\u2733") {
			t.Fatalf("test input %q should contain 0x9C", tc.in)
		}
		for i := 0; i <= len(tc.in); i++ {
			term, _ := loopTerm(40, 3, Options{})
			write(t, term, tc.in[:i])
			write(t, term, tc.in[i:])
			if got := term.Title(); got != tc.title {
				t.Errorf("%q split at %d: Title = %q, want %q", tc.in, i, got, tc.title)
			}
			if got := term.Text(); got != "hello\n\n" {
				t.Errorf("%q split at %d: screen = %q, want only hello", tc.in, i, got)
			}
			_ = term.Close()
		}
	}
}

// Canary: x/vt on its own still cuts OSC at 0x9C and prints the rest of the
// title. If this starts failing, x/vt was fixed and the OSC pre-filter may be
// simplified.
func TestXVTLeaksTitleWithoutFilter(t *testing.T) {
	e := vt.NewEmulator(40, 3)
	go func() { _, _ = io.Copy(io.Discard, e) }()
	_, _ = e.WriteString("\x1b]0;\u2733 Claude Code\x07hello")
	if !strings.Contains(e.String(), "Claude Code") {
		t.Errorf("x/vt no longer leaks the title: %q", e.String())
	}
}

func TestTitleSanitized(t *testing.T) {
	term, _ := newTerm(t, 20, 2, Options{})
	write(t, term, "\x1b]2;a\x01b\u0085c\x07")
	if got := term.Title(); got != "abc" {
		t.Errorf("Title = %q, want control characters removed", got)
	}
	write(t, term, "\x1b]2;"+strings.Repeat("✳", 400)+"\x07")
	if got := term.Title(); len(got) > maxTitle || !strings.HasPrefix(got, "✳✳") || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("long title not cut on a rune boundary: %d bytes", len(got))
	}
	// An OSC cut short by another sequence still sets the title.
	write(t, term, "\x1b]2;cut\x1b[2Jok")
	if got := term.Title(); got != "cut" {
		t.Errorf("Title = %q, want cut", got)
	}
}

func TestTitleStack(t *testing.T) {
	term, _ := newTerm(t, 20, 2, Options{})
	write(t, term, "\x1b]2;one\x07\x1b[22;2t\x1b]2;two\x07")
	if got := term.Title(); got != "two" {
		t.Fatalf("Title = %q, want two", got)
	}
	write(t, term, "\x1b[23;2t")
	if got := term.Title(); got != "one" {
		t.Errorf("after pop Title = %q, want one", got)
	}
}

func TestInvalidUTF8AndC1(t *testing.T) {
	term, _ := newTerm(t, 20, 2, Options{})
	// 0x9B is C1 CSI: it must not start a sequence. A broken sequence and a
	// byte that is never UTF-8 each show one replacement character.
	write(t, term, "a\x9b31mb\xff\xe2\x9cc")
	if got, want := term.Text(), "a\uFFFD31mb\uFFFD\uFFFDc\n"; got != want {
		t.Errorf("screen = %q, want %q", got, want)
	}
	// x/vt alone would swallow the ESC after a truncated UTF-8 lead byte
	// and print "[31mX".
	write(t, term, "\r\n\xe2\x1b[31mX")
	if got, want := strings.Split(term.Text(), "\n")[1], "\uFFFDX"; got != want {
		t.Errorf("line 2 = %q, want %q", got, want)
	}
}

func TestUTF8SplitAcrossWrites(t *testing.T) {
	in := "✳ 日本 é\u0301x"
	for i := 0; i <= len(in); i++ {
		term, _ := loopTerm(20, 1, Options{})
		write(t, term, in[:i])
		write(t, term, in[i:])
		if got := term.Text(); !strings.HasPrefix(got, "✳ 日本 é") || !strings.HasSuffix(got, "x") {
			t.Errorf("split at %d: screen = %q", i, got)
		}
		_ = term.Close()
	}
}

func TestSequencesSplitAtEveryByte(t *testing.T) {
	in := "\x1b[1;31mred\x1b[0m\x1b[2;5H\x1bP+q544e\x1b\\\x1b_Gi=31,s=1;AAAA\x1b\\x\x1b[?2004h\x1b[>4;2m\x1b(B\x1b[c"
	var ref []string
	for i := 0; i <= len(in); i++ {
		term, s := loopTerm(10, 3, Options{})
		write(t, term, in[:i])
		write(t, term, in[i:])
		m := term.Modes()
		got := []string{term.Render(10, 3, 0), strconv.FormatBool(m.BracketedPaste), strconv.Itoa(m.ModifyOtherKeys), replies(t, term, s)}
		if ref == nil {
			ref = got
			if !strings.Contains(got[0], "red") || !strings.Contains(got[0], "x") || got[1] != "true" || got[2] != "2" {
				t.Fatalf("unexpected reference result %q", got)
			}
			if want := "\x1bP0+r544e\x1b\\\x1b[?62;22c"; got[3] != want {
				t.Fatalf("replies = %q, want %q", got[3], want)
			}
			continue
		}
		for j := range ref {
			if got[j] != ref[j] {
				t.Errorf("split at %d: result %d = %q, want %q", i, j, got[j], ref[j])
			}
		}
	}
}

func TestHyperlinkWithNonASCII(t *testing.T) {
	term, _ := newTerm(t, 20, 1, Options{})
	write(t, term, "\x1b]8;;https://example.com/\u2733\x1b\\link\x1b]8;;\x1b\\ end")
	if got := term.Text(); got != "link end" {
		t.Errorf("screen = %q", got)
	}
	if r := term.Render(20, 1, 0); !strings.Contains(r, "https://example.com/%E2%9C%B3") {
		t.Errorf("render lacks the percent-encoded link: %q", r)
	}
}

func TestStringsConsumed(t *testing.T) {
	term, _ := newTerm(t, 40, 1, Options{})
	// Claude's kitty graphics probe, its OSC 7501 probe, a sixel DCS, a PM,
	// an SOS and tmux passthrough: nothing may reach the screen.
	write(t, term, "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\\x1b]7501;?\x07\x1bPq#0;2;0;0;0~-\x1b\\"+
		"\x1b^pm\x1b\\\x1bXsos\x1b\\\x1bPtmux;\x1b\x1b]0;x\x07\x1b\\ok")
	if got := term.Text(); got != "ok" {
		t.Errorf("screen = %q, want ok", got)
	}
	if got := term.Title(); got != "" {
		t.Errorf("Title = %q, want none (passthrough must be dropped)", got)
	}
}

func TestQueryReplies(t *testing.T) {
	term, s := newTerm(t, 80, 24, Options{Version: "1.2.3"})
	write(t, term, "\x1b[c\x1b[5n\x1b[3;7H\x1b[6n\x1b[>0q\x1b[18t\x1b[14t\x1b[16t\x1b[19t"+
		"\x1b[?2026$p\x1b[?1004$p\x1b[?1004h\x1b[?1004$p\x1b[?1003h\x1b[?1000$p\x1b[?1003$p\x1b[?7$p"+
		"\x1b[?u\x1b[>1u\x1b[?u\x1b[>c\x1b[?6n\x1bP$qm\x1b\\\x1b]11;?\x07")
	want := "\x1b[?62;22c" + // DA1
		"\x1b[0n" + // DSR 5
		"\x1b[3;7R" + // DSR 6
		"\x1bP>|hooksup(1.2.3)\x1b\\" + // XTVERSION
		"\x1b[8;24;80t" + "\x1b[4;384;640t" + "\x1b[6;16;8t" + "\x1b[9;24;80t" +
		"\x1b[?2026;0$y" + "\x1b[?1004;2$y" + "\x1b[?1004;1$y" + "\x1b[?1000;2$y" + "\x1b[?1003;1$y" + "\x1b[?7;1$y" +
		"\x1b[?0u" + "\x1b[?1u" + // kitty query before and after a push
		"\x1b[>1;10;0c" + // DA2, from x/vt
		"\x1b[?3;7R" + // DECXCPR, from x/vt
		"\x1bP0$r\x1b\\" + // DECRQSS: not supported
		"\x1b]11;rgb:0000/0000/0000\x07" // default background, from x/vt
	if got := replies(t, term, s); got != want {
		t.Errorf("replies:\n got %q\nwant %q", got, want)
	}
}

func TestQueryRepliesFollowResize(t *testing.T) {
	term, s := newTerm(t, 80, 24, Options{CellWidth: 10, CellHeight: 20})
	term.Resize(100, 30)
	write(t, term, "\x1b[18t\x1b[14t")
	if got, want := replies(t, term, s), "\x1b[8;30;100t\x1b[4;600;1000t"; got != want {
		t.Errorf("replies = %q, want %q", got, want)
	}
}

// Canary: x/vt answers DSR 5 with the DEC form, which is why the wrapper
// answers it itself.
func TestXVTAnswersDSR5Wrongly(t *testing.T) {
	e := vt.NewEmulator(10, 2)
	done := make(chan []byte)
	go func() { b, _ := io.ReadAll(e); done <- b }()
	_, _ = e.WriteString("\x1b[5n")
	// Not e.Close: it races with Read on x/vt's unsynchronised closed flag.
	_ = e.InputPipe().(io.Closer).Close()
	if got := string(<-done); got == "\x1b[0n" {
		t.Errorf("x/vt now answers DSR 5 correctly")
	}
}

func TestKittyDisabled(t *testing.T) {
	term, s := newTerm(t, 20, 2, Options{DisableKittyKeyboard: true})
	write(t, term, "\x1b[>1u\x1b[?u\x1b[c")
	if got := term.Modes().KittyFlags; got != 0 {
		t.Errorf("KittyFlags = %d, want 0", got)
	}
	if got, want := replies(t, term, s), "\x1b[?62;22c"; got != want {
		t.Errorf("replies = %q, want only DA1 %q", got, want)
	}
}

func TestKittyStacksPerScreen(t *testing.T) {
	term, s := newTerm(t, 20, 2, Options{})
	flags := func() int { return term.Modes().KittyFlags }
	write(t, term, "\x1b[>1u")
	if flags() != 1 {
		t.Fatalf("main after push: %d", flags())
	}
	write(t, term, "\x1b[?1049h")
	if flags() != 0 {
		t.Errorf("alt screen must start with its own empty stack, got %d", flags())
	}
	write(t, term, "\x1b[>5u\x1b[>31u") // 31: unsupported bits are dropped
	if flags() != 5 {
		t.Errorf("alt after pushes: %d, want 5", flags())
	}
	write(t, term, "\x1b[<u")
	if flags() != 5 {
		t.Errorf("alt after one pop: %d, want 5", flags())
	}
	write(t, term, "\x1b[=1;3u") // clear bit 1
	if flags() != 4 {
		t.Errorf("after CSI =1;3u: %d, want 4", flags())
	}
	write(t, term, "\x1b[=1;2u") // set bit 1
	if flags() != 5 {
		t.Errorf("after CSI =1;2u: %d, want 5", flags())
	}
	write(t, term, "\x1b[<10u")
	if flags() != 0 {
		t.Errorf("alt after popping everything: %d", flags())
	}
	write(t, term, "\x1b[?1049l")
	if flags() != 1 {
		t.Errorf("main screen flags lost: %d", flags())
	}
	for range 40 {
		write(t, term, "\x1b[>4u")
	}
	write(t, term, "\x1b[<100u\x1b[?u")
	if got := replies(t, term, s); got != "\x1b[?0u" {
		t.Errorf("query after popping a full stack = %q", got)
	}
}

func TestModesTracked(t *testing.T) {
	term, _ := newTerm(t, 20, 2, Options{})
	steps := []struct {
		in   string
		want Modes
	}{
		{"\x1b[?1h\x1b=", Modes{CursorKeys: true, KeypadApplication: true}},
		{"\x1b[?1l\x1b>", Modes{}},
		{"\x1b[?2004;1004h", Modes{BracketedPaste: true, FocusEvents: true}},
		{"\x1b[?1000h\x1b[?1002h\x1b[?1006h", Modes{BracketedPaste: true, FocusEvents: true, Mouse: MouseButtonEvent, MouseSGR: true}},
		{"\x1b[?1000l", Modes{BracketedPaste: true, FocusEvents: true, Mouse: MouseButtonEvent, MouseSGR: true}},
		{"\x1b[?1002l\x1b[?1006l\x1b[?9h", Modes{BracketedPaste: true, FocusEvents: true, Mouse: MouseX10}},
		{"\x1b[>4;1m", Modes{BracketedPaste: true, FocusEvents: true, Mouse: MouseX10, ModifyOtherKeys: 1}},
		{"\x1b[>4m", Modes{BracketedPaste: true, FocusEvents: true, Mouse: MouseX10}},
		{"\x1b[>4;2m\x1b[>4n", Modes{BracketedPaste: true, FocusEvents: true, Mouse: MouseX10}},
		{"\x1b[?1049h", Modes{BracketedPaste: true, FocusEvents: true, Mouse: MouseX10, AltScreen: true}},
		{"\x1b[?1h\x1b[!p", Modes{BracketedPaste: true, FocusEvents: true, Mouse: MouseX10, AltScreen: true}},
		{"\x1b[>1u\x1b[>4;2m\x1bc", Modes{}},
	}
	for _, st := range steps {
		write(t, term, st.in)
		if got := term.Modes(); got != st.want {
			t.Errorf("after %q: Modes = %+v, want %+v", st.in, got, st.want)
		}
	}
}

func TestRepeatCountCapped(t *testing.T) {
	term, _ := newTerm(t, 80, 24, Options{})
	// Uncapped, x/vt spends seconds here; the test only has to finish.
	write(t, term, "x\x1b[9999999b\x1b[99999999999999999999999999b")
	screen := term.Text()
	if strings.Count(screen, "x") < 80*23 || strings.Trim(screen, "x\n") != "" {
		t.Errorf("screen after REP is not a screenful of x:\n%s", screen)
	}
}

// Hostile sequences that make x/vt panic or misbehave on its own must be
// defused before they reach it: no panic escapes, and none even needs the
// recover() safety net.
func TestHostileSequences(t *testing.T) {
	tests := []struct {
		name   string
		steps  []string // written in order; "resize:C,R" resizes
		cursor bool     // check the cursor is on screen at the end
	}{
		{"scroll region past the bottom, reverse index", []string{"\x1b[1;999r\x1bM\x1b[5L\x1b[3M"}, true},
		{"region after a shrinking resize", []string{"resize:80,10", "\x1b[1;24r\x1b[24;1H\x1bM\x1b[L\x1b[M\n\x1b[S\x1b[T"}, true},
		{"left/right margins past the edge", []string{"\x1b[?69h\x1b[5;999s\x1b[10;90H\x1b[@\x1b[P\x1b[5L\x1b[M"}, true},
		{"alt screen resize then leave", []string{"\x1b[20;70H\x1b[?1049h\x1b[20;70H", "resize:40,10", "\x1b[?1049lX\x1b[L\x1b[M\x1bM\x1b[@\x1b[P"}, true},
		{"restore a cursor saved before shrinking", []string{"\x1b[20;70H\x1b7", "resize:40,10", "\x1b8X\x1b[L"}, true},
		{"SCO restore after shrinking", []string{"\x1b[20;70H\x1b[s", "resize:40,10", "\x1b[uX"}, true},
		{"huge counts", []string{"a\x1b[9999999b\x1b[9999999;9999999H\x1b[9999999@\x1b[65535S\x1b[9999999T\x1b[9999999X\x1b[9999999I\x1b[9999999Z"}, true},
		{"overflowing parameter", []string{"\x1b[" + strings.Repeat("9", 400) + "A\x1b[" + strings.Repeat("1;", 100) + "m"}, true},
		{"zero-size resize", []string{"resize:0,0", "hello\x1b[1;5r\x1bM"}, true},
		{"origin mode with a region", []string{"\x1b[?6h\x1b[5;10r\x1b[99;99H\x1bM\x1b[L", "resize:20,4", "\x1b[?6h\x1b[99;99HX"}, true},
		{"unterminated strings", []string{"\x1b]0;" + strings.Repeat("x", maxString+10), "\x07\x1bP" + strings.Repeat("y", maxString+10) + "\x1b\\ok"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			term, _ := newTerm(t, 80, 24, Options{})
			for _, s := range tt.steps {
				if dims, ok := strings.CutPrefix(s, "resize:"); ok {
					c, r, _ := strings.Cut(dims, ",")
					cols, _ := strconv.Atoi(c)
					rows, _ := strconv.Atoi(r)
					term.Resize(cols, rows)
					continue
				}
				write(t, term, s)
			}
			if got := term.Stats().Resets; got != 0 {
				t.Errorf("the emulator panicked %d times", got)
			}
			if tt.cursor {
				x, y, _ := term.Cursor()
				cols, rows := term.Size()
				pos := term.emuCursor()
				if pos.X < 0 || pos.Y < 0 || pos.X >= cols || pos.Y >= rows || x >= cols || y >= rows {
					t.Errorf("cursor %v outside %dx%d", pos, cols, rows)
				}
			}
			_ = term.Render(80, 24, 0)
		})
	}
}

// emuCursor returns the emulator's own idea of the cursor position.
func (t *Terminal) emuCursor() uv.Position {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.emu.CursorPosition()
}

// Canary: x/vt on its own panics on a scroll region past the bottom.
func TestXVTPanicsOnLargeRegion(t *testing.T) {
	e := vt.NewEmulator(10, 5)
	go func() { _, _ = io.Copy(io.Discard, e) }()
	defer func() {
		if recover() == nil {
			t.Errorf("x/vt no longer panics on CSI 1;999r + RI")
		}
	}()
	_, _ = e.WriteString("\x1b[1;999r\x1bM")
}

func TestPanicResetsEmulator(t *testing.T) {
	var (
		mu       sync.Mutex
		reported []any
		term     *Terminal
		s        *sink
	)
	term, s = newTerm(t, 30, 5, Options{OnReset: func(r any) {
		_ = term.Title() // the callback may call back into the Terminal
		mu.Lock()
		defer mu.Unlock()
		reported = append(reported, r)
	}})
	for i := range 20 {
		write(t, term, "line "+strconv.Itoa(i)+"\r\n")
	}
	sb := term.ScrollbackLen()
	if sb == 0 {
		t.Fatal("no scrollback before the panic")
	}
	write(t, term, "\x1b[?25l\x1b]2;kept\x07")
	// Make the emulator itself panic on an otherwise unused sequence.
	term.mu.Lock()
	term.emu.RegisterCsiHandler('y', func(ansi.Params) bool { panic("boom") })
	term.mu.Unlock()
	gen := term.Generation()
	write(t, term, "before\x1b[y")

	mu.Lock()
	if len(reported) != 1 || reported[0] != "boom" {
		t.Errorf("OnReset calls = %v, want one with boom", reported)
	}
	mu.Unlock()
	if got := term.Stats().Resets; got != 1 {
		t.Errorf("Resets = %d, want 1", got)
	}
	if term.Generation() == gen {
		t.Error("generation unchanged by the reset")
	}
	if got := term.ScrollbackLen(); got != sb {
		t.Errorf("scrollback after reset = %d lines, want %d", got, sb)
	}
	if _, _, visible := term.Cursor(); visible {
		t.Error("hidden cursor became visible after reset")
	}
	if got := term.Title(); got != "kept" {
		t.Errorf("Title = %q, want kept", got)
	}
	// The fresh emulator works and its replies still reach the sink.
	write(t, term, "after\x1b[c")
	if !strings.Contains(term.Text(), "after") {
		t.Errorf("screen after reset:\n%s", term.Text())
	}
	if got := replies(t, term, s); got != "\x1b[?62;22c" {
		t.Errorf("replies after reset = %q", got)
	}
}

func TestPanicResetKeepsAltScreen(t *testing.T) {
	term, _ := newTerm(t, 30, 5, Options{})
	write(t, term, "\x1b[?1049h")
	term.mu.Lock()
	term.emu.RegisterCsiHandler('y', func(ansi.Params) bool { panic("boom") })
	term.mu.Unlock()
	write(t, term, "\x1b[y")
	if !term.Modes().AltScreen {
		t.Error("alternate screen lost in the reset")
	}
}

func TestRepliesNeverBlockWrite(t *testing.T) {
	t.Run("no sink", func(t *testing.T) {
		term := New(20, 5, Options{})
		defer term.Close()
		write(t, term, strings.Repeat("\x1b[c\x1b[6n\x1b]11;?\x07", 5000))
	})
	t.Run("sink that never reads", func(t *testing.T) {
		pr, pw := io.Pipe()
		defer pr.Close()
		term := New(20, 5, Options{Replies: pw})
		write(t, term, strings.Repeat("\x1b[c", 20000))
		if got := term.Stats().RepliesDropped; got == 0 {
			t.Error("no replies dropped although the sink never reads")
		}
		_ = term.Close() // must not wait for the blocked sink
	})
	t.Run("sink error", func(t *testing.T) {
		pr, pw := io.Pipe()
		_ = pr.CloseWithError(io.ErrClosedPipe)
		term := New(20, 5, Options{Replies: pw})
		write(t, term, "\x1b[c")
		_ = term.Close()
		<-term.replies.done
		if term.Stats().ReplyError == nil {
			t.Error("sink error not reported")
		}
	})
}

func TestWriteAfterClose(t *testing.T) {
	term := New(20, 5, Options{})
	_ = term.Close()
	_ = term.Close()
	if _, err := term.Write([]byte("x")); err != ErrClosed {
		t.Errorf("Write after Close: %v, want ErrClosed", err)
	}
	term.Resize(10, 10) // a no-op, not a panic
}

func TestResizeKeepsCursorLine(t *testing.T) {
	term, _ := newTerm(t, 40, 24, Options{})
	for i := range 23 {
		write(t, term, "line "+strconv.Itoa(i)+"\r\n")
	}
	write(t, term, "prompt> ")
	term.Resize(40, 10)
	x, y, _ := term.Cursor()
	lines := strings.Split(term.Text(), "\n")
	if len(lines) != 10 || lines[9] != "prompt>" || lines[8] != "line 22" || x != 8 || y != 9 {
		t.Errorf("after shrinking: cursor (%d,%d), screen:\n%s", x, y, term.Text())
	}
	if got := term.ScrollbackLen(); got != 14 {
		t.Errorf("scrollback = %d lines, want the 14 scrolled off", got)
	}
	// Growing again brings back the two lines above the screen (as tmux and xterm do).
	term.Resize(50, 12)
	if lines := strings.Split(term.Text(), "\n"); len(lines) != 12 || lines[11] != "prompt>" || lines[0] != "line 12" {
		t.Errorf("after growing:\n%s", term.Text())
	}
	if c, r := term.Size(); c != 50 || r != 12 {
		t.Errorf("Size = %d,%d", c, r)
	}
}

// A screen that shrinks and grows back shows what it showed before: the lines the shrink
// scrolled off come back from the scrollback, whole, with their styles and wide characters, and
// the cursor stays on its line. An agent that does not repaint on a resize (hooksup demo's) is
// otherwise left with a blank pane. Only the lines there are come back; the alternate screen,
// which keeps none, grows with blank rows.
func TestResizeGrowingPullsScrollbackDown(t *testing.T) {
	term, _ := newTerm(t, 60, 10, Options{})
	for i := range 9 {
		write(t, term, "\x1b[1mline "+strconv.Itoa(i)+"\x1b[m — 漢字 and the rest of the line\r\n")
	}
	write(t, term, "prompt> ")
	before := term.Text()
	term.Resize(18, 1) // below any pane hooksup draws
	if x, y, _ := term.Cursor(); y != 0 || x != 8 || term.ScrollbackLen() != 9 {
		t.Fatalf("shrunk: cursor (%d,%d), %d lines of scrollback:\n%s", x, y, term.ScrollbackLen(), term.Text())
	}
	term.Resize(60, 10)
	if got := term.Text(); got != before {
		t.Errorf("grown back, the screen is\n%s\nwant\n%s", got, before)
	}
	if x, y, _ := term.Cursor(); x != 8 || y != 9 {
		t.Errorf("grown back, the cursor is at (%d,%d), want (8,9)", x, y)
	}
	if got := term.ScrollbackLen(); got != 0 {
		t.Errorf("%d lines left in the scrollback, want 0: they are on the screen again", got)
	}
	if first := term.RenderLines(60, 1, 0)[0]; !strings.Contains(first, "\x1b[1m") {
		t.Errorf("the first line lost its style: %q", first)
	}
	// Taller than what there is: the lines there are, then blank rows below.
	term.Resize(60, 14)
	if lines := strings.Split(term.Text(), "\n"); len(lines) != 14 || lines[0] != "line 0 — 漢字 and the rest of the line" || lines[9] != "prompt>" {
		t.Errorf("taller than the history:\n%s", term.Text())
	}

	alt, _ := newTerm(t, 40, 6, Options{})
	for i := range 12 {
		write(t, alt, "main "+strconv.Itoa(i)+"\r\n")
	}
	write(t, alt, "\x1b[?1049h\x1b[Halt screen")
	alt.Resize(40, 10)
	if lines := strings.Split(alt.Text(), "\n"); len(lines) != 10 || lines[0] != "alt screen" {
		t.Errorf("the alternate screen grown:\n%s", alt.Text())
	}
}

func TestScrollbackAndRenderOffset(t *testing.T) {
	term, _ := newTerm(t, 20, 5, Options{Scrollback: 100})
	for i := range 300 {
		write(t, term, "\r\nline "+strconv.Itoa(i))
	}
	if got := term.ScrollbackLen(); got != 100 {
		t.Fatalf("ScrollbackLen = %d, want 100 (the limit)", got)
	}
	plain := func(lines []string) []string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = strings.TrimRight(ansi.Strip(l), " ")
		}
		return out
	}
	if got := plain(term.RenderLines(20, 5, 0)); strings.Join(got, "|") != "line 295|line 296|line 297|line 298|line 299" {
		t.Errorf("offset 0: %q", got)
	}
	if got := plain(term.RenderLines(20, 5, 2)); strings.Join(got, "|") != "line 293|line 294|line 295|line 296|line 297" {
		t.Errorf("offset 2: %q", got)
	}
	if got := plain(term.RenderLines(20, 3, 1000)); strings.Join(got, "|") != "line 195|line 196|line 197" {
		t.Errorf("offset past the top (clamped to 100): %q", got)
	}
	// The alternate screen has no history.
	write(t, term, "\x1b[?1049h")
	if got := term.ScrollbackLen(); got != 0 {
		t.Errorf("ScrollbackLen in the alternate screen = %d", got)
	}
}

func TestRenderExactWidths(t *testing.T) {
	term, _ := newTerm(t, 10, 4, Options{})
	write(t, term, "\x1b[1;31m日本語日本\x1b[0m\r\nab\x1b[44m  \x1b[0mcd\r\n\x1b[2;9H日x\r\n\u0301")
	for _, tc := range []struct{ w, h, off int }{{10, 4, 0}, {7, 4, 0}, {9, 2, 0}, {15, 6, 0}, {1, 1, 0}, {0, 3, 0}} {
		lines := term.RenderLines(tc.w, tc.h, tc.off)
		if len(lines) != tc.h {
			t.Errorf("%dx%d: %d lines", tc.w, tc.h, len(lines))
		}
		for i, l := range lines {
			if got := ansi.StringWidth(l); got != tc.w {
				t.Errorf("%dx%d: line %d is %d cells wide: %q", tc.w, tc.h, i, got, l)
			}
			if i := strings.LastIndex(l, "\x1b["); i >= 0 && !strings.HasPrefix(l[i:], "\x1b[m") && !strings.HasPrefix(l[i:], "\x1b[0m") {
				t.Errorf("%dx%d: styled line %d does not end with a reset: %q", tc.w, tc.h, i, l)
			}
		}
	}
	first := term.RenderLines(10, 1, 0)[0]
	if !strings.Contains(first, "日本語日本") || !strings.Contains(first, "31") {
		t.Errorf("styled wide text lost: %q", first)
	}
	// Cropping in the middle of a wide character leaves a blank, not half
	// a character.
	if got := ansi.Strip(term.RenderLines(7, 1, 0)[0]); got != "日本語 " {
		t.Errorf("cropped line = %q", got)
	}
}

func TestGenerationAndCursor(t *testing.T) {
	term, _ := newTerm(t, 20, 5, Options{})
	g0 := term.Generation()
	_ = term.Render(20, 5, 0)
	_ = term.Text()
	_ = term.Modes()
	if term.Generation() != g0 {
		t.Error("reading changed the generation")
	}
	write(t, term, "ab\x1b[3;4H")
	g1 := term.Generation()
	if g1 == g0 {
		t.Error("writing did not change the generation")
	}
	if x, y, vis := term.Cursor(); x != 3 || y != 2 || !vis {
		t.Errorf("Cursor = %d,%d,%v", x, y, vis)
	}
	write(t, term, "\x1b[?25l")
	if _, _, vis := term.Cursor(); vis {
		t.Error("cursor still visible after ?25l")
	}
	write(t, term, "\x1b]2;t\x07")
	if term.Generation() == g1 {
		t.Error("a title change did not change the generation")
	}
	g2 := term.Generation()
	term.Resize(30, 6)
	if term.Generation() == g2 {
		t.Error("a resize did not change the generation")
	}
}

// The pty goroutine writes while the UI goroutine reads and resizes: run
// with -race.
func TestConcurrentUse(t *testing.T) {
	data := readSample(t, "claude-tty.raw")
	term, _ := newTerm(t, 160, 50, Options{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(1, 2))
		for range 5 {
			writeChunked(t, term, data, rng, 512)
		}
	}()
	for i := range 200 {
		if i%50 == 49 {
			term.Resize(120+i%40, 40+i%10)
		}
		cols, rows := term.Size()
		_ = term.RenderLines(cols, rows, i%3)
		_ = term.Modes()
		_, _, _ = term.Cursor()
		_ = term.Title()
		_ = term.Generation()
	}
	wg.Wait()
}
