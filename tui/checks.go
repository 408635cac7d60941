package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
)

// checkOutputKeep bounds the output the pane keeps of a run.
const checkOutputKeep = 32 << 10

// checksPane shows the running check live (spinner, elapsed time, streaming output) and then
// the last result.
type checksPane struct {
	agent string // the agent's name
	keys  navKeys
	rows  int // the pane's inner height: a page
	// configured and subConfigured are the checks the session runs, listed before any has; ignored
	// the project files whose checks are not used (not trusted).
	configured, subConfigured []config.Check
	ignored                   []string
	from                      []string // the configuration files the checks come from
	run                       int
	name                      string
	command                   string
	started                   time.Time
	running                   bool
	result                    *session.CheckResult
	output                    []byte
	scroll                    int
	spinner                   int
	finished                  time.Time
	// waiting: the stop's checks wait for another hooksup's run in the project (nil: they do not).
	waiting *session.CheckWaiting
}

var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func (p *checksPane) event(ev session.Event) {
	switch e := ev.(type) {
	case session.CheckWaiting:
		p.waiting = &e
	case session.CheckWaitEnded:
		p.waiting = nil
	case session.CheckStarted:
		p.run, p.name, p.command, p.started, p.running, p.result = e.Run, e.Name, e.Command, e.Time, true, nil
		p.output = p.output[:0]
		p.scroll = 0
	case session.CheckOutput:
		if e.Run == p.run {
			p.output = append(p.output, e.Chunk...)
			if len(p.output) > 2*checkOutputKeep {
				p.output = append(p.output[:0:0], p.output[len(p.output)-checkOutputKeep:]...)
			}
		}
	case session.CheckFinished:
		if e.Run == p.run {
			r := e.Result
			p.running, p.result, p.finished = false, &r, e.Time
		}
	case session.ConfigApplied:
		p.configApplied(e)
	}
}

// configApplied lists the checks a trusted edit switched to, from the stop it took effect at:
// a run shown before it was the old configuration's (none runs as it takes effect), and a file
// now in use is no longer ignored.
func (p *checksPane) configApplied(e session.ConfigApplied) {
	configured := func(cs []session.ConfiguredCheck) []config.Check {
		var out []config.Check
		for _, c := range cs {
			out = append(out, config.Check{Name: c.Name, Command: c.Command})
		}
		return out
	}
	p.configured, p.subConfigured = configured(e.Checks), configured(e.SubagentChecks)
	p.ignored = slices.DeleteFunc(slices.Clone(p.ignored), func(f string) bool { return slices.Contains(e.Files, f) })
	for _, f := range e.Files {
		if !slices.Contains(p.from, f) {
			p.from = append(slices.Clone(p.from), f)
		}
	}
	if !p.running {
		p.name, p.command, p.result, p.output, p.scroll = "", "", nil, p.output[:0], 0
	}
}

// navigate scrolls the output back (up) and forward (down).
func (p *checksPane) navigate(msg tea.KeyPressMsg) {
	switch {
	case key.Matches(msg, p.keys.Up):
		p.scrollBy(1)
	case key.Matches(msg, p.keys.Down):
		p.scrollBy(-1)
	case key.Matches(msg, p.keys.PageUp):
		p.scrollBy(max(p.rows-2, 1))
	case key.Matches(msg, p.keys.PageDown):
		p.scrollBy(-max(p.rows-2, 1))
	}
}

// scrollBy scrolls back n lines (forward when negative), within the output.
func (p *checksPane) scrollBy(n int) {
	lines := strings.Count(strings.TrimRight(string(p.output), "\n"), "\n") + 1
	p.scroll = min(max(p.scroll+n, 0), max(lines-1, 0))
}

func (p *checksPane) view(st Styles, w, h int, now time.Time) []string {
	var lines []string
	for _, f := range p.ignored {
		for _, l := range wrapText("⚠ "+termsafe.String(f)+" is not trusted: its checks are ignored (hooksup trust uses it)", w) {
			lines = append(lines, st.Warn.Render(l))
		}
	}
	if wt := p.waiting; wt != nil {
		text := fmt.Sprintf("%s %s (%s)", spinnerFrames[p.spinner%len(spinnerFrames)], present.WaitingFor(wt.Holder),
			now.Sub(wt.Since).Round(time.Second))
		for _, l := range wrapText(text, w) {
			lines = append(lines, st.Warn.Render(l))
		}
	}
	if p.name == "" {
		lines = append(lines, p.configuredLines(st, w)...)
		return lines[:min(len(lines), h)]
	}
	lines = append(lines, fit(p.head(st, now), w), fit(st.Muted.Render("$ "+termsafe.String(p.command)), w))
	out := strings.Split(strings.TrimRight(ansi.Strip(string(p.output)), "\n"), "\n")
	room := h - len(lines)
	if room <= 0 {
		return lines[:h]
	}
	end := max(0, len(out)-p.scroll)
	start := max(0, end-room)
	for _, l := range out[start:end] {
		lines = append(lines, fit(plainLine(l), w))
	}
	return lines
}

// configuredLines lists the configured checks, before any has run.
func (p *checksPane) configuredLines(st Styles, w int) []string {
	if len(p.configured) == 0 && len(p.subConfigured) == 0 {
		return []string{fit(st.Muted.Render("no checks: "+p.agent+" may stop whenever it is done"), w)}
	}
	var lines []string
	if len(p.from) > 0 {
		lines = append(lines, fit(st.Muted.Render("from "+termsafe.String(strings.Join(p.from, ", "))), w))
	}
	list := func(title string, checks []config.Check) {
		if len(checks) == 0 {
			return
		}
		lines = append(lines, fit(st.Muted.Render(title), w))
		for _, c := range checks {
			lines = append(lines, fit("○ "+st.Title.Render(termsafe.String(c.Name))+"  "+st.Muted.Render("$ "+termsafe.String(c.Command)), w))
		}
	}
	list("when "+p.agent+" stops:", p.configured)
	list("when a subagent stops:", p.subConfigured)
	return lines
}

// head is the pane's first line: the check running (a spinner and the time so far), or how
// its last run ended.
func (p *checksPane) head(st Styles, now time.Time) string {
	var head string
	name := termsafe.String(p.name)
	switch {
	case p.running:
		head = fmt.Sprintf("%s %s %s", st.CheckRunning.Render(spinnerFrames[p.spinner%len(spinnerFrames)]), st.Title.Render(name),
			st.Muted.Render(now.Sub(p.started).Round(100*time.Millisecond).String()))
	case p.result != nil && p.result.Passed():
		head = fmt.Sprintf("%s %s %s", st.CheckPass.Render("✓"), st.Title.Render(name),
			st.Muted.Render(p.result.Duration.Round(time.Millisecond).String()+present.CheckLeftRunning(p.result.LeftRunning)))
	case p.result != nil:
		head = fmt.Sprintf("%s %s %s %s", st.CheckFail.Render("✗"), st.Title.Render(name), st.CheckFail.Render(present.CheckFailure(*p.result)),
			st.Muted.Render(p.result.Duration.Round(time.Millisecond).String()))
	}
	return head
}
