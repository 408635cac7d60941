package tui

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/notify"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/tui/vterm"
)

// Session is what the TUI needs of a supervised session.
type Session interface {
	Events() <-chan session.Event
	Resolve(id int, d hooks.Decision, reason string) error
	Interrupt()
	Counts() session.Counts
	// TerminalStatus takes what the agent told its terminal (the pane) about itself.
	TerminalStatus(session.TerminalStatus)
	// Typed says the person pressed a key (or pasted) at the terminal at that time.
	Typed(at time.Time)
}

// pane identifies a focusable pane.
type pane int

const (
	paneAgent pane = iota
	paneVerdicts
	paneChecks
	paneSubagents
	paneCount
)

func (p pane) String() string {
	return [...]string{"agent", "verdicts", "checks", "subagents"}[p]
}

// setAgent names the agent everywhere the TUI speaks of it.
func (m *model) setAgent(name string) {
	m.name = present.AgentName(name)
	m.header.agent, m.verdicts.agent, m.checks.agent = m.name, m.name, m.name
}

// Messages.
type (
	eventMsg struct {
		ev     session.Event
		counts session.Counts
	}
	eventsClosedMsg struct{}
	screenMsg       struct{}
	tickMsg         time.Time
	// escapeMsg is Escape pressed for this session in another terminal (hooksup watch).
	escapeMsg struct{}
)

// model is the root: layout and routing; each pane draws itself.
type model struct {
	name       string // the agent's name ("claude", "codex")
	sess       Session
	io         *agentIO
	st         Styles
	keys       keyMap
	holdOnExit bool
	notifier   notify.Notifier // carries notify alerts

	w, h     int
	lay      layout
	focus    pane
	zoom     bool
	help     bool
	prefixed bool
	// confirmQuit: the quit key was pressed while claude works; the quit key again ends it.
	confirmQuit bool

	header    header
	verdicts  verdictsPane
	checks    checksPane
	subs      subagentsPane
	questions []session.Question
	// goalTurn is the goal's next turn that hooksup is to type into the agent's prompt once it
	// waits with the box empty ("": none; goal.go).
	goalTurn string
	// promptEmpty reports whether the agent's screen shows its prompt box empty.
	promptEmpty func(screen []string) bool
	// goalEnter is when to press Enter for the goal's turn typed (zero: none is due), goalEnters
	// how often it was pressed; goalPasted: the turn is in the prompt as typed, no state change
	// nor key of the person's since.
	goalEnter  time.Time
	goalEnters int
	goalPasted bool
	failed     map[int]whatFailed // what the banner quotes of each pending question's reason
	editor     reasonEditor
	notices    []session.Notice          // the last warnings and errors, newest last
	trust      *session.ConfigTrustAsked // the trust prompt shown (trustprompt.go); nil: none
	tally      tally                     // for the summary at claude's exit
	resume     string                    // the command that resumes a session, before its id

	// typedInWait: the person pressed a key or pasted since claude's state last changed; an
	// idle alert then tells them nothing they do not know (and a nudge would type into their
	// draft).
	typedInWait bool

	agent     agentPane
	lastFrame time.Time
	ticking   bool
	now       time.Time

	exited   bool
	exitCode int
	exitErr  error
	quitting bool
}

func newModel(sess Session, io *agentIO, st Styles, keys keyMap, mode config.Mode, holdOnExit bool, blockCap int) model {
	return model{sess: sess, io: io, st: st, keys: keys, holdOnExit: holdOnExit, name: present.AgentName(""),
		header: header{mode: mode, blockCap: blockCap, agent: present.AgentName("")}, agent: agentPane{keys: keys.Pane}, verdicts: newVerdictsPane(keys.Pane),
		checks: checksPane{keys: keys.Pane, agent: present.AgentName("")}, editor: newReasonEditor(keys.Editor), now: time.Now(),
		failed: map[int]whatFailed{}}
}

func waitEvent(s Session) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-s.Events()
		if !ok {
			return eventsClosedMsg{}
		}
		return eventMsg{ev: ev, counts: s.Counts()}
	}
}

// waitScreen reports the next change of claude's screen, at most once per frame.
func waitScreen(a *agentIO, last time.Time) tea.Cmd {
	return func() tea.Msg {
		if d := frameInterval - time.Since(last); d > 0 {
			time.Sleep(d)
		}
		<-a.dirty
		return screenMsg{}
	}
}

