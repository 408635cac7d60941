package tui

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/creack/pty"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/supervisor"
	"github.com/hooksup/hooksup/themes"
)

// Options configure the TUI.
type Options struct {
	Supervisor supervisor.Options // Start and Interactive are set by Run
	Theme      themes.Theme
	Prefix     string
	Bindings   map[string]string
	HoldOnExit bool   // after claude exits, show its last screen until a key
	Version    string // reported to claude's XTVERSION query
}

// Run shows the supervised agent in the TUI until it exits (or the person quits, which ends
// it) and returns its exit status. The terminal is restored on every way out.
func Run(ctx context.Context, o Options) (int, error) {
	w, h, err := term.GetSize(os.Stdout.Fd())
	if err != nil || w <= 0 || h <= 0 {
		w, h = 80, 24
	}
	cols, rows := computeLayout(w, h, false, false).agentInner()
	aio := newAgentIO(cols, rows, o.Version)
	defer aio.close()

	so := o.Supervisor
	so.Interactive = true
	so.Stdin, so.Stdout, so.Stderr = nil, nil, nil
	so.ForwardSignals = false
	so.Start = func(cmd *exec.Cmd) error {
		// claude runs in hooksup's emulator, not in the outer terminal (or tmux).
		env := cmd.Env[:0:0]
		for _, kv := range cmd.Env {
			if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") && !strings.HasPrefix(kv, "TERM=") &&
				!strings.HasPrefix(kv, "TERM_PROGRAM") && !strings.HasPrefix(kv, "COLORTERM=") {
				env = append(env, kv)
			}
		}
		cmd.Env = append(env, "TERM=xterm-256color", "COLORTERM=truecolor")
		f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
		if err != nil {
			return err
		}
		aio.attach(f)
		return nil
	}
	sup, err := supervisor.New(so)
	if err != nil {
		return 1, err
	}
	env := so.Env
	if env == nil {
		env = os.Environ()
	}
	blockCap := hooks.BlockCap(func(k string) string { return lookupEnv(env, k) })
	m := newModel(sup, aio, NewStyles(o.Theme), newKeyMap(o.Prefix, o.Bindings), so.Config.Mode, o.HoldOnExit, blockCap)
	// hooksup handles the signals itself: Bubble Tea's own handler can race with the context
	// and block its shutdown forever (it sends QuitMsg to a loop that already ended).
	runCtx, cancel := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer cancel()
	p := tea.NewProgram(m, tea.WithContext(runCtx), tea.WithoutSignalHandler())
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		code, err := sup.Run(runCtx)
		p.Send(agentExitedMsg{code: code, err: err})
		done <- result{code, err}
	}()
	_, perr := p.Run()
	if errors.Is(perr, tea.ErrProgramKilled) || errors.Is(perr, context.Canceled) {
		perr = nil
	}
	cancel() // the person quit: end claude too
	r := <-done
	return r.code, errors.Join(r.err, perr)
}

// lookupEnv reads k from an environment list (the last setting wins).
func lookupEnv(env []string, k string) string {
	v := ""
	for _, kv := range env {
		if name, val, ok := strings.Cut(kv, "="); ok && name == k {
			v = val
		}
	}
	return v
}
