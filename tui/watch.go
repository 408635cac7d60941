package tui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/hooksup/hooksup/session"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/themes"
	"github.com/hooksup/hooksup/verdictlog"
)

// WatchBy is where `hooksup watch` answers: its verdicts' source is "manual (hooksup watch)".
const WatchBy = "hooksup watch"

// Watch intervals: the list is read again this often (sessions come and go); while a question
// waits its countdown is redrawn every second. Nothing ticks faster.
const (
	watchRelist    = 2 * time.Second
	watchCountdown = time.Second
	watchVerdicts  = 3 // the latest verdicts shown per session
)

// watchSession is one session as the watch shows it.
type watchSession struct {
	live     hub.Live
	verdicts []verdictlog.Verdict // the latest, newest last, seen since the watch started
	stream   bool                 // its event stream is open
	asking   bool                 // a snapshot is asked for
	stale    bool                 // events came while it was: ask again when it comes
}

// watchModel is `hooksup watch`: every session of this user on the machine, their questions,
// the latest verdicts; the selected session's oldest question is answered with the session
// TUI's keys.
type watchModel struct {
	hub      hub.Sessions // every call made in a command, never in Update or View
	styles   Styles
	keys     keyMap
	escape   key.Binding // the session TUI's Escape: the selected session's turn may stop
	editor   reasonEditor
	sessions []*watchSession
	selected string // the selected session's key (watchKey)
	prefixed bool   // the prefix key was pressed: the next key is a command
	always   string // the permission the always key was pressed on once (alwaysKey): pressed again, it is answered
	status   string // what the last answer did, or its error
	failed   bool
	listErr  error
	seen     bool      // a list came
	start    string    // the command that starts a session, suggested when none runs
	listedAt time.Time // when it came
	now      time.Time
	w, h     int
	ticking  bool
}

// Messages of the watch.
type (
	watchListed struct {
		lives []hub.Live
		err   error
		at    time.Time
	}
	watchTick     time.Time
	watchSnapshot struct {
		id   string
		snap hub.Snapshot
		err  error
	}
	watchStream struct {
		id string
		ch <-chan hub.Event
	}
	watchEvent struct {
		id string
		ch <-chan hub.Event
		ev hub.Event
	}
	watchStreamEnded struct{ id string }
	watchAnswered    struct {
		text string
		err  error
	}
)

func newWatchModel(h hub.Sessions, st Styles, k keyMap) *watchModel {
	escape := key.NewBinding(key.WithKeys(keymap.Escape), key.WithHelp(keymap.Escape, "interrupt"))
	return &watchModel{hub: h, styles: st, keys: k, escape: escape, editor: newReasonEditor(k.Editor), w: 80, h: 24}
}

// RunWatch shows the watch until the person quits or ctx ends. Like Run, it handles no
// signals, and when the terminal goes away (its input ends or fails) it returns an error that
// wraps hangup.ErrHangup.
// start is the command the empty screen suggests to start a session ("hooksup claude").
func RunWatch(ctx context.Context, h hub.Sessions, theme themes.Theme, prefix string, bindings map[string]string, start string) error {
	km, err := keymap.Resolve(prefix, bindings)
	if err != nil {
		return fmt.Errorf("[keys] %w", err)
	}
	m := newWatchModel(h, NewStyles(theme), newKeyMap(km))
	m.start = start
	return runOnTerminal(ctx, m, nil)
}

func (m *watchModel) Init() tea.Cmd { return m.list() }

func (m *watchModel) list() tea.Cmd {
	h := m.hub
	return func() tea.Msg {
		lives, err := h.List()
		return watchListed{lives, err, time.Now()}
	}
}

// watchKey names a session in the watch: its hooksup id, and its host's name when it runs on
// another machine (two names of one machine list its sessions twice).
func watchKey(l hub.Live) string {
	if l.Host == "" {
		return l.Entry.ID
	}
	return l.Host + " " + l.Entry.ID
}