func tick() tea.Cmd {
	return tea.Tick(100*time.Millisecond, func(t time.Time) tea.Msg { return tickMsg(t) })
}

func (m model) Init() tea.Cmd {
	return tea.Batch(waitEvent(m.sess), waitScreen(m.io, time.Time{}))
}

// write sends bytes to claude through the write queue (never blocks).
func (m *model) write(b []byte) {
	if len(b) > 0 {
		m.io.Write(b)
	}
}

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		return m, m.relayout()
	case eventMsg:
		cmd := m.event(msg)
		return m, tea.Batch(cmd, waitEvent(m.sess))
	case eventsClosedMsg:
		return m, nil
	case trustDoneMsg:
		m.trustDone(msg)
		return m, nil
	case screenMsg:
		m.lastFrame = time.Now()
		m.header.title = m.io.term.Title()
		m.typeGoalTurn()
		return m, waitScreen(m.io, m.lastFrame)
	case tickMsg:
		m.now = time.Time(msg)
		m.checks.spinner++
		m.typeGoalTurn()
		if m.checks.running || m.checks.waiting != nil || len(m.questions) > 0 || (m.goalTurn != "" || !m.goalEnter.IsZero()) {
			return m, tick()
		}
		m.ticking = false
		return m, nil
	case tea.PasteMsg:
		m.typedInWait, m.goalPasted = true, false
		m.sess.Typed(time.Now())
		if m.editor.open {
			_, cmd := m.editorUpdate(msg)
			return m, cmd
		}
		if m.focus == paneAgent && !m.exited {
			m.agent.follow()
			m.write(vterm.EncodePaste(msg.Content, m.io.term.Modes()))
		}
		return m, nil
	case tea.FocusMsg:
		if m.focus == paneAgent {
			m.write(vterm.EncodeFocus(true, m.io.term.Modes()))
		}
		return m, nil
	case tea.BlurMsg:
		if m.focus == paneAgent {
			m.write(vterm.EncodeFocus(false, m.io.term.Modes()))
		}
		return m, nil
	case tea.MouseMsg:
		return m, m.mouse(msg)
	case tea.KeyPressMsg:
		m.typedInWait, m.goalPasted = true, false
		m.sess.Typed(time.Now())
		return m.key(msg)
	case escapeMsg:
		return m, m.remoteEscape()
	}
	if m.editor.open {
		_, cmd := m.editorUpdate(msg)
		return m, cmd
	}
	return m, nil
}

// editorUpdate hands msg to the open reason editor, and lays the screen out again when the
// editor's notice comes or goes (the banner's rows change).
func (m *model) editorUpdate(msg tea.Msg) (editorResult, tea.Cmd) {
	said := m.editor.notice()
	res, cmd := m.editor.update(msg)
	if m.editor.notice() != said {
		m.relayout()
	}
	return res, cmd
}

// relayout recomputes the layout and resizes claude's terminal to its pane, unless the pane
// is too small to draw.
func (m *model) relayout() tea.Cmd {
	if m.editor.open {
		m.editor.setSize(m.w, m.h)
	}
	m.lay = computeLayout(m.w, m.h, m.zoom, 0)
	if len(m.questions) > 0 {
		m.lay = computeLayout(m.w, m.h, m.zoom, m.bannerRowsFor(m.lay.kind))
	} else if m.trust != nil {
		m.lay = computeLayout(m.w, m.h, m.zoom, m.trustRows())
	}
	_, m.agent.rows = m.lay.agentInner()
	m.verdicts.rows = max(m.lay.verdicts.h-2, 0)
	m.checks.rows = max(m.lay.checks.h-2, 0)
	if m.lay.kind == layoutSolo && m.focus != paneAgent {
		m.focus = paneAgent // the focused pane is hidden: keys go to claude again
	}
	if !m.isTooSmall() {
		// Below the smallest pane the agent keeps its size: its pane is not drawn, and resized
		// to a few cells it would lose what it drew (each line is cut to the width).
		m.io.resize(m.lay.agentInner()) // hands the size to the resizer goroutine; never waits
	}
	return nil
}

