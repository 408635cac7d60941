package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	tea "github.com/hooksup/hooksup/third_party/bubbletea"

	"github.com/hooksup/hooksup/internal/hangup"
)

// terminalInput is the terminal the TUI reads keys from. Bubble Tea stops reading at the end
// of its input without a word, and a terminal that hung up (its emulator or tmux server killed)
// reads as the end of input, with no SIGHUP when hooksup is not in the terminal's session. So
// the first failed read (the end of input included) is reported to gone: without input there
// is no Escape, no answer and no way to quit, and the session must end.
type terminalInput struct {
	*os.File // Bubble Tea needs the file (its descriptor) for raw mode and cancellable reads
	once     sync.Once
	gone     func(error)
}

func (in *terminalInput) Read(p []byte) (int, error) {
	n, err := in.File.Read(p)
	if err != nil {
		in.once.Do(func() { in.gone(err) })
	}
	return n, err
}

// runOnTerminal runs m on the terminal until it quits or ctx ends; started, when not nil, gets
// the program before it runs. When the terminal's input ends or fails it returns an error that
// wraps hangup.ErrHangup.
func runOnTerminal(ctx context.Context, m tea.Model, started func(*tea.Program)) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	in := &terminalInput{File: os.Stdin, gone: func(err error) {
		cancel(fmt.Errorf("%w: reading it: %w", hangup.ErrHangup, err))
	}}
	// Bubble Tea's own signal handler can race with the context and block its shutdown forever
	// (it sends QuitMsg to a loop that already ended): the program's owner handles signals.
	// ctx ending quits the program rather than cancelling its context: a cancelled context
	// makes Bubble Tea close its input reader without waiting for the goroutine still reading
	// it (a data race).
	p := tea.NewProgram(m, tea.WithoutSignalHandler(), tea.WithInput(in))
	stop := context.AfterFunc(ctx, p.Quit) // p.Quit is a no-op once the program has ended
	defer stop()
	if started != nil {
		started(p)
	}
	_, err := p.Run()
	if cause := context.Cause(ctx); errors.Is(cause, hangup.ErrHangup) {
		return cause
	}
	if errors.Is(err, tea.ErrProgramKilled) || errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}