func (m *watchModel) find(id string) *watchSession {
	for _, s := range m.sessions {
		if watchKey(s.live) == id {
			return s
		}
	}
	return nil
}

func (m *watchModel) pending() bool {
	for _, s := range m.sessions {
		if len(s.live.Snapshot.Pending) > 0 {
			return true
		}
	}
	return false
}

// tick schedules the next redraw: every second while a question's countdown shows, else every
// watchRelist; the list is read again on the first tick watchRelist after the last.
func (m *watchModel) tick() tea.Cmd {
	if m.ticking {
		return nil
	}
	m.ticking = true
	return tea.Tick(m.interval(), func(t time.Time) tea.Msg { return watchTick(t) })
}

// interval is the time to the next tick.
func (m *watchModel) interval() time.Duration {
	if m.pending() {
		return watchCountdown
	}
	return watchRelist
}

func (m *watchModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.editor.setSize(m.w, m.h)
		return m, nil
	case watchListed:
		return m, m.listed(msg)
	case watchTick:
		m.ticking, m.now = false, time.Time(msg)
		if m.now.Sub(m.listedAt) < watchRelist {
			return m, m.tick() // the countdown's redraw
		}
		return m, m.list()
	case watchSnapshot:
		s := m.find(msg.id)
		if s == nil {
			return m, m.tick()
		}
		s.asking = false
		if msg.err == nil {
			s.live.Snapshot = msg.snap
		}
		m.keepAlways()
		m.keepEditor()
		if s.stale {
			s.stale = false
			return m, tea.Batch(m.refresh(msg.id), m.tick())
		}
		return m, m.tick()
	case watchStream:
		return m, waitWatchEvent(msg.id, msg.ch)
	case watchEvent:
		return m, tea.Batch(m.event(msg), waitWatchEvent(msg.id, msg.ch))
	case watchStreamEnded:
		// The session ended (or its stream failed): the next re-list drops it or opens the
		// stream again; never at once, so a failing stream cannot spin.
		if s := m.find(msg.id); s != nil {
			s.stream = false
		}
		return m, m.tick()
	case watchAnswered:
		m.status, m.failed = msg.text, msg.err != nil
		if msg.err != nil {
			m.status = msg.err.Error()
		}
		return m, m.refresh(m.selected)
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		if m.editor.open {
			_, cmd := m.editor.update(msg)
			return m, cmd
		}
	}
	if m.editor.open {
		_, cmd := m.editor.update(msg)
		return m, cmd
	}
	return m, nil
}

// listed takes a new list: sessions keep their verdicts, new ones get an event stream.
func (m *watchModel) listed(msg watchListed) tea.Cmd {
	m.seen, m.listErr = true, msg.err
	if !msg.at.IsZero() {
		m.now, m.listedAt = msg.at, msg.at
	}
	if msg.err != nil {
		return m.tick()
	}
	var cmds []tea.Cmd
	next := make([]*watchSession, 0, len(msg.lives))
	for _, l := range msg.lives {
		s := m.find(watchKey(l))
		if s == nil {
			s = &watchSession{}
		}
		s.live = l
		if !s.stream && l.Err == nil { // a session of another protocol has no stream to read
			s.stream = true
			cmds = append(cmds, m.stream(l))
		}
		next = append(next, s)
	}
	m.sessions = next
	if m.find(m.selected) == nil {
		m.selected = ""
		if len(m.sessions) > 0 {
			m.selected = watchKey(m.sessions[0].live)
		}
	}
	m.keepEditor()
	m.keepAlways()
	cmds = append(cmds, m.tick())
	return tea.Batch(cmds...)
}

// stream opens a session's event stream; its events come one message at a time.
func (m *watchModel) stream(l hub.Live) tea.Cmd {
	h := m.hub
	return func() tea.Msg {
		ch := make(chan hub.Event, 64)
		go func() {
			defer close(ch)
			_ = h.Events(l, func(ev hub.Event) bool { ch <- ev; return true })
		}()
		return watchStream{watchKey(l), ch}
	}
}

