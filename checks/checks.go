// Package checks runs a project's checks: each in a process group of its own, killed whole at its
// timeout, on Escape and when hooksup ends; the record of each running group in the runtime
// directory and the sweep that ends what a killed hooksup left running; reading a process's
// group, uid and start time; and the plain text of what a check printed.
package checks

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/verdictlog"
)

// Result is how one run of a check ended.
type Result struct {
	Name     string
	Command  string
	ExitCode int // -1 when the command did not run to an exit code
	Duration time.Duration
	TimedOut bool
	Canceled bool   // stopped by an interrupt
	StartErr error  // the command could not start (including sh's 126/127)
	Output   []byte // the end of what it printed (outputKeep), as printed: colours and all
	Written  int64  // how many bytes it printed in all
	Lines    int    // how many lines it printed in all
}

// Passed reports whether the check succeeded.
func (r Result) Passed() bool {
	return r.StartErr == nil && !r.TimedOut && !r.Canceled && r.ExitCode == 0
}

// Record is the verdict log's view of the result.
func (r Result) Record() verdictlog.CheckRecord {
	rec := verdictlog.CheckRecord{Name: r.Name, ExitCode: r.ExitCode, DurationMS: Millis(r.Duration), TimedOut: r.TimedOut}
	switch {
	case r.StartErr != nil:
		rec.Error = r.StartErr.Error()
	case r.Canceled:
		rec.Error = "interrupted"
	}
	if !r.Passed() {
		rec.Output = r.Text()
		if r.Written > int64(len(r.Output)) {
			rec.Output = "… (earlier output cut)\n" + rec.Output
		}
	}
	return rec
}

// Text is the output hooksup kept, as plain text: no terminal controls (see PlainText), no
// trailing blank lines, and no partial first line when only the end was kept.
func (r Result) Text() string {
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
// end, where test runners say what failed. The TUI's check pane shows it all as it streams.
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

// recordDelay is how long a check runs before its process group is recorded (Groups).
const recordDelay = 20 * time.Millisecond

// Run runs c with sh in its own process group, streaming output to onOutput, and kills the
// whole group when it times out, when ctx ends, and when it exits (nothing it started outlives
// it). dir is the project directory a relative cwd is taken from. The group is recorded in
// groups while it runs (nil: not recorded), for the next hooksup to end should this one be
// killed.
func Run(ctx context.Context, groups *Groups, c config.Check, dir string, extraEnv []string, onOutput func([]byte)) Result {
	res := Result{Name: c.Name, Command: c.Command, ExitCode: -1}
	timeout := c.TimeoutOrDefault()
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := exec.Command("/bin/sh", "-c", c.Command)
	cmd.Dir = workDir(c, dir)
	cmd.Env = append(checkEnv(c), extraEnv...)
	// Its own group, so a timeout kills all it started (and, where the OS can, killed with
	// hooksup should that die).
	cmd.SysProcAttr = checkProcAttr()
	out := &tailWriter{max: outputKeep, on: onOutput}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = time.Second

	start := time.Now()
	if err := cmd.Start(); err != nil {
		res.StartErr = &StartError{Err: err}
		res.Duration = time.Since(start)
		return res
	}
	pgid := cmd.Process.Pid
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
	err := cmd.Wait()
	close(done)
	<-watched                                // no record is written after it is removed
	_ = syscall.Kill(-pgid, syscall.SIGKILL) // whatever it left behind
	groups.ended(pgid)
	res.Duration = time.Since(start)
	res.Output, res.Written, res.Lines = out.result()
	switch {
	case ctx.Err() != nil:
		res.Canceled = true
	case tctx.Err() != nil:
		res.TimedOut = true
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		res.ExitCode = 0
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
	}
	if !res.TimedOut && !res.Canceled && (res.ExitCode == 126 || res.ExitCode == 127) {
		res.StartErr = &StartError{Err: errors.New(lastLine(res.Output))}
	}
	return res
}

// workDir is where c runs when its project is dir: its cwd, relative to dir unless absolute.
func workDir(c config.Check, dir string) string {
	switch {
	case c.Cwd == "":
		return dir
	case filepath.IsAbs(c.Cwd):
		return c.Cwd
	}
	return filepath.Join(dir, c.Cwd)
}

// checkEnv is hooksup's environment without a session's variables, plus the check's.
func checkEnv(c config.Check) []string {
	env := append(hooks.ScrubEnv(os.Environ(), hooks.SessionVars), "HOOKSUP_CHECK="+c.Name)
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

// RunAll runs checks one after another in dir (all of them, whatever fails), calling
// onOutput with each one's output as it comes. It is `hooksup check`.
func RunAll(ctx context.Context, checks []config.Check, dir string, onOutput func(name string, b []byte)) []Result {
	out := make([]Result, 0, len(checks))
	for _, c := range checks {
		if ctx.Err() != nil {
			break
		}
		name := c.Name
		out = append(out, Run(ctx, nil, c, dir, nil, func(b []byte) {
			if onOutput != nil {
				onOutput(name, b)
			}
		}))
	}
	return out
}
