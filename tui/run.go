package tui

import (
	"context"
	"fmt"
	"os"

	"github.com/charmbracelet/x/term"
	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/internal/notify"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/themes"
	"github.com/hooksup/hooksup/verdictlog"
)

// Options configure the TUI.
type Options struct {
	Terminal *os.File    // the front end's end of the agent's pty (supervisor.PTY.File)
	Mode     config.Mode // the session's mode, for the header
	BlockCap int         // claude's cap on blocked stops in a row, for the header
	// Agent is the agent's name as the person types it ("claude", "codex"): the header, the
	// pane's title and every sentence about the agent say it ("" says "the agent").
	Agent string
	// DefaultAgent is the agent hooksup runs when none is named (agents.Default): the header
	// names every other.
	DefaultAgent string
	Theme        themes.Theme
	Prefix       string
	Bindings     map[string]string
	// Checks and SubagentChecks are the configured checks, listed before they run.
	Checks, SubagentChecks []config.Check
	// Ignored are the project's config files left out because they are not trusted: the TUI
	// keeps saying that their checks are ignored.
	Ignored []string
	// ConfigFiles are the configuration files in use that set checks (the project's, found from
	// a subdirectory too): the checks pane says where its checks come from.
	ConfigFiles []string
	// Goal is goal mode's record as the session starts (nil: no goal): the header shows the goal
	// from the start, then from each of its verdicts.
	Goal       *verdictlog.Goal
	HoldOnExit bool   // after claude exits, show its last screen until a key
	Resume     string // the command that resumes a session, before its id; "" when none does
	// ResumeHint rewrites a line of the agent's last screen that names its own resume command
	// into hooksup's (agent.Agent.ResumeHint); nil: none is rewritten.
	ResumeHint func(line string) (string, bool)
	// PromptEmpty reads the agent's screen (its rows as plain text) and reports whether its
	// prompt box is empty (agent.PromptEmpty): the goal's next turn is typed only then. nil: a
	// prompt mark alone on a row is one.
	PromptEmpty func(screen []string) bool
	Version     string // reported to claude's XTVERSION query
	// Notifier carries [notifications] notify: the outer terminal's sequence or the system's
	// notifier (notify.New chooses).
	Notifier notify.Notifier
	// Escapes are Escape pressed for this session in another terminal (the control socket's
	// interrupt, from hooksup watch): each is the Escape key pressed here, in order with the
	// keys typed here.
	Escapes <-chan struct{}
}

// AgentPaneSize is the size of claude's pane, inside its border, in a terminal of w×h: the size
// to start claude's pty with.
func AgentPaneSize(w, h int) (cols, rows int) {
	return computeLayout(w, h, false, 0).agentInner()
}

// TerminalSize is the size of the terminal on f, or 80×24 when it has none.
func TerminalSize(f *os.File) (w, h int) {
	w, h, err := term.GetSize(f.Fd())
	if err != nil || w <= 0 || h <= 0 {
		return 80, 24
	}
	return w, h
}

// Run shows the session until the person quits or, without hold_on_exit, the agent exited
// (its AgentExited event). The terminal is restored on every way out. It does not end the
// session: its owner does, when Run returns. Run handles no signals: ctx ending ends it.
//
// When the terminal goes away (its input ends or fails) Run returns an error that wraps
// hangup.ErrHangup: the session must end, as on SIGHUP.
func Run(ctx context.Context, sess Session, o Options) error {
	keys, err := keymap.Resolve(o.Prefix, o.Bindings) // validated with the config: never fails there
	if err != nil {
		return fmt.Errorf("[keys] %w", err)
	}
	cols, rows := AgentPaneSize(TerminalSize(os.Stdout))
	aio := newAgentIO(cols, rows, o.Version, programStatusTo(sess), titleTo(sess))
	defer aio.close()
	aio.resumeHint = o.ResumeHint
	aio.attach(o.Terminal)
	// A session that answers permission dialogs with keys reads the agent's screen.
	if sa, ok := sess.(interface {
		AttachScreen(session.Screen) func()
	}); ok {
		defer sa.AttachScreen(aio)()
	}
	m := newModel(sess, aio, NewStyles(o.Theme), newAgentKeyMap(keys, o.Agent), o.Mode, o.HoldOnExit, o.BlockCap)
	m.setAgent(o.Agent)
	m.header.plain = o.DefaultAgent
	m.resume = o.Resume
	if o.PromptEmpty != nil {
		m.promptEmpty = o.PromptEmpty
	}
	m.checks.configured, m.checks.subConfigured, m.checks.ignored = o.Checks, o.SubagentChecks, o.Ignored
	m.checks.from = o.ConfigFiles
	m.header.ignored = len(o.Ignored) > 0
	m.header.goal = o.Goal
	m.notifier = o.Notifier
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // ends the forwarding of Escapes
	return runOnTerminal(ctx, m, func(p *tea.Program) {
		if o.Escapes == nil {
			return
		}
		go func() {
			for {
				select {
				case <-o.Escapes:
					p.Send(escapeMsg{}) // a no-op once the program has ended
				case <-ctx.Done():
					return
				}
			}
		}()
	})
}