func waitWatchEvent(id string, ch <-chan hub.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return watchStreamEnded{id}
		}
		return watchEvent{id, ch, ev}
	}
}

// event keeps a verdict, and asks the session again when its questions, state or tokens moved.
func (m *watchModel) event(msg watchEvent) tea.Cmd {
	s := m.find(msg.id)
	if s == nil {
		return nil
	}
	switch msg.ev.Type {
	case hub.EventVerdictDecided:
		if v, err := hub.DecodeEvent(msg.ev); err == nil {
			v := v.(session.VerdictDecided)
			s.verdicts = append(s.verdicts, v.Verdict)
			if len(s.verdicts) > watchVerdicts {
				s.verdicts = s.verdicts[len(s.verdicts)-watchVerdicts:]
			}
		}
		return m.refresh(msg.id)
	case hub.EventQuestionAsked, hub.EventQuestionResolved, hub.EventStateChanged, hub.EventInterrupted, hub.EventTranscriptUpdated,
		hub.EventCheckWaiting, hub.EventCheckWaitEnded:
		return m.refresh(msg.id)
	}
	return nil
}

// refresh asks a session for a snapshot, one at a time: events that come meanwhile (a
// streaming reply's token counts) are taken together by the next one.
func (m *watchModel) refresh(id string) tea.Cmd {
	s := m.find(id)
	if s == nil {
		return nil
	}
	if s.asking {
		s.stale = true
		return nil
	}
	s.asking = true
	h, l := m.hub, s.live
	return func() tea.Msg {
		snap, err := h.Snapshot(l)
		return watchSnapshot{id, snap, err}
	}
}

func (m *watchModel) selectedSession() *watchSession { return m.find(m.selected) }

func (m *watchModel) selectedQuestion() *hub.Question {
	s := m.selectedSession()
	if s == nil || len(s.live.Snapshot.Pending) == 0 {
		return nil
	}
	return &s.live.Snapshot.Pending[0]
}

func (m *watchModel) key(k tea.KeyPressMsg) tea.Cmd {
	// Escape always wins, as in the session's TUI: over the editor and after the prefix.
	if isEscape(k) {
		m.editor.stop()
		m.prefixed, m.always = false, ""
		return m.interrupt()
	}
	if m.editor.open {
		switch res, cmd := m.editor.update(k); res {
		case editorSend:
			reason := m.editor.value()
			if m.refusing() {
				if reason == "" {
					m.status, m.failed = "type why it is refused first (deny refuses it without a reason)", true
					return nil
				}
				m.editor.stop()
				return m.answer(session.PermissionDeny, reason, "")
			}
			m.editor.stop()
			return m.answer(hooks.Block, reason, "with your reason, the agent continues after")
		case editorCancel:
			m.editor.stop()
			return nil
		default:
			return cmd
		}
	}
	c, p := m.keys.Command, m.keys.Pane
	if !m.prefixed && key.Matches(k, m.keys.Prefix) {
		m.prefixed = true
		return nil
	}
	m.prefixed = false
	if armed := m.always; armed != "" {
		// Always asks twice: the second press answers, any other key keeps the question.
		m.always = ""
		if key.Matches(k, c.Always) {
			return m.confirmAlways(armed)
		}
		m.status, m.failed = "always not sent: the permission still waits", false
		return nil
	}
	switch {
	case key.Matches(k, c.Quit), k.String() == "ctrl+c":
		return tea.Quit
	case key.Matches(k, p.Up):
		m.move(-1)
	case key.Matches(k, p.Down):
		m.move(1)
	case key.Matches(k, c.Approve):
		return m.answer(hooks.Block, "", "the agent continues after")
	case key.Matches(k, c.Deny):
		return m.answer(hooks.Allow, "", "the agent may stop at")
	case key.Matches(k, c.Always):
		m.askAlways()
	case key.Matches(k, c.Halt):
		return m.answer(hooks.Halt, "", "the turn ends at")
	case key.Matches(k, c.Edit):
		return m.edit()
	}
	return nil
}

