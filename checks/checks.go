// Package checks runs a project's checks: each in a process group of its own, led by a watchdog
// that kills it should hooksup die, killed whole at its timeout, on Escape and once the check
// exited (after a grace for what it left running); the record of each running group in the
// runtime directory and the sweep that ends what a killed hooksup left running; and the plain
// text of what a check printed.
package checks

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/procinfo"
	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/verdictlog"
)

// LeftRunningNote is what every wording of a check's result adds when the check left
// processes running (session.CheckResult.LeftRunning, verdictlog.CheckRecord.LeftRunning).
func LeftRunningNote() string {
	return "left background processes running, killed after " + LeftoverGrace.String()
}

// Interrupted is the verdict log's error of a check an interrupt stopped (Escape, the hook gone):
// it neither passed nor failed.
const Interrupted = "interrupted"

// Record is the verdict log's view of a check's result.
func Record(r session.CheckResult) verdictlog.CheckRecord {
	rec := verdictlog.CheckRecord{Name: r.Name, ExitCode: r.ExitCode, DurationMS: Millis(r.Duration), TimedOut: r.TimedOut,
		LeftRunning: r.LeftRunning}
	switch {
	case r.StartErr != nil:
		rec.Error = r.StartErr.Error()
	case r.Canceled:
		rec.Error = Interrupted
	}
	if !r.Passed() {
		rec.Output = Text(r)
		if r.Written > int64(len(r.Output)) {
			rec.Output = "… (earlier output cut)\n" + rec.Output
		}
	}
	return rec
}

// Text is the output hooksup kept of a check, as plain text: no escape sequence, every other control shown
// visibly (see PlainText), no trailing blank lines, and no partial first line when only the end
// was kept.
func Text(r session.CheckResult) string {
	s := PlainText(r.Output)
	if r.Written > int64(len(r.Output)) {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	return strings.TrimRight(s, " \t\n")
}

func Millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// outputKeep is how much of a check's output is kept for the reason and the verdict log: the
// end, where test runners say what failed (reason_lines' words say "its last MiB"). The TUI's check pane shows it all as it streams.
const outputKeep = 1 << 20

// ErrCannotStart marks a check whose command could not be started.
var ErrCannotStart = errors.New("command could not start")

// StartError is why a check's command could not start, in one line: the shell's "sh: 1: uv:
// not found", or the error of starting the shell. It is ErrCannotStart.
type StartError struct{ Err error }

func (e *StartError) Error() string        { return oneLine(e.Err.Error()) }
func (e *StartError) Unwrap() error        { return e.Err }
func (e *StartError) Is(target error) bool { return target == ErrCannotStart }

// oneLine joins the lines of s with "; ".
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(strings.TrimSpace(s), "\n", " ; ")), " ")
}

// LeftoverGrace is how long what a check's shell leaves running in its process group has, once
// the shell exited, to finish (a job writing the end of the output) before the group is killed.
const LeftoverGrace = time.Second

// recordDelay is how long a check runs before its process group is recorded (Groups).
const recordDelay = 20 * time.Millisecond

// Run runs c with sh in its own process group, streaming output to onOutput, and kills the
// whole group when it times out, when ctx ends, and once it exited: what the shell left running
// in its group has LeftoverGrace to finish, then is killed (nothing it started outlives it).
// The verdict is the shell's own exit status. dir is the project directory a relative cwd is
// taken from. The group is recorded in groups while it runs (nil: not recorded), for the next
// hooksup to end should this one be killed.
func Run(ctx context.Context, groups *Groups, c config.Check, dir string, extraEnv []string, onOutput func([]byte)) session.CheckResult {
	res := session.CheckResult{Name: c.Name, Command: c.Command, ExitCode: -1}
	timeout := c.TimeoutOrDefault()
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// The output is a pipe of Run's own, not exec's: the shell's exit, not the end of its
	// output, ends the check, and Run decides how long a job left holding it may keep it.
	start := time.Now()
	outR, outW, err := os.Pipe()
	if err != nil {
		res.StartErr = &StartError{Err: err}
		res.Duration = time.Since(start)
		return res
	}
	// The check joins its watchdog's process group, so that a timeout kills all it started,
	// and so does the watchdog should hooksup die. Without one (it could not start, or died
	// before the check could join it), the check runs in a group of its own, as the backstop
	// of the records (checkgroups.go) expects.
	wd, werr := startWatchdog()
	if werr != nil {
		groups.warn("a check runs without its watchdog: a hooksup killed with SIGKILL leaves it running until the next hooksup starts", c, werr)
	}
	cmd := checkCommand(c, dir, extraEnv, wd, outW)
	err = cmd.Start()
	if err != nil && wd != nil {
		wd.end()
		if errors.Is(err, syscall.EPERM) { // setpgid: the watchdog is gone
			groups.warn("a check could not join its watchdog's process group: it runs in one of its own", c, err)
			cmd = checkCommand(c, dir, extraEnv, nil, outW)
			err = cmd.Start()
		}
		wd = nil
	}
	outW.Close()
	if err != nil {
		outR.Close()
		res.StartErr = &StartError{Err: err}
		res.Duration = time.Since(start)
		return res
	}
	out := &tailWriter{max: outputKeep, on: onOutput}
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		_, _ = io.Copy(out, outR)
	}()
	pgid, watcher := cmd.Process.Pid, 0
	if wd != nil {
		pgid, watcher = wd.pgid(), wd.pgid()
	}
	done, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		// A check still running after recordDelay has its group recorded: one that ends
		// sooner (most do) never pays for the record.
		var record <-chan time.Time
		if groups != nil {
			t := time.NewTimer(recordDelay)
			defer t.Stop()
			record = t.C
		}
		for {
			select {
			case <-record:
				groups.started(pgid, c)
				record = nil
			case <-tctx.Done():
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
				return
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	switch {
	case ctx.Err() != nil:
		res.Canceled = true
	case tctx.Err() != nil:
		res.TimedOut = true
	default:
		res.LeftRunning = leftovers(tctx, pgid, watcher, copied)
	}
	close(done)
	<-watched                                // no record is written after it is removed
	_ = syscall.Kill(-pgid, syscall.SIGKILL) // whatever it left behind, and its watchdog
	groups.ended(pgid)
	if wd != nil {
		wd.stop() // reaped only now: until then no other group can have its id
	}
	// A job that left the group (setsid) may hold the output still: it is not waited for.
	select {
	case <-copied:
	case <-time.After(outputDrain):
	}
	outR.Close()
	<-copied
	res.Duration = time.Since(start)
	res.Output, res.Written, res.Lines = out.result()
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	} else if err != nil {
		res.StartErr = &StartError{Err: err}
	}
	if !res.TimedOut && !res.Canceled && (res.ExitCode == 126 || res.ExitCode == 127) {
		res.StartErr = &StartError{Err: errors.New(lastLine(res.Output))}
	}
	return res
}