func (m *model) event(msg eventMsg) tea.Cmd {
	m.header.counts = msg.counts
	ev := msg.ev
	if c, ok := ev.(session.StateChanged); ok && c.State != m.header.state {
		m.typedInWait = false // a new wait (or none) begins
		m.goalPasted = m.goalPasted && m.goalEnters == 0
	}
	m.header.event(ev)
	m.verdicts.event(ev)
	m.checks.event(ev)
	m.subs.event(ev)
	m.tally.event(ev)
	var cmds []tea.Cmd
	switch e := ev.(type) {
	case session.QuestionAsked:
		if e.Question.Permission != nil {
			break // the agent's own dialog asks, in its pane; the header says it is a question
		}
		if e.Time.After(m.now) {
			m.now = e.Time // the banner's first frame counts from here, not from the last tick
		}
		m.questions = append(m.questions, e.Question)
		if e.Question.Proposal == hooks.Block {
			m.failed[e.Question.ID] = readWhatFailed(e.Question.Reason)
		}
		cmds = append(cmds, m.relayout(), tea.Raw("\a")) // ring once per question
	case session.QuestionResolved:
		for i, q := range m.questions {
			if q.ID == e.ID {
				m.questions = append(m.questions[:i], m.questions[i+1:]...)
				break
			}
		}
		delete(m.failed, e.ID)
		if m.editor.open && m.editor.id == e.ID {
			m.stopEditing() // answered elsewhere (timeout, Escape): the edit is moot
		}
		cmds = append(cmds, m.relayout())
	case session.Alert:
		cmds = append(cmds, m.alert(e))
	case session.GoalTurnTyped:
		m.goalTurn = e.Text
		m.typeGoalTurn()
	case session.AgentExited:
		m.exited, m.exitCode, m.exitErr = true, e.Code, e.Err
		if !m.holdOnExit {
			m.quitting = true
			return tea.Quit
		}
	case session.ConfigTrustAsked, session.ConfigTrustSettled:
		cmds = append(cmds, m.trustEvent(e))
	case session.ConfigApplied:
		// The notices said what would change at the next stop; it has: the header, which shows
		// the new mode, takes the status line again.
		m.notices = nil
		m.header.ignored = len(m.checks.ignored) > 0
	case session.Notice:
		if e.Level != session.NoticeInfo {
			m.notices = append(m.notices, e)
			if len(m.notices) > 3 {
				m.notices = m.notices[1:]
			}
		}
	}
	m.typeGoalTurn() // the agent's state may have changed
	if (m.checks.running || m.checks.waiting != nil || len(m.questions) > 0 || (m.goalTurn != "" || !m.goalEnter.IsZero())) && !m.ticking {
		m.ticking = true
		cmds = append(cmds, tick())
	}
	return tea.Batch(cmds...)
}

// alert carries out a [notifications] action: the bell, a desktop notification (through the
// outer terminal where it shows them, else the system's notifier, run off the UI's thread; the
// bell if that fails), or a nudge typed into claude while it is still idle. Claude idle is not
// told to a person who has been typing since it began to wait: claude does not see the keys
// hooksup keeps.
func (m *model) alert(a session.Alert) tea.Cmd {
	if a.Cause == session.CauseIdle && m.typedInWait {
		return nil
	}
	switch a.Action {
	case session.ActionBell, session.ActionNotify:
		seq, send := present.Alert(a, m.notifier)
		if send == nil {
			return tea.Raw(seq)
		}
		return func() tea.Msg {
			if send() != nil {
				return tea.RawMsg{Msg: "\a"}
			}
			return nil
		}
	case session.ActionNudge:
		if m.header.state == a.State && m.header.state == session.StateWaiting && !m.exited {
			m.write([]byte(a.Text))
			m.write([]byte("\r"))
		}
	}
	return nil
}

// escape is Escape, wherever it was pressed: the supervisor's Interrupt resolves every pending
// question and allows the rest of the turn, then the key's bytes go to claude. The order is
// guaranteed: Interrupt runs on the pty's writer, after the keys typed before Escape and before
// Escape's bytes and every key typed after it, so claude never acts on Escape (its stop hooks
// firing, a stop asking) before the supervisor knows the turn was interrupted. Update does not
// wait for it (Interrupt logs a verdict).
func (m *model) escape(k vterm.Key) tea.Cmd {
	sess := m.sess
	queued := m.io.writeAfter(sess.Interrupt, vterm.EncodeKey(k, m.io.term.Modes()))
	m.stopEditing()
	m.prefixed, m.confirmQuit = false, false
	if queued {
		return nil
	}
	// claude's pty is gone: nothing to order against, the supervisor is still told.
	return func() tea.Msg {
		sess.Interrupt()
		return nil
	}
}