func (m *watchModel) move(d int) {
	for i, s := range m.sessions {
		if watchKey(s.live) == m.selected {
			j := min(max(i+d, 0), len(m.sessions)-1)
			m.selected = watchKey(m.sessions[j].live)
			return
		}
	}
}

// edit opens the editor on the selected session's oldest question: a stop's continuation to
// send, or a permission's refusal to tell the agent, where a deny's reason reaches it.
func (m *watchModel) edit() tea.Cmd {
	s := m.selectedSession()
	if m.unreachable(s) {
		return nil
	}
	q := m.selectedQuestion()
	switch {
	case q == nil:
		m.status, m.failed = "nothing to edit: the selected session has no pending question", true
		return nil
	case q.Permission != nil && !q.Permission.DenyReason:
		m.status, m.failed = fmt.Sprintf("%s's dialog takes no reason: %s denies %s without one",
			present.AgentName(s.live.Snapshot.Agent), m.keys.Command.Deny.Help().Key, q.Permission.Tool), true
		return nil
	case q.Permission != nil:
		m.status, m.failed = "", false
		return m.editor.start(q.ID, "", m.w, m.h)
	}
	return m.editor.start(q.ID, q.Reason, m.w, m.h)
}

// refusing reports whether the editor holds a permission's refusal (the question it was opened
// on, which keepEditor keeps first, is a permission): sent, it denies the call with its text.
func (m *watchModel) refusing() bool {
	q := m.selectedQuestion()
	return m.editor.open && q != nil && q.ID == m.editor.id && q.Permission != nil
}

// keepEditor closes the editor when the question it was opened on no longer waits first in the
// selected session (answered elsewhere, or another asked before it): what it holds is never
// sent to another question.
func (m *watchModel) keepEditor() {
	if !m.editor.open {
		return
	}
	if q := m.selectedQuestion(); q == nil || q.ID != m.editor.id {
		m.editor.stop()
		m.status, m.failed = "the question was answered elsewhere: your reason was not sent", true
	}
}

// permissionPending reports a permission question among qs: its line tells what the agent asks.
func permissionPending(qs []hub.Question) bool {
	for _, q := range qs {
		if q.Permission != nil {
			return true
		}
	}
	return false
}

// alwaysKey names a permission question of a session, for the always key's confirmation.
func alwaysKey(session string, id int) string { return fmt.Sprintf("%s#%d", session, id) }

// alwaysOffer is the selected session's oldest question when it is a permission whose agent
// offers to allow it from now on.
func (m *watchModel) alwaysOffer() *hub.Question {
	if q := m.selectedQuestion(); q != nil && q.Permission != nil && q.Permission.Always != "" {
		return q
	}
	return nil
}

// askAlways is the always key's first press: the status shows what the agent would allow from
// now on, and the key pressed again answers.
func (m *watchModel) askAlways() {
	s := m.selectedSession()
	if m.unreachable(s) {
		return
	}
	q := m.selectedQuestion()
	switch {
	case q == nil:
		m.status, m.failed = "the selected session has no pending question", true
		return
	case q.Permission == nil:
		m.status, m.failed = "always answers a permission; this question is a stop: approve or deny it", true
		return
	case q.Permission.Always == "":
		m.status, m.failed = fmt.Sprintf("%s offers no always here: approve allows %s once",
			present.AgentName(s.live.Snapshot.Agent), q.Permission.Tool), true
		return
	}
	// The footer shows the status visibly (termsafe): the agent's words quote the command.
	m.always = alwaysKey(m.selected, q.ID)
	m.status, m.failed = fmt.Sprintf("%s again allows %s from now on, any other key cancels: %s",
		m.keys.Command.Always.Help().Key, q.Permission.Tool, q.Permission.Always), false
}

