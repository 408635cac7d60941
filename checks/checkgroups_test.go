package checks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/procinfo"
)

// startGroup starts sh -c script as the leader of its own process group, reaped in the
// background (as if its parent were gone); the group is killed at the test's end.
func startGroup(t *testing.T, script string) int {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go cmd.Wait()
	pgid := cmd.Process.Pid
	t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	return pgid
}

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	cmd := exec.Command("/bin/true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func waitMembers(t *testing.T, pgid, n int) []procinfo.Info {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		m, err := procinfo.Group(pgid)
		if err != nil {
			t.Fatal(err)
		}
		if len(m) == n || time.Now().After(deadline) {
			return m
		}
	}
}

func writeRecord(t *testing.T, runtimeDir string, rec groupRecord) string {
	t.Helper()
	b, _ := json.Marshal(rec)
	p := groupRecordPath(runtimeDir, rec.Pgid)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// The sweep ends a recorded group whose hooksup is gone — its leader alive, or gone with its
// background jobs left — and leaves alone one whose hooksup runs and one whose leader is not
// the recorded process.
func TestSweepCheckGroups(t *testing.T) {
	dir := t.TempDir()
	self, err := procinfo.Read(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	orphan := deadPID(t)
	group := func(script string, members int) (int, procinfo.Info) {
		pgid := startGroup(t, script)
		m := waitMembers(t, pgid, members)
		if len(m) != members {
			t.Fatalf("group %d has %d members, want %d", pgid, len(m), members)
		}
		leader, err := procinfo.Read(pgid)
		if err != nil && members > 0 {
			leader = m[0] // the leader has exited: no earlier start than its jobs'
			leader.Start = 0
		}
		return pgid, leader
	}
	live, liveLeader := group("sleep 300 & sleep 300 & wait", 3)
	leaderless, _ := group("sleep 300 & exit 0", 1)
	running, runningLeader := group("sleep 300 & wait", 2)
	other, otherLeader := group("sleep 300 & wait", 2)

	uid := uint32(os.Getuid())
	recs := map[string]groupRecord{
		"live":       {Owner: orphan, OwnerStart: 1, Pgid: live, Start: liveLeader.Start, UID: uid, Check: "live", Command: "sleep"},
		"leaderless": {Owner: orphan, OwnerStart: 1, Pgid: leaderless, Start: 0, UID: uid, Check: "leaderless", Command: "sleep"},
		"running":    {Owner: self.Pid, OwnerStart: self.Start, Pgid: running, Start: runningLeader.Start, UID: uid, Check: "running"},
		"other":      {Owner: orphan, OwnerStart: 1, Pgid: other, Start: otherLeader.Start + 1, UID: uid, Check: "other"},
	}
	files := map[string]string{}
	for name, rec := range recs {
		files[name] = writeRecord(t, dir, rec)
	}
	var log bytes.Buffer
	ended := Sweep(dir, slog.New(slog.NewTextHandler(&log, nil)))
	if len(ended) != 2 {
		t.Fatalf("the sweep says it ended %+v, want live and leaderless", ended)
	}
	for _, e := range ended {
		if (e.Check != "live" && e.Check != "leaderless") || e.Command != "sleep" || e.Owner != orphan || len(e.Pids) == 0 {
			t.Errorf("ended %+v", e)
		}
	}
	if again := Sweep(dir, slog.New(slog.DiscardHandler)); len(again) != 0 {
		t.Errorf("a second sweep says it ended %+v", again)
	}

	for name, pgid := range map[string]int{"live": live, "leaderless": leaderless} {
		if m := waitMembers(t, pgid, 0); len(m) != 0 {
			t.Errorf("%s: the group %d still runs: %+v", name, pgid, m)
		}
		if !strings.Contains(log.String(), fmt.Sprintf("ended a check's process group left running by a hooksup that was killed\" pgid=%d check=%s", pgid, name)) {
			t.Errorf("%s: no log line for its group:\n%s", name, log.String())
		}
		if _, err := os.Stat(files[name]); err == nil {
			t.Errorf("%s: its record is left", name)
		}
	}
	for name, pgid := range map[string]int{"running": running, "other": other} {
		if m, _ := procinfo.Group(pgid); len(m) != 2 {
			t.Errorf("%s: the group %d was touched: %+v", name, pgid, m)
		}
	}
	if _, err := os.Stat(files["running"]); err != nil {
		t.Error("the record of a running hooksup's check was removed")
	}
	if !strings.Contains(log.String(), fmt.Sprintf("left alone: it is not the check's any more\" pgid=%d", other)) {
		t.Errorf("no log line for the group left alone:\n%s", log.String())
	}
}

// What a sweep ended is told on one line, the check's name and command shown as they are,
// controls made visible.
func TestEndedNotice(t *testing.T) {
	e := Ended{Check: "te\x1b[2Jst", Command: "go test ./...\nrm -rf \x1b]0;x\x07", Owner: 42}
	want := "ended what the check \"te\\e[2Jst\" left running (`go test ./...\\nrm -rf \\e]0;x\\a`): the hooksup (pid 42) that ran it was killed"
	if got := e.Notice(); got != want {
		t.Fatalf("notice\n%s\nwant\n%s", got, want)
	}
}

// A running check's group is recorded in the runtime directory, and the record goes when the
// check ends. The group is its watchdog's: led by a process started just before the check's
// shell.
func TestCheckGroupRecorded(t *testing.T) {
	dir := t.TempDir()
	g := NewGroups(dir, slog.New(slog.DiscardHandler))
	if g == nil {
		t.Fatal("no recorder")
	}
	// The record is written just after the shell started: the shell waits for it.
	rec := dir + "/check-$g.json"
	script := `g=$(ps -o pgid= -p $$ | tr -d ' '); echo $g; i=0; while [ ! -e "` + rec + `" ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done; cat "` + rec + `"`
	res := Run(context.Background(), g, config.Check{Name: "rec", Command: script}, dir, nil, nil)
	lines := strings.SplitN(string(res.Output), "\n", 2)
	var r groupRecord
	if err := json.Unmarshal([]byte(lines[1]), &r); err != nil {
		t.Fatalf("the record while the check ran: %q: %v", res.Output, err)
	}
	self, _ := procinfo.Read(os.Getpid())
	if fmt.Sprint(r.Pgid) != lines[0] || r.Owner != os.Getpid() || r.OwnerStart != self.Start || r.Start == 0 || r.Check != "rec" {
		t.Fatalf("record %+v, the check's group %s, hooksup %+v", r, lines[0], self)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Fatalf("records left after the check ended: %v", left)
	}
}