// outputDrain is how long the output is read after the check's group was killed, for what its
// processes wrote just before.
const outputDrain = 100 * time.Millisecond

// leftovers waits, once a check's shell exited, for what it left in its group pgid to end, for
// LeftoverGrace at most (or until ctx ends), and reports whether some of it was still running
// then. A job still writing the check's output holds it open (copied is not closed yet); one
// that writes elsewhere is seen in the group, where the process watcher (the watchdog, 0: none)
// is not the check's.
func leftovers(ctx context.Context, pgid, watcher int, copied <-chan struct{}) bool {
	grace := time.NewTimer(LeftoverGrace)
	defer grace.Stop()
	select {
	case <-copied:
	case <-grace.C:
		return true
	case <-ctx.Done():
		return true
	}
	for {
		members, err := procinfo.Group(pgid)
		if err != nil || !slices.ContainsFunc(members, func(p procinfo.Info) bool { return p.Pid != watcher }) {
			return false
		}
		select {
		case <-grace.C:
			return true
		case <-ctx.Done():
			return true
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// checkCommand is c's shell, in the process group of the watchdog wd (nil: its own), writing
// to out.
func checkCommand(c config.Check, dir string, extraEnv []string, wd *watchdog, out *os.File) *exec.Cmd {
	cmd := exec.Command("/bin/sh", "-c", c.Command)
	cmd.Dir = WorkDir(c, dir)
	cmd.Env = append(checkEnv(c), extraEnv...)
	pgid := 0
	if wd != nil {
		pgid = wd.pgid()
	}
	cmd.SysProcAttr = checkProcAttr(pgid)
	cmd.Stdout, cmd.Stderr = out, out
	return cmd
}

// WorkDir is where c runs when its project is dir: its cwd, relative to dir unless absolute.
func WorkDir(c config.Check, dir string) string {
	switch {
	case c.Cwd == "":
		return dir
	case filepath.IsAbs(c.Cwd):
		return c.Cwd
	}
	return filepath.Join(dir, c.Cwd)
}

// CheckColumns is the width a check's COLUMNS says, unless its env sets it: wide, so that test
// runners that fit their output to the terminal (pytest's, jest's) do not cut a message the
// reason quotes.
const CheckColumns = 200

// checkEnv is hooksup's environment without a session's variables, plus COLUMNS and the
// check's own.
func checkEnv(c config.Check) []string {
	env := append(hooks.ScrubEnv(os.Environ(), hooks.SessionVars), "HOOKSUP_CHECK="+c.Name, "COLUMNS="+strconv.Itoa(CheckColumns))
	for k, v := range c.Env {
		env = append(env, k+"="+v)
	}
	return env
}

func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return "command not found or not executable"
	}
	return s
}

// tailWriter keeps the last max bytes written, counts bytes and lines, and passes every write
// on.
type tailWriter struct {
	mu       sync.Mutex
	max      int
	buf      []byte
	on       func([]byte)
	written  int64
	newlines int
	last     byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	if w.on != nil {
		w.on(append([]byte(nil), p...))
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.written += int64(len(p))
	w.newlines += bytes.Count(p, []byte{'\n'})
	if len(p) > 0 {
		w.last = p[len(p)-1]
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) > 2*w.max {
		w.buf = append(w.buf[:0:0], w.buf[len(w.buf)-w.max:]...)
	}
	return len(p), nil
}

// result is the kept end of the output, the bytes written and the lines written.
func (w *tailWriter) result() (kept []byte, written int64, lines int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.buf
	if len(b) > w.max {
		b = b[len(b)-w.max:]
	}
	lines = w.newlines
	if w.written > 0 && w.last != '\n' {
		lines++
	}
	return append([]byte(nil), b...), w.written, lines
}

// RunAll runs checks one after another in dir (all of them, whatever fails), recording their
// groups in groups, calling onOutput with each one's output as it comes. It is `hooksup check`.
func RunAll(ctx context.Context, groups *Groups, checks []config.Check, dir string, onOutput func(name string, b []byte)) []session.CheckResult {
	out := make([]session.CheckResult, 0, len(checks))
	for _, c := range checks {
		if ctx.Err() != nil {
			break
		}
		name := c.Name
		out = append(out, Run(ctx, groups, c, dir, nil, func(b []byte) {
			if onOutput != nil {
				onOutput(name, b)
			}
		}))
	}
	return out
}
