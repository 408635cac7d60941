package tui

import (
	"bytes"
	"image/color"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"
	"github.com/hooksup/hooksup/third_party/teatest"

	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/themes"
)

// pinned writes s through a colour profile writer pinned to p, as `hooksup themes` and the
// TUI's renderer write through one detected from the terminal.
func pinned(t *testing.T, s string, p colorprofile.Profile) string {
	t.Helper()
	var buf bytes.Buffer
	w := &colorprofile.Writer{Forward: &buf, Profile: p}
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func theme(t *testing.T, name string) themes.Theme {
	t.Helper()
	th, err := themes.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

// sampleFake delivers events like the supervisor, with the sample's counts.
type sampleFake struct{ *fakeSession }

func (sampleFake) Counts() session.Counts { return sampleCounts }

// tuiFrame drives the TUI through Bubble Tea with the preview's sample events, as the
// supervisor would deliver them, focuses the verdicts pane with the keys a person presses, and
// returns the frame the TUI draws.
func tuiFrame(t *testing.T, th themes.Theme, w, h int) string {
	t.Helper()
	f := newFakeSession()
	cols, rows := previewAgentSize(w, h)
	a := newAgentIO(cols, rows, "test", nil, nil)
	t.Cleanup(a.close)
	a.term.Write(sampleScreen)
	m := newModel(sampleFake{f}, a, NewStyles(th), defaultKeyMap(), "ask", true, claude.DefaultBlockCap)
	m.setAgent("claude")
	m.header.plain = "claude"
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	for _, ev := range sampleEvents() {
		f.events <- ev
	}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("wants to stop")) },
		teatest.WithDuration(30*time.Second))
	tm.Send(press(']', tea.ModCtrl, ""))
	tm.Send(press(tea.KeyTab, 0, ""))
	tm.Send(tea.Quit())
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(model)
	fm.now, fm.checks.spinner, fm.quitting = sampleNow, 0, false
	fm.io.applySize(fm.lay.agentInner())
	return fm.render()
}

// A theme's preview is a frame of the TUI: the TUI, given the same events, draws the same
// bytes, and so the same style sequences for every slot, in every colour profile.
func TestPreviewIsATUIFrame(t *testing.T) {
	for _, name := range []string{themes.Dark, themes.Light, themes.Mono} {
		t.Run(name, func(t *testing.T) {
			th := theme(t, name)
			frame := tuiFrame(t, th, PreviewWidth, PreviewHeight)
			preview := strings.Join(strings.Split(Preview(th, "claude", PreviewWidth, PreviewHeight), "\n")[:PreviewHeight], "\n")
			for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.Ascii} {
				if got, want := pinned(t, preview, p), pinned(t, frame, p); got != want {
					t.Errorf("%s: the preview differs from the TUI's frame:\npreview:\n%s\nTUI:\n%s", p, got, want)
				}
			}
		})
	}
}

var sgrRE = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// sgrBefore returns the SGR sequences right before the first text in s.
func sgrBefore(t *testing.T, s, text string) string {
	t.Helper()
	re := regexp.MustCompile(`((?:\x1b\[[0-9;:]*m)+)` + regexp.QuoteMeta(text))
	m := re.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no styled %q in\n%s", text, s)
	}
	// Only the last sequences count: a reset before a style is part of the one before.
	seqs := sgrRE.FindAllString(m[1], -1)
	for len(seqs) > 1 && seqs[0] == "\x1b[m" {
		seqs = seqs[1:]
	}
	return strings.Join(seqs, "")
}

// What the preview's legend shows is what the TUI draws in those states: the header's agent
// states, the checks pane's results, the status line's warnings and errors and its exit line.
func TestPreviewLegendIsTheTUIs(t *testing.T) {
	th := theme(t, themes.Dark)
	legend := strings.Join(strings.Split(Preview(th, "claude", PreviewWidth, PreviewHeight), "\n")[PreviewHeight:], "\n")
	draw := func(events ...tea.Msg) string {
		m, _, _ := newTestModel(t, themes.Dark)
		mm, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 44})
		for _, ev := range events {
			mm, _ = mm.Update(ev)
		}
		fm := mm.(model)
		fm.now = sampleNow
		return fm.render()
	}
	ev := func(e session.Event) tea.Msg { return eventMsg{ev: e, counts: sampleCounts} }
	at := session.At{Time: sampleNow}
	for _, state := range []session.AgentState{session.StateWorking, session.StateWaiting, session.StatePermission,
		session.StateInterrupted, session.StateExited} {
		text := "● " + string(state)
		frame := draw(ev(session.StateChanged{At: at, State: state}))
		if got, want := sgrBefore(t, legend, text), sgrBefore(t, frame, text); got != want {
			t.Errorf("%s: the legend draws it with %q, the header with %q", state, got, want)
		}
	}
	var checksLegend string
	for _, l := range strings.Split(legend, "\n") {
		if strings.Contains(l, "checks") {
			checksLegend = l
		}
	}
	for _, r := range sampleChecks()[1:] {
		frame := draw(ev(session.CheckStarted{At: at, Run: 1, Name: r.Name, Command: r.Command}),
			ev(session.CheckFinished{At: at, Run: 1, Result: r}))
		mark := "✓"
		if !r.Passed() {
			mark = "✗"
		}
		if got, want := sgrBefore(t, checksLegend, mark), sgrBefore(t, frame, mark); got != want {
			t.Errorf("check %s: the legend draws %s with %q, the checks pane with %q", r.Name, mark, got, want)
		}
	}
	for _, n := range []session.Notice{{At: at, Level: session.NoticeWarn, Text: "a warning"}, {At: at, Level: session.NoticeError, Text: "an error of hooksup's"}} {
		text := " ⚠ " + n.Text
		if got, want := sgrBefore(t, legend, text), sgrBefore(t, draw(ev(n)), text); got != want {
			t.Errorf("%s: the legend draws it with %q, the status line with %q", n.Level, got, want)
		}
	}
	text := " claude exited with status 0"
	if got, want := sgrBefore(t, legend, text), sgrBefore(t, draw(ev(session.AgentExited{At: at})), text); got != want {
		t.Errorf("exit: the legend draws it with %q, the status line with %q", got, want)
	}
}