// confirmAlways is the always key's second press: the permission it was first pressed on is
// answered always, if it still waits first in the selected session.
func (m *watchModel) confirmAlways(armed string) tea.Cmd {
	if q := m.alwaysOffer(); q == nil || alwaysKey(m.selected, q.ID) != armed {
		m.status, m.failed = "always not sent: that permission no longer waits here", true
		return nil
	}
	return m.answer(session.PermissionAlways, "", "")
}

// keepAlways forgets the always key's first press when its permission no longer waits first in
// the selected session (answered elsewhere, or another session selected).
func (m *watchModel) keepAlways() {
	if m.always == "" {
		return
	}
	if q := m.alwaysOffer(); q == nil || alwaysKey(m.selected, q.ID) != m.always {
		m.always, m.status, m.failed = "", "", false
	}
}

// answer resolves the selected session's oldest question.
func (m *watchModel) answer(d hooks.Decision, reason, did string) tea.Cmd {
	s := m.selectedSession()
	if m.unreachable(s) {
		return nil
	}
	if s == nil || len(s.live.Snapshot.Pending) == 0 {
		m.status, m.failed = "the selected session has no pending question", true
		return nil
	}
	q, l, h := s.live.Snapshot.Pending[0], s.live, m.hub
	name := watchName(l.Snapshot)
	if p := q.Permission; p != nil {
		// The agent's permission dialog: approve allows it, deny refuses it, always (asked
		// twice, confirmAlways) allows it from now on.
		switch d {
		case session.PermissionAlways:
			did = "always allowed " + termsafe.String(p.Tool)
		case session.PermissionDeny:
			did = "denied " + termsafe.String(p.Tool) + " with your reason"
		case hooks.Block:
			d, did = session.PermissionAllow, "allowed "+termsafe.String(p.Tool)
		case hooks.Allow:
			d, did = session.PermissionDeny, "denied "+termsafe.String(p.Tool)
		default:
			m.status, m.failed = "a permission is allowed (approve) or denied (deny)", true
			return nil
		}
	}
	return func() tea.Msg {
		err := h.Resolve(l, q.ID, d, reason)
		if errors.Is(err, hub.ErrAnswered) {
			return watchAnswered{err: fmt.Errorf("the question in %s was already answered", name)}
		}
		if err != nil {
			return watchAnswered{err: fmt.Errorf("%s: %w", name, err)}
		}
		if q.Permission != nil {
			return watchAnswered{text: fmt.Sprintf("%s in %s", did, name)}
		}
		return watchAnswered{text: fmt.Sprintf("%s %s in %s", did, q.Event, name)}
	}
}

// interrupt is Escape for the selected session, as if pressed there: its pending questions are
// let stop (source escape), its running checks are killed, the rest of its turn stops unasked,
// and its agent at work is sent the key. A session at rest has nothing to interrupt: it is not
// asked.
func (m *watchModel) interrupt() tea.Cmd {
	s := m.selectedSession()
	if s == nil {
		m.status, m.failed = "no session to interrupt", true
		return nil
	}
	if m.unreachable(s) {
		return nil
	}
	l, h := s.live, m.hub
	name := watchName(l.Snapshot)
	if !atWork(session.AgentState(l.Snapshot.State), len(l.Snapshot.Pending)) {
		m.status, m.failed = fmt.Sprintf("nothing to interrupt: %s is %s", name, l.Snapshot.State), true
		return nil
	}
	return func() tea.Msg {
		if err := h.Interrupt(l); err != nil {
			return watchAnswered{err: fmt.Errorf("%s: %w", name, err)}
		}
		return watchAnswered{text: "interrupted the turn in " + name + ": it may stop"}
	}
}

// unreachable says, in the status line, why a session of another protocol is not asked.
func (m *watchModel) unreachable(s *watchSession) bool {
	if s == nil || s.live.Err == nil {
		return false
	}
	m.status, m.failed = watchName(s.live.Snapshot)+": "+termsafe.String(s.live.Err.Error()), true
	return true
}

// watchName names a session: its project and short id, shown visibly.
func watchName(s hub.Snapshot) string {
	return termsafe.String(filepath.Base(s.Cwd)) + " " + termsafe.String(s.ShortID())
}

