// Package hangup ends a long-running command when the person's terminal goes away.
//
// A terminal that goes away (its emulator closed, its tmux server killed, the ssh connection
// lost) sends SIGHUP to its session's leader only. A command started under a wrapper that keeps
// the signal away (setsid, a shell that ignores SIGHUP and stays) is told by no signal, and one
// that reads no input (hooksup log -f) is not told by the end of its input either: it would run
// on, for nobody. What every open descriptor of the terminal does see is the hangup itself, so
// Context waits for that in the kernel (poll on Linux, kqueue on macOS), with no timer and no
// wake-up until it happens.
package hangup

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/charmbracelet/x/term"
)

// ErrHangup is the cause a context ends with when the person's terminal went away, from
// Context or from SIGHUP: what the command started gets SIGHUP too, as from a terminal that
// hung up.
var ErrHangup = errors.New("the terminal hung up")

// Context returns a copy of ctx that ends, with a cause wrapping ErrHangup, when any of files
// that is a terminal hangs up. Files that are not terminals (a pipe, a file, /dev/null) are not
// watched: a command with none (nohup's, say) lives on. SIGHUP is not handled here: main's
// one signal handler ends ctx on it, with the same cause. Every long-running command calls
// Context with its stdin, stdout and stderr and ends when the context does; files must stay
// open until cancel, which ends the watch (a goroutine blocked in the kernel) and returns once
// it has.
func Context(ctx context.Context, files ...*os.File) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	var ttys []tty
	for _, f := range files {
		if f != nil && term.IsTerminal(f.Fd()) {
			ttys = append(ttys, tty{int(f.Fd()), f.Name()})
		}
	}
	if len(ttys) == 0 {
		return ctx, func() { cancel(nil) }
	}
	// The watch also wakes up when the pipe's write end is closed: once ctx ends, however.
	r, w, err := os.Pipe()
	if err != nil {
		return ctx, func() { cancel(nil) } // SIGHUP alone ends it, as before
	}
	stop := int(r.Fd())
	context.AfterFunc(ctx, func() { w.Close() })
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer r.Close()
		if name, hungUp := waitHangup(ttys, stop); hungUp {
			cancel(fmt.Errorf("%w: %s", ErrHangup, name))
		}
	}()
	return ctx, func() {
		cancel(nil)
		<-done
	}
}

// tty is a terminal's descriptor and its name.
type tty struct {
	fd   int
	name string
}