// remoteEscape is Escape pressed in another terminal: the Escape key here, when there is
// something to interrupt (the agent at work, a stop being decided, a dialog, a question).
// At rest it is not sent to the agent, where it would clear what the person types here; the
// supervisor is told all the same (it interrupts nothing then).
func (m *model) remoteEscape() tea.Cmd {
	if !m.working() {
		sess := m.sess
		return func() tea.Msg {
			sess.Interrupt()
			return nil
		}
	}
	vk, _ := vterm.KeyFromTea(tea.Key{Code: tea.KeyEscape})
	return m.escape(vk)
}

// isEscape reports the Escape key, whatever the lock keys: with the kitty keyboard protocol
// terminals report Caps Lock and Num Lock as modifiers.
func isEscape(msg tea.KeyPressMsg) bool {
	return msg.Code == tea.KeyEscape && msg.Mod&^(tea.ModCapsLock|tea.ModNumLock|tea.ModScrollLock) == 0
}

func (m model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.exited {
		if m.holdOnExit {
			m.quitting = true
			return m, tea.Quit
		}
		return m, nil
	}
	if m.help && isEscape(msg) {
		// Escape closes the help first, as it closes an overlay in lazygit and k9s; the next
		// one interrupts the agent as always.
		m.help = false
		return m, nil
	}
	if m.trust != nil && len(m.questions) == 0 && isEscape(msg) {
		// Escape dismisses the trust prompt as it closes the help: the next one reaches the agent.
		m.dismissTrust()
		cmd := m.relayout()
		return m, cmd
	}
	if isEscape(msg) {
		vk, _ := vterm.KeyFromTea(tea.Key(msg))
		return m, m.escape(vk)
	}
	if m.editor.open {
		res, cmd := m.editorUpdate(msg)
		switch res {
		case editorSend:
			return m, m.resolveID(m.editor.id, hooks.Block, m.editor.value())
		case editorCancel:
			m.stopEditing() // the question stays open; claude still waits for it
		}
		return m, cmd
	}
	if m.confirmQuit {
		switch {
		case key.Matches(msg, m.keys.Prefix) && !m.prefixed:
			m.prefixed = true // the prefix, then the quit key, confirms too
			return m, nil
		case key.Matches(msg, m.keys.Command.Quit):
			return m.quit()
		}
		m.confirmQuit, m.prefixed = false, false // any other key keeps claude; it is not sent on
		return m, nil
	}
	if m.prefixed {
		m.prefixed = false
		return m.command(msg)
	}
	if key.Matches(msg, m.keys.Prefix) {
		m.prefixed = true
		return m, nil
	}
	if m.help {
		m.help = false
		return m, nil
	}
	if m.focus == paneAgent {
		if vk, ok := vterm.KeyFromTea(tea.Key(msg)); ok {
			m.agent.follow()
			m.write(vterm.EncodeKey(vk, m.io.term.Modes()))
		}
		return m, nil
	}
	return m.navigate(msg)
}

// command handles the key after the prefix.
func (m model) command(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.keys.Command
	switch {
	case key.Matches(msg, m.keys.Prefix):
		if vk, ok := vterm.KeyFromTea(tea.Key(msg)); ok {
			m.write(vterm.EncodeKey(vk, m.io.term.Modes()))
		}
	case key.Matches(msg, k.Approve):
		return m, m.resolve(hooks.Block, "")
	case key.Matches(msg, k.Deny):
		return m, m.resolve(hooks.Allow, "")
	case key.Matches(msg, k.Halt):
		return m, m.resolve(hooks.Halt, "")
	case key.Matches(msg, k.Edit):
		if len(m.questions) > 0 {
			cmd := m.editor.start(m.questions[0].ID, m.questions[0].Reason, m.w, m.h)
			m.relayout() // the editor takes rows of the banner
			return m, cmd
		}
	case key.Matches(msg, k.Focus):
		m.setFocus((m.focus + 1) % paneCount)
	case key.Matches(msg, k.FocusBk):
		m.setFocus((m.focus + paneCount - 1) % paneCount)
	case key.Matches(msg, k.Zoom):
		m.zoom = !m.zoom
		if m.zoom {
			m.setFocus(paneAgent)
		}
		return m, m.relayout()
	case key.Matches(msg, k.Help):
		m.help = !m.help
	case key.Matches(msg, k.Quit):
		if m.working() {
			m.confirmQuit = true
			return m, nil
		}
		return m.quit()
	default:
		if cmd, ok := m.trustKey(msg.String()); ok {
			return m, cmd
		}
		return m.navigate(msg)
	}
	return m, nil
}