// watchSince words how long ago t was (present.Age); 0s when unknown.
func watchSince(now, t time.Time) string {
	if t.IsZero() {
		return "0s"
	}
	return present.Age(now.Sub(t))
}

func (m *watchModel) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	if m.editor.open {
		if c := m.editor.cursor(); c != nil {
			c.Position.Y += m.editorRow()
			v.Cursor = c
		}
	}
	return v
}

// footer is the hints, the status and, while the reason is edited, the editor.
func (m *watchModel) footer() []string {
	var out []string
	if m.status != "" {
		st := m.styles.Muted
		if m.failed {
			st = m.styles.Error
		}
		// The status quotes sessions and what they or their host answered: shown visibly, on as
		// many rows as the width needs (always's rule is read before it is confirmed).
		for _, l := range m.statusRows() {
			out = append(out, fit(" "+st.Render(l), m.w))
		}
	}
	if m.editor.open {
		title := "the reason the agent will read:"
		if m.refusing() {
			title = "why it is refused, as the agent will read it:"
		}
		out = append(out, fit(" "+m.styles.Title.Render(title), m.w))
		out = append(out, m.editor.rows()...)
		if n := m.editor.notice(); n != "" {
			out = append(out, fit(" "+m.styles.Warn.Render("⚠ "+n), m.w))
		}
		e := m.keys.Editor
		return append(out, m.hints(hintText(e.Send), hintText(e.Newline), hintText(e.Clear), hintText(e.Cancel), hintText(m.escape))...)
	}
	c, p := m.keys.Command, m.keys.Pane
	hints := []string{hintText(c.Approve), hintText(c.Deny)}
	if m.alwaysOffer() != nil { // only where the agent offers it
		hints = append(hints, hintText(c.Always))
	}
	hints = append(hints, hintText(c.Edit), hintText(c.Halt), hintText(m.escape), p.Up.Help().Key+"/"+p.Down.Help().Key+" select", hintText(c.Quit))
	return append(out, m.hints(hints...)...)
}

// statusRows is the status, wrapped to the width; none when there is none.
func (m *watchModel) statusRows() []string {
	if m.status == "" {
		return nil
	}
	return wrapText(termsafe.String(m.status), max(m.w-2, 10))
}

// hints are the keys' hints, on as many rows as the width needs.
func (m *watchModel) hints(items ...string) []string {
	rows := wrapItems(items, " · ", m.w)
	for i, r := range rows {
		rows[i] = fit(m.styles.Muted.Render(r), m.w)
	}
	return rows
}

// editorRow is the screen row of the editor's first row: below the body, the status and the
// editor's title.
func (m *watchModel) editorRow() int {
	row := max(m.h-len(m.footer()), 1) + len(m.statusRows())
	return row + 1
}

