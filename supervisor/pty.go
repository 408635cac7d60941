package supervisor

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/creack/pty"
)

// PTY is a pseudo-terminal for the agent: the agent gets one end as its controlling terminal
// and stdio, a front end reads and writes the other (File), as a terminal emulator would.
type PTY struct {
	f, tty *os.File
}

// OpenPTY opens a pseudo-terminal of cols×rows for the agent named agent.
func OpenPTY(agent string, cols, rows int) (*PTY, error) {
	f, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("open a pseudo-terminal for %s: %w", agent, err)
	}
	if err := pty.Setsize(f, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		f.Close()
		tty.Close()
		return nil, fmt.Errorf("size the pseudo-terminal: %w", err)
	}
	return &PTY{f: f, tty: tty}, nil
}

// File is the front end's end of the terminal.
func (p *PTY) File() *os.File { return p.f }

// Start starts cmd in a new session with the terminal as its controlling terminal and stdio
// (Options.Start). Only the agent keeps the terminal's agent end open, so reading File ends
// once the agent and all it started closed it.
func (p *PTY) Start(cmd *exec.Cmd) error {
	if p.tty == nil {
		return fmt.Errorf("the pseudo-terminal was already given to a process")
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.tty, p.tty, p.tty
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid, cmd.SysProcAttr.Setctty = true, true
	err := cmd.Start()
	p.tty.Close()
	p.tty = nil
	return err
}

// Close closes both ends.
func (p *PTY) Close() error {
	if p.tty != nil {
		p.tty.Close()
	}
	return p.f.Close()
}
