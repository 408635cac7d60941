package checks

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// A check's process group is led by a watchdog: a /bin/sh of its own, started before the
// check's shell, which joins its group. It reads a pipe whose only writer is the hooksup that
// runs the check (close-on-exec, so neither the check nor anything else hooksup starts holds
// it): when that hooksup ends, however it ends — SIGKILL included — the kernel closes the
// writer, the watchdog reads the end of the pipe and kills its own process group, the check's,
// itself with it. That holds on Linux and macOS alike, where Pdeathsig (Linux only) ends only
// the check's shell, not what the shell left running.
//
// Leading the group is what makes the kill safe: a process group's id is not reused while a
// process of the group lives, and the watchdog, alive until it kills, is one; `kill 0` names the
// group it is in, never a number read earlier. Run keeps it unreaped until it has sent its own
// last signal to the group, so that no kill of Run's can reach a group that took the id over
// either.
//
// It ignores SIGHUP, SIGINT, SIGQUIT and SIGTERM: a terminal that hangs up, a Ctrl-C or a
// SIGTERM sent to the group leave it watching (the check's own processes get them as before).
// SIGKILL ends it; then the group lives on like any other, and the record of it (checkgroups.go)
// is what ends it should hooksup die too.
// It says on its stdout when it ignores them, and the check starts only then.
const watchdogScript = `trap '' HUP INT QUIT TERM; echo; exec >/dev/null; while read -r x; do :; done; kill -s KILL 0`

// watchdogReady is how long a watchdog has to start; a check whose watchdog does not runs
// without one.
const watchdogReady = 5 * time.Second

// watchdog is a running check's watchdog.
type watchdog struct {
	cmd    *exec.Cmd
	writer *os.File // the pipe's only writer
}

// startWatchdog starts a watchdog leading a new process group, for a check to join, and waits
// until it ignores the signals it must.
func startWatchdog() (*watchdog, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	ready, said, err := os.Pipe()
	if err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	defer ready.Close()
	cmd := exec.Command("/bin/sh", "-c", watchdogScript)
	cmd.Stdin, cmd.Stdout, cmd.Dir, cmd.Env = r, said, "/", []string{}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	r.Close()
	said.Close()
	if err != nil {
		w.Close()
		return nil, err
	}
	wd := &watchdog{cmd: cmd, writer: w}
	_ = ready.SetReadDeadline(time.Now().Add(watchdogReady))
	if _, err := ready.Read(make([]byte, 1)); err != nil {
		wd.end()
		return nil, fmt.Errorf("the watchdog did not start: %w", err)
	}
	return wd, nil
}

// pgid is the group the watchdog leads: the check's.
func (wd *watchdog) pgid() int { return wd.cmd.Process.Pid }

// stop lets the watchdog go once Run killed the group, which killed the watchdog too: it is
// reaped, and the pipe closed (a watchdog somehow still alive kills the group itself).
func (wd *watchdog) stop() {
	wd.writer.Close()
	_ = wd.cmd.Wait()
}

// end ends a watchdog whose group no check joined.
func (wd *watchdog) end() {
	_ = wd.cmd.Process.Kill()
	wd.stop()
}