// body is the title line and one box per session, in room rows: when they do not fit, the
// boxes before the selected one are left out until it does. The rows they leave show the end of
// each question's failed check (outputRows).
func (m *watchModel) body(room int) []string {
	st := m.styles
	waiting := 0
	for _, s := range m.sessions {
		waiting += len(s.live.Snapshot.Pending)
	}
	head := st.Title.Render("hooksup watch") + st.Muted.Render(" · ")
	switch n := len(m.sessions); n {
	case 1:
		head += "1 session"
	default:
		head += fmt.Sprintf("%d sessions", n)
	}
	if waiting > 0 {
		head += st.Muted.Render(" · ") + st.Pending.Render(fmt.Sprintf("%d waiting on you", waiting))
	}
	lines := []string{fit(" "+head, m.w)}
	switch {
	case m.listErr != nil:
		lines = append(lines, fit(" "+st.Error.Render(termsafe.String(m.listErr.Error())), m.w))
	case !m.seen:
		lines = append(lines, fit(" "+st.Muted.Render("looking for sessions…"), m.w))
	case len(m.sessions) == 0:
		none := "no hooksup sessions running"
		if m.start != "" {
			none += " (" + m.start + " starts one)"
		}
		lines = append(lines, fit(" "+st.Muted.Render(none), m.w))
	}
	var boxes [][]string
	sel, total := 0, len(lines)
	for i, s := range m.sessions {
		b := m.sessionBox(s, nil, false)
		boxes = append(boxes, b)
		total += len(b)
		if watchKey(s.live) == m.selected {
			sel = i
		}
	}
	// Rows to spare go to what the agents last said, a row each, then to the checks' output:
	// the questions and their keys never give way to either.
	if spare := room - total; spare > 0 {
		said := make([]bool, len(m.sessions))
		for i, s := range m.sessions {
			if spare > 0 && s.live.Err == nil && present.FirstLine(s.live.Snapshot.LastMessage) != "" {
				said[i] = true
				spare--
			}
		}
		out := m.outputRows(spare)
		for i := range m.sessions {
			boxes[i] = m.sessionBox(m.sessions[i], out[i], said[i])
		}
	}
	first, end := 0, len(lines)
	for _, b := range boxes[:min(sel+1, len(boxes))] {
		end += len(b)
	}
	for end > room && first < sel {
		end -= len(boxes[first])
		first++
	}
	if first > 0 {
		lines[0] = fit(" "+head+st.Muted.Render(fmt.Sprintf(" · %d above", first)), m.w)
	}
	for _, b := range boxes[first:] {
		lines = append(lines, b...)
	}
	return lines
}

// outputRows shares spare rows between the sessions' questions a check proposes to block, a row
// at a time each in turn: the end of each one's output (failureLines), per session and question.
func (m *watchModel) outputRows(spare int) [][][]string {
	all := make([][][]string, len(m.sessions))
	for i, s := range m.sessions {
		for _, q := range s.live.Snapshot.Pending {
			var lines []string
			if hooks.Decision(q.Proposal) == hooks.Block {
				lines = failureLines(q.Reason, spare) // never more than fit
			}
			all[i] = append(all[i], lines)
		}
	}
	shown := make([][]int, len(all))
	for i := range all {
		shown[i] = make([]int, len(all[i]))
	}
	for more := true; more && spare > 0; {
		more = false
		for i := range all {
			for j := range all[i] {
				if spare > 0 && shown[i][j] < len(all[i][j]) {
					shown[i][j]++
					spare--
					more = true
				}
			}
		}
	}
	for i := range all {
		for j, lines := range all[i] {
			if quotesFailures(m.sessions[i].live.Snapshot.Pending[j].Reason) {
				all[i][j] = lines[:shown[i][j]] // the first failure first
				continue
			}
			all[i][j] = lines[len(lines)-shown[i][j]:]
		}
	}
	return all
}

