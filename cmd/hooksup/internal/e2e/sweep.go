package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// PgidOf is the process group of pid, from /proc (0: no such process).
func PgidOf(pid int) int {
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	i := bytes.LastIndexByte(st, ')')
	if err != nil || i < 0 {
		return 0
	}
	f := strings.Fields(string(st[i+1:])) // state, ppid, pgrp, …
	if len(f) < 3 {
		return 0
	}
	pgid, _ := strconv.Atoi(f[2])
	return pgid
}

// GroupMembers lists the live processes (zombies are dead) of the process group pgid.
func GroupMembers(pgid int) []int {
	var pids []int
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		st, err := os.ReadFile(p)
		i := bytes.LastIndexByte(st, ')')
		if err != nil || i < 0 {
			continue
		}
		f := strings.Fields(string(st[i+1:]))
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			pids = append(pids, pid)
		}
	}
	return pids
}

// GroupGoneBy waits until no process of the group pgid is alive, or until deadline: what is
// still alive then.
func GroupGoneBy(pgid int, deadline time.Time) []int {
	for {
		m := GroupMembers(pgid)
		if len(m) == 0 || time.Now().After(deadline) {
			return m
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// RunningCheck is a check that starts two background jobs, writes their pids and its shell's,
// says it started, and waits for them.
type RunningCheck struct {
	jobs, shell, started string
}

func NewRunningCheck(s *Sandbox) RunningCheck {
	return RunningCheck{jobs: filepath.Join(s.Project, "jobs"), shell: filepath.Join(s.Project, "shell.pid"),
		started: filepath.Join(s.Project, "check-started")}
}

func (c RunningCheck) Command() string {
	return fmt.Sprintf("sleep 300 & echo $! >> %[1]s; sleep 300 & echo $! >> %[1]s; echo $$ > %[2]s; echo started > %[3]s; wait",
		c.jobs, c.shell, c.started)
}

// Group waits for the check to have started and returns its process group (killed when the
// test ends) and its shell's pid.
func (c RunningCheck) Group(t *testing.T) (pgid, shell int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(c.started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the check never started")
		}
	}
	b, _ := os.ReadFile(c.jobs)
	jobs := strings.Fields(string(b))
	job, _ := strconv.Atoi(jobs[0])
	b, _ = os.ReadFile(c.shell)
	shell, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	pgid = PgidOf(job)
	if len(jobs) != 2 || pgid <= 1 || shell <= 1 {
		t.Fatalf("the check's jobs %q (group %d), its shell %d", b, pgid, shell)
	}
	t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	if m := GroupMembers(pgid); len(m) < 3 {
		t.Fatalf("the check's group %d has %v, want its shell and its two jobs", pgid, m)
	}
	return pgid, shell
}

// InstalledHook is hooksup-hook run as the hook `hooksup install` registers, on a Stop of session.
func (s *Sandbox) InstalledHook(session string) *exec.Cmd {
	input := fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":%q,"hook_event_name":"Stop","stop_hook_active":false}`,
		session, filepath.Join(s.Project, "t.jsonl"), s.Project)
	cmd := exec.Command(HookClientBin, "Stop", "--installed")
	cmd.Dir, cmd.Env, cmd.Stdin = s.Project, s.Env, strings.NewReader(input)
	return cmd
}
