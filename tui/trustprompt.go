package tui

import (
	"strings"
	"time"

	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/session"
)

// The trust prompt asks the person whether to trust a project's configuration file that changed
// during the session to content not trusted (session.ConfigTrustAsked). It takes the banner's
// rows while no stop's question does, so the agent's pane shrinks but keeps its keys: the
// prompt is answered after the prefix, y trusting exactly the content shown and n keeping the
// checks the session runs; Escape dismisses it as it closes the help, keeping them too.

// configTruster is a session that can trust the content it asked about (the supervisor's).
type configTruster interface {
	TrustConfig(path, digest string) error
}

// trustDoneMsg is the end of a trust the person asked for; err when it failed.
type trustDoneMsg struct {
	name string
	err  error
}

// Keys of the trust prompt, after the prefix. Fixed: any key bound to an action comes first.
const (
	trustYes = "y"
	trustNo  = "n"
)

// trustEvent takes the events of the trust prompt.
func (m *model) trustEvent(ev session.Event) tea.Cmd {
	switch e := ev.(type) {
	case session.ConfigTrustAsked:
		m.trust = &e
	case session.ConfigTrustSettled:
		if m.trust == nil || m.trust.Path != e.Path {
			return nil
		}
		m.trust = nil
	default:
		return nil
	}
	return m.relayout()
}

// trustKey answers the prompt with the key after the prefix; ok is false when the key is not
// the prompt's.
func (m *model) trustKey(k string) (tea.Cmd, bool) {
	if m.trust == nil || len(m.questions) > 0 {
		return nil, false
	}
	t := *m.trust
	switch k {
	case trustYes:
		m.trust = nil
		cmds := []tea.Cmd{m.relayout()}
		if tr, ok := m.sess.(configTruster); ok {
			cmds = append(cmds, func() tea.Msg { return trustDoneMsg{name: t.Name, err: tr.TrustConfig(t.Path, t.Digest)} })
		}
		return tea.Batch(cmds...), true
	case trustNo:
		m.dismissTrust()
		return m.relayout(), true
	}
	return nil, false
}

// dismissTrust closes the prompt: the session runs the checks it ran.
func (m *model) dismissTrust() {
	t := m.trust
	m.trust = nil
	m.notice(session.NoticeWarn, t.Name+" is not trusted: the session still runs the checks it ran (hooksup trust trusts it later)")
}

// notice shows a notice of the TUI's own as the session's are.
func (m *model) notice(level session.NoticeLevel, text string) {
	m.notices = append(m.notices, session.Notice{At: session.At{Time: time.Now()}, Level: level, Text: text})
	if len(m.notices) > 3 {
		m.notices = m.notices[1:]
	}
}

// trustDone tells of a trust that failed (a success is told by the session, as it switches).
func (m *model) trustDone(msg trustDoneMsg) {
	if msg.err != nil {
		m.notice(session.NoticeError, "could not trust "+msg.name+": "+msg.err.Error())
	}
}

// trustLines is the prompt in at most limit lines of w cells: what changed, what the content
// would run (every control character shown visibly), and the keys.
func (m model) trustLines(w, limit int) []string {
	if m.trust == nil || w <= 0 || limit <= 0 {
		return nil
	}
	prefix := m.keys.Prefix.Help().Key
	head := wrapText("⚑ "+termsafe.String(m.trust.Name)+" changed: its new content is not trusted, so the session still runs the checks it ran. Trust this exact content?", w)
	keys := wrapText(prefix+" "+trustYes+" trust it · "+prefix+" "+trustNo+" keep the checks · Esc dismiss", w)
	var body []string
	for _, l := range strings.Split(strings.TrimRight(m.trust.Description, "\n"), "\n") {
		body = append(body, wrapText(termsafe.String(l), w)...)
	}
	room := limit - len(head) - len(keys)
	if room < len(body) {
		if room <= 0 {
			body = nil
		} else {
			body = append(body[:room-1], "  … (hooksup trust --show shows it all)")
		}
	}
	lines := append(append(head, body...), keys...)
	if len(lines) > limit {
		lines = lines[:limit]
	}
	return lines
}

// trustRows is how many rows the prompt takes.
func (m model) trustRows() int { return len(m.trustLines(m.w, max(m.h/3, 3))) }

// trustBanner draws the prompt in the banner's rows.
func (m model) trustBanner() string {
	r := m.lay.banner
	lines := m.trustLines(r.w, r.h)
	out := make([]string, r.h)
	for i := range out {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		out[i] = m.st.Banner.Render(fit(l, r.w))
	}
	return strings.Join(out, "\n")
}