// sessionBox is a session's box; output holds, per pending question, the lines of its check's
// output to show under its reason (none when nil), and said shows what the agent last said. What the session, maybe another machine's,
// says of itself is shown visibly: its box keeps its rows and its edges.
func (m *watchModel) sessionBox(s *watchSession, output [][]string, said bool) []string {
	st, snap, inner := m.styles, s.live.Snapshot, max(m.w-2, 10)
	safe := termsafe.String
	state := session.AgentState(snap.State)
	row := st.stateStyle(state).Render(safe(snap.State)+" "+watchSince(m.now, snap.StateSince)) +
		st.Muted.Render(fmt.Sprintf(" · continued %d · %s tokens · %s mode", snap.Continuations, present.Count(snap.Tokens), safe(snap.Mode)))
	body := []string{fit(" "+row, inner)}
	if w := snap.Waiting; w != nil {
		text := "⧗ " + present.WaitingFor(w.Holder()) + " (" + watchSince(m.now, w.Since) + ")"
		for _, l := range wrapText(text, inner-2) {
			body = append(body, fit(" "+st.Warn.Render(l), inner))
		}
	}
	if g := snap.Goal; g != nil {
		body = append(body, fit(" "+goalLine(st, g, goalRecordFailure(g)), inner))
	}
	if p := snap.Permission; p != nil && state == session.StatePermission && !permissionPending(snap.Pending) {
		text := "⚠ asks to run " + safe(p.Tool)
		if p.Command != "" {
			text += ": " + present.FirstLine(p.Command)
		}
		body = append(body, fit(" "+st.Warn.Render(text), inner))
	}
	if msg := present.FirstLine(snap.LastMessage); said && msg != "" {
		body = append(body, fit(" "+st.Muted.Render("said: ")+msg, inner))
	}
	if s.live.Err != nil { // another protocol, or a host that dropped: nothing else is known
		body = nil
		for _, l := range wrapText("⚠ "+safe(s.live.Err.Error()), inner-2) {
			body = append(body, fit(" "+st.Error.Render(l), inner))
		}
	}
	for j, q := range snap.Pending {
		if p := q.Permission; p != nil {
			text := "⚑ permission: " + safe(p.Tool)
			if p.Command != "" {
				text += ": " + present.FirstLine(p.Command)
			}
			keys := " · approve allows it"
			if p.Always != "" {
				keys += ", always allows it from now on"
			}
			keys += ", deny refuses it"
			if p.DenyReason {
				keys += ", edit says why"
			}
			body = append(body, fit(" "+st.Pending.Render(text)+st.Muted.Render(keys), inner))
			continue
		}
		what := "⚑ " + safe(q.Event)
		if q.AgentID != "" {
			what += " of " + safe(shortID(q.AgentID))
		}
		left := timeLeft(session.Question{Asked: q.Asked, Deadline: q.Deadline}, m.now)
		proposal := hooks.Decision(q.Proposal)
		line := st.Pending.Render(what) + st.Muted.Render(" · ") + st.decisionStyle(proposal).Render(present.Says(proposal, verdictlog.Source(q.Source))) +
			st.Muted.Render(" · "+left+" left")
		body = append(body, fit(" "+line, inner))
		// The reason's first line is its heading, which quotes the check's command as it is:
		// shown visibly, as the banner shows it (a carriage return in it hides nothing).
		if r := present.FirstLine(q.Reason); r != "" {
			body = append(body, fit("   "+r, inner))
		}
		if j < len(output) {
			for _, l := range output[j] {
				body = append(body, fit("     "+l, inner))
			}
		}
	}
	for _, v := range s.verdicts {
		did, why := present.OutcomeParts(v)
		line := st.Muted.Render(v.Time.Local().Format("15:04:05")+" ") + st.decisionStyle(v.Decision).Render(did) + st.Accent.Render(why)
		if r := present.FirstLine(v.Reason); r != "" {
			line += st.Muted.Render(" · ") + r
		}
		body = append(body, fit(" "+line, inner))
	}
	border, mark := st.Border, "  "
	if watchKey(s.live) == m.selected {
		border, mark = st.BorderFocus, "▸ "
	}
	if len(snap.Pending) > 0 {
		border = st.BorderAlert
	}
	title := mark + safe(filepath.Base(snap.Cwd)) + " · " + safe(snap.Agent) + " · " + safe(snap.ShortID())
	switch {
	case s.live.Host != "" && snap.Cwd == "": // a host with no session known: its connection's card
		title = mark + safe(s.live.Host)
	case s.live.Host != "":
		title = mark + safe(s.live.Host) + " · " + strings.TrimPrefix(title, mark)
	}
	out := box(title, body, m.w, len(body)+2, border, st.Title)
	return strings.Split(out, "\n")
}

func (m *watchModel) render() string {
	foot := m.footer()
	room := max(m.h-len(foot), 1)
	body := m.body(room)
	if len(body) > room {
		body = body[:room]
	}
	for len(body) < room {
		body = append(body, "")
	}
	out := append(body, foot...)
	for i, l := range out {
		out[i] = ansi.Truncate(l, m.w, "")
	}
	return strings.Join(out, "\n")
}