// Every slot of a theme shows in the preview, and so in the TUI: a slot set to a colour of its
// own puts that colour into the preview.
func TestEverySlotIsDrawn(t *testing.T) {
	for _, slot := range themes.Slots() {
		data := "base = \"dark\"\n" + slot + " = \"#010203\"\n"
		th, err := themes.Load("probe.toml", []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		if c, _ := th.Color(slot); c != (color.RGBA{1, 2, 3, 0xff}) {
			t.Fatalf("%s = %v", slot, c)
		}
		out := Preview(th, "claude", PreviewWidth, PreviewHeight)
		if !strings.Contains(out, "38;2;1;2;3m") && !strings.Contains(out, "48;2;1;2;3m") &&
			!strings.Contains(out, "38;2;1;2;3;") && !strings.Contains(out, "48;2;1;2;3;") {
			t.Errorf("slot %s: its colour appears nowhere in the preview", slot)
		}
	}
}

// With NO_COLOR (the mono theme) nothing in the preview carries a colour, and the states
// stay apart by bold, faint and reverse video.
func TestNoColorPreviewHasNoColour(t *testing.T) {
	for _, name := range themes.Names() {
		th, err := themes.Resolve(name, true, true)
		if err != nil {
			t.Fatal(err)
		}
		out := Preview(th, "claude", PreviewWidth, PreviewHeight)
		if seqs := colourSGR(out); len(seqs) > 0 {
			t.Errorf("%s with NO_COLOR: colour sequences %q", name, seqs)
		}
		for _, want := range []string{"\x1b[1;7m ⚑ claude wants to stop", "\x1b[7m14:02:14 Sub", "\x1b[1m● needs permission", "\x1b[2m● exited"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s with NO_COLOR: no %q in\n%s", name, want, out)
			}
		}
	}
	// The check itself works: a colour theme has colours.
	if len(colourSGR(Preview(theme(t, themes.Dark), "claude", PreviewWidth, PreviewHeight))) == 0 {
		t.Error("colourSGR finds no colour in the dark preview")
	}
}

// colourSGR returns the SGR sequences of s that set a colour.
func colourSGR(s string) []string {
	var out []string
	for _, m := range sgrRE.FindAllString(s, -1) {
		for _, p := range strings.FieldsFunc(m[2:len(m)-1], func(r rune) bool { return r == ';' || r == ':' }) {
			n, _ := strconv.Atoi(p)
			if n >= 30 && n <= 38 || n >= 40 && n <= 48 || n >= 90 && n <= 97 || n >= 100 && n <= 107 {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

// The previews of every built-in theme, and dark in 256 and 16 colours and NO_COLOR, as
// `hooksup themes` writes them to such terminals.
func TestPreviewGolden(t *testing.T) {
	for _, name := range themes.Names() {
		golden(t, "preview-"+name+".truecolor", pinned(t, Preview(theme(t, name), "claude", PreviewWidth, PreviewHeight), colorprofile.TrueColor))
	}
	dark := Preview(theme(t, themes.Dark), "claude", PreviewWidth, PreviewHeight)
	golden(t, "preview-dark.ansi256", pinned(t, dark, colorprofile.ANSI256))
	golden(t, "preview-dark.ansi", pinned(t, dark, colorprofile.ANSI))
	mono, err := themes.Resolve(themes.Dark, true, true)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "preview-nocolor.ascii", pinned(t, Preview(mono, "claude", PreviewWidth, PreviewHeight), colorprofile.Ascii))
	golden(t, "preview-dark-narrow.truecolor", pinned(t, Preview(theme(t, themes.Dark), "claude", 80, PreviewNarrowHeight), colorprofile.TrueColor))
}