// working reports a claude in the middle of something that quitting would cut short.
func (m model) working() bool { return atWork(m.header.state, len(m.questions)) }

// atWork reports an agent in the middle of something: at work, a stop being decided, a dialog
// or a question of its own open, or pending questions of hooksup's. Only such an agent has
// anything for Escape to interrupt.
func atWork(state session.AgentState, pending int) bool {
	switch state {
	case session.StateWorking, session.StateStopping, session.StatePermission, session.StateQuestion:
		return true
	}
	return pending > 0
}

// quit ends the TUI, and with it claude.
func (m model) quit() (tea.Model, tea.Cmd) {
	m.quitting = true
	return m, tea.Quit
}

func (m *model) setFocus(p pane) {
	modes := m.io.term.Modes()
	if m.focus == paneAgent && p != paneAgent {
		m.write(vterm.EncodeFocus(false, modes))
	}
	if p == paneAgent && m.focus != paneAgent {
		m.write(vterm.EncodeFocus(true, modes))
	}
	if m.lay.kind == layoutSolo && p != paneAgent {
		p = paneAgent
	}
	m.focus = p
}

// navigate hands a key to the focused pane, which knows what its keys do there.
func (m model) navigate(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch m.focus {
	case paneAgent:
		m.agent.navigate(msg, m.io.term.ScrollbackLen())
	case paneVerdicts:
		m.verdicts.navigate(msg)
	case paneChecks:
		m.checks.navigate(msg)
	}
	return m, nil
}

// stopEditing closes the reason editor, if it is open.
func (m *model) stopEditing() {
	if m.editor.open {
		m.editor.stop()
		m.relayout()
	}
}

// resolve answers the oldest pending question.
func (m *model) resolve(d hooks.Decision, reason string) tea.Cmd {
	if len(m.questions) == 0 {
		return nil
	}
	return m.resolveID(m.questions[0].ID, d, reason)
}

// resolveID answers question id.
func (m *model) resolveID(id int, d hooks.Decision, reason string) tea.Cmd {
	q := session.Question{ID: id}
	m.stopEditing()
	sess := m.sess
	return func() tea.Msg {
		if err := sess.Resolve(q.ID, d, reason); err != nil {
			return eventMsg{ev: session.Notice{At: session.At{Time: time.Now()}, Level: session.NoticeWarn,
				Text: fmt.Sprintf("question %d: %v", q.ID, err)}, counts: sess.Counts()}
		}
		return nil
	}
}

func (m *model) mouse(msg tea.MouseMsg) tea.Cmd {
	mo := msg.Mouse()
	a := m.lay.agent
	inner := rect{a.x + 1, a.y + 1, a.w - 2, a.h - 2}
	if inner.contains(mo.X, mo.Y) {
		modes := m.io.term.Modes()
		if modes.WantsMouse() && m.agent.scroll == 0 {
			if ev, ok := vterm.MouseFromTea(msg, inner.x, inner.y); ok {
				m.write(vterm.EncodeMouse(ev, modes))
			}
			return nil
		}
		if w, ok := msg.(tea.MouseWheelMsg); ok {
			switch w.Button {
			case tea.MouseWheelUp:
				m.agent.scrollBy(3, m.io.term.ScrollbackLen())
			case tea.MouseWheelDown:
				m.agent.scrollBy(-3, m.io.term.ScrollbackLen())
			}
		}
		if _, ok := msg.(tea.MouseClickMsg); ok {
			m.setFocus(paneAgent)
		}
		return nil
	}
	for p, r := range map[pane]rect{paneVerdicts: m.lay.verdicts, paneChecks: m.lay.checks, paneSubagents: m.lay.subs} {
		if !r.contains(mo.X, mo.Y) {
			continue
		}
		if _, ok := msg.(tea.MouseClickMsg); ok {
			m.setFocus(p)
		}
		if w, ok := msg.(tea.MouseWheelMsg); ok && p == paneVerdicts {
			if w.Button == tea.MouseWheelUp {
				m.verdicts.move(-1)
			} else if w.Button == tea.MouseWheelDown {
				m.verdicts.move(1)
			}
		}
	}
	return nil
}
