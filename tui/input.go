package tui

import (
	"os"
	"sync"
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
