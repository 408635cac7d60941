package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/third_party/bubbles/textarea"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/hooks"
)

// Editor heights, in rows: at least a few, at most a third of the screen (the editor scrolls).
const editorMinRows = 3

// reasonEditor edits the reason claude will read when the person makes it continue. It keeps
// the reason's line breaks: its send key sends, its newline keys break the line, its clear key
// empties it (to write another reason than the checks'), its cancel key closes it and leaves the
// question open. Escape is not its key: it always interrupts claude.
//
// An empty reason is not sent. Sent, it would mean the checks' reason (as the approve key's
// answer does): the very text the person just cleared away, behind their back. Nor is "continue"
// with no reason at all what they asked for: the agent would continue without knowing why. The
// editor stays open and says so (notice); the checks' reason is the cancel key and the approve
// key away.
type reasonEditor struct {
	keys editorKeys
	area textarea.Model
	id   int // the question whose reason is edited
	open bool
	// empty: the send key was pressed on an empty reason, which is not sent (notice says why);
	// until the next key.
	empty bool
}

// editorResult is what a key did in the editor.
type editorResult int

const (
	editorTyping editorResult = iota
	editorSend
	editorCancel
)

func newReasonEditor(k editorKeys) reasonEditor {
	a := textarea.New()
	a.Prompt = "› "
	a.ShowLineNumbers = false
	a.CharLimit = hooks.MaxOutputChars
	a.MaxHeight, a.MaxWidth = 0, 0 // the reason's length is bounded by CharLimit alone
	a.KeyMap.InsertNewline = k.Newline
	a.SetVirtualCursor(false)     // the terminal's cursor, like claude's pane
	var plain textarea.StyleState // the banner's style shows through
	a.SetStyles(textarea.Styles{Focused: plain, Blurred: plain, Cursor: a.Styles().Cursor})
	return reasonEditor{keys: k, area: a}
}

// start opens the editor on question id's reason, in w×h cells of screen.
func (e *reasonEditor) start(id int, reason string, w, h int) tea.Cmd {
	e.open, e.id, e.empty = true, id, false
	e.area.SetWidth(max(w-1, 10))
	// What the person edits is what they see: the reason's controls (a check's command quoted in
	// it) shown visibly, never drawn raw by the editor.
	// The cursor starts on a line of its own below the reason, where the editor shows the
	// empty row to write in: what is typed is never glued to the reason's last word. Sent
	// untouched, the reason is sent as it was (value trims the line).
	text := termsafe.Text(reason)
	if strings.TrimSpace(text) != "" {
		text = strings.TrimRight(text, "\n") + "\n"
	}
	e.area.SetValue(text) // the cursor at its end
	cmd := e.area.Focus()
	e.setSize(w, h)
	return cmd
}

// stop closes the editor.
func (e *reasonEditor) stop() {
	e.open = false
	e.area.Blur()
}

// setSize fits the editor to a w×h screen: as many rows as the reason and one more to write
// in, between editorMinRows and a third of the screen.
func (e *reasonEditor) setSize(w, h int) {
	e.area.SetWidth(max(w-1, 10))
	width := max(w-1-ansi.StringWidth(e.area.Prompt), 1)
	rows := 0
	for _, l := range strings.Split(strings.TrimSuffix(e.area.Value(), "\n"), "\n") {
		rows += max((ansi.StringWidth(l)+width-1)/width, 1)
	}
	e.area.SetHeight(min(max(rows+1, editorMinRows), max(h/3, editorMinRows)))
	e.scrollToCursor()
}

// editorLaidOut is the message that makes the textarea lay its rows out again: it does so only
// in its Update, and nothing else there.
type editorLaidOut struct{}

// scrollToCursor shows the cursor's row and as much of the text above it as fits: after a
// resize, the textarea would keep its old scroll (the rows above the cursor hidden although
// they fit, or the cursor below its last row). The textarea scrolls only enough to show the
// cursor, over the rows it laid out last: laid out at the new size, it is scrolled to the top
// and the cursor brought back down to where it was.
func (e *reasonEditor) scrollToCursor() {
	if !e.area.Focused() {
		return // the textarea lays nothing out then; start focuses it before sizing
	}
	row, col := e.area.Line(), e.area.Column()
	e.area, _ = e.area.Update(editorLaidOut{})
	e.area.MoveToBegin()
	for i := 0; e.area.Line() < row && i < hooks.MaxOutputChars; i++ {
		e.area.CursorDown() // a row of the screen at a time: scrolls as the cursor goes
	}
	e.area.SetCursorColumn(col)
	e.area, _ = e.area.Update(editorLaidOut{}) // the column may be on a wrapped row further down
}

// update handles a key or a paste while the editor is open.
func (e *reasonEditor) update(msg tea.Msg) (editorResult, tea.Cmd) {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		e.empty = false // what the notice said is answered
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, e.keys.Send):
			if e.value() == "" {
				e.empty = true
				return editorTyping, nil
			}
			return editorSend, nil
		case key.Matches(k, e.keys.Cancel):
			return editorCancel, nil
		case key.Matches(k, e.keys.Clear):
			e.area.Reset()
			return editorTyping, nil
		}
	}
	var cmd tea.Cmd
	e.area, cmd = e.area.Update(msg)
	return editorTyping, cmd
}

// notice is what the editor has to say under its rows: why the reason was not sent. Empty when
// nothing.
func (e *reasonEditor) notice() string {
	if !e.empty {
		return ""
	}
	return "the reason is empty: type one, or " + e.keys.Cancel.Help().Key + " to cancel"
}

// value is the reason as edited, its line breaks kept.
func (e *reasonEditor) value() string { return strings.TrimSpace(e.area.Value()) }

// rows are the editor's rows, each one space in.
func (e *reasonEditor) rows() []string {
	lines := strings.Split(e.area.View(), "\n")
	for i, l := range lines {
		lines[i] = " " + l
	}
	return lines
}

// cursor is where the terminal's cursor goes, relative to the editor's first row.
func (e *reasonEditor) cursor() *tea.Cursor {
	c := e.area.Cursor()
	if c != nil {
		c.Position.X++ // the space the rows are indented by
	}
	return c
}
