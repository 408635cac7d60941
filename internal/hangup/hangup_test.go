package hangup

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/creack/pty"
)

// openPTY is a terminal (the pty's tty) and the emulator's side of it.
func openPTY(t *testing.T) (tty, emulator *os.File) {
	t.Helper()
	emulator, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	t.Cleanup(func() { tty.Close(); emulator.Close() })
	return tty, emulator
}

// ended waits for ctx to end, failing after a bound.
func ended(t *testing.T, ctx context.Context) {
	t.Helper()
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the context did not end")
	}
}

// The emulator closes its side, as a killed terminal or tmux server does: the context ends
// with a hangup, although the command neither read nor wrote, and no signal came.
func TestTerminalClosedEndsContext(t *testing.T) {
	tty, emulator := openPTY(t)
	ctx, stop := Context(context.Background(), tty)
	defer stop()
	// As under hooksup log -f: keys typed and never read, lines written.
	emulator.Write([]byte("typed, never read\n"))
	if _, err := tty.Write([]byte("written\n")); err != nil {
		t.Fatal(err)
	}
	emulator.Close()
	ended(t, ctx)
	if cause := context.Cause(ctx); !errors.Is(cause, ErrHangup) {
		t.Fatalf("cause %v, want a hangup", cause)
	}
}

// Among several files, the terminal's hangup counts; the others (a pipe here, as a command's
// redirected output is) are not watched.
func TestOnlyTerminalsWatched(t *testing.T) {
	tty, emulator := openPTY(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, stop := Context(context.Background(), r, w, tty)
	defer stop()
	// The pipe's reader going would be POLLERR on its writer, were the pipe watched.
	r.Close()
	w.Close()
	emulator.Close()
	ended(t, ctx)
	if cause := context.Cause(ctx); !errors.Is(cause, ErrHangup) || cause.Error() != ErrHangup.Error()+": "+tty.Name() {
		t.Fatalf("cause %v, want the hangup of %s", cause, tty.Name())
	}
}

// Ended by its owner, the context's cause is not a hangup, and the terminal closing later
// changes nothing.
func TestStopIsNoHangup(t *testing.T) {
	tty, emulator := openPTY(t)
	ctx, stop := Context(context.Background(), tty)
	stop()
	ended(t, ctx)
	emulator.Close()
	if cause := context.Cause(ctx); !errors.Is(cause, context.Canceled) {
		t.Fatalf("cause %v, want context.Canceled", cause)
	}
}

// The parent's end ends it with the parent's cause.
func TestParentEnds(t *testing.T) {
	tty, _ := openPTY(t)
	parent, cancel := context.WithCancelCause(context.Background())
	ctx, stop := Context(parent, tty)
	defer stop()
	sigterm := errors.New("got terminated")
	cancel(sigterm)
	ended(t, ctx)
	if cause := context.Cause(ctx); cause != sigterm {
		t.Fatalf("cause %v, want the parent's", cause)
	}
}
