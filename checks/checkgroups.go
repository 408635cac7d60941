package checks

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/atomicfile"
	"github.com/hooksup/hooksup/internal/clip"
	"github.com/hooksup/hooksup/internal/procinfo"
	"github.com/hooksup/hooksup/internal/termsafe"
)

// A check runs in a process group led by its watchdog (watchdog.go), and hooksup kills the group
// at the check's timeout, on Escape and once the check exited; should hooksup be killed with
// SIGKILL, the watchdog kills the group. The records here are the backstop for a watchdog that
// was killed too (a person's kill of every process, an OOM kill): each group a check runs in is
// recorded in the runtime directory while it runs, and the next hooksup to start ends the groups
// whose hooksup is gone (Sweep) and tells the person what it ended.
//
// The runtime directory, not the state directory: a record names live processes of this boot,
// so it belongs where the sockets are — private to the user, shared by the user's sessions, and
// emptied at logout or reboot, when its pids would mean nothing — rather than in a directory
// kept across reboots. A record costs a file per check running longer than recordDelay.

// groupRecord is one running check's process group, as recorded in the runtime directory.
type groupRecord struct {
	Owner      int    `json:"owner"`       // the hooksup that started it
	OwnerStart uint64 `json:"owner_start"` // and when that started: a pid can be reused
	Pgid       int    `json:"pgid"`        // the group's leader: the check's watchdog (or its shell, without one)
	Start      uint64 `json:"start"`       // when the leader started
	UID        uint32 `json:"uid"`
	Check      string `json:"check"`
	Command    string `json:"command"`

	pids []int // the members a sweep found
}

// groupRecordPath is where the record of the group pgid is: check-<pgid>.json in the runtime
// directory, beside the sockets, one per running check.
func groupRecordPath(runtimeDir string, pgid int) string {
	return filepath.Join(runtimeDir, "check-"+strconv.Itoa(pgid)+".json")
}

// Groups records the process groups of one hooksup's running checks. A nil *Groups
// records nothing.
type Groups struct {
	dir    string
	self   procinfo.Info
	logger *slog.Logger
}

// NewGroups records in runtimeDir; nil (nothing recorded, logged) when hooksup cannot
// tell its own start time.
func NewGroups(runtimeDir string, logger *slog.Logger) *Groups {
	if runtimeDir == "" {
		return nil
	}
	self, err := procinfo.Read(os.Getpid())
	if err != nil {
		logger.Warn("checks' process groups are not recorded: a hooksup killed with SIGKILL may leave them running", "err", err)
		return nil
	}
	return &Groups{dir: runtimeDir, self: self, logger: logger}
}

func (g *Groups) path(pgid int) string { return groupRecordPath(g.dir, pgid) }

// started records the group of a check led by pid (its watchdog, or its shell).
func (g *Groups) started(pid int, c config.Check) {
	if g == nil {
		return
	}
	p, err := procinfo.Read(pid)
	if errors.Is(err, procinfo.ErrNoProcess) {
		return // the leader is gone already, and Run kills the group
	}
	if err != nil {
		g.logger.Warn("a check's process group is not recorded", "check", c.Name, "pgid", pid, "err", err)
		return
	}
	b, _ := json.Marshal(groupRecord{Owner: g.self.Pid, OwnerStart: g.self.Start, Pgid: pid, Start: p.Start,
		UID: p.UID, Check: c.Name, Command: c.Command})
	if err := atomicfile.Write(g.path(pid), b, 0o600); err != nil {
		g.logger.Warn("a check's process group is not recorded", "check", c.Name, "pgid", pid, "err", err)
	}
}

// warn logs what goes wrong with the watch over a check's group.
func (g *Groups) warn(msg string, c config.Check, err error) {
	if g == nil {
		return
	}
	g.logger.Warn(msg, "check", c.Name, "err", err)
}

// ended removes the record of the group led by pid, once it was killed.
func (g *Groups) ended(pid int) {
	if g == nil {
		return
	}
	_ = os.Remove(g.path(pid))
}

// sweepGrace is how long a swept group has after SIGTERM before SIGKILL.
const sweepGrace = time.Second

// Ended is a check's process group that a sweep ended: left running by a hooksup that was
// killed, and by its watchdog.
type Ended struct {
	Check, Command string
	Owner          int   // the pid of the hooksup that ran it
	Pids           []int // the processes of the group the sweep ended
}

// Notice is what the person is told of it, once, by the command that swept: one line, with the
// check's name and command as they are, every control shown visibly.
func (e Ended) Notice() string {
	return fmt.Sprintf("ended what the check \"%s\" left running (`%s`): the hooksup (pid %d) that ran it was killed",
		termsafe.String(e.Check), termsafe.String(clip.Head(e.Command, noticeCommand)), e.Owner)
}

// noticeCommand is how much of a check's command a notice quotes, in bytes.
const noticeCommand = 300

// Sweep ends the checks' process groups recorded in runtimeDir whose hooksup is gone, removes
// their records, and returns what it ended, for the caller to tell the person: a record is
// removed before its group is ended, so that of two hooksups sweeping at once only one ends
// it and says so. A group is ended only when it is verifiably the one recorded (notOurs): its
// leader, if alive, started when the record says, and every member is the user's and started
// no earlier than the leader. Each group gets SIGTERM, then SIGKILL after sweepGrace; each is
// logged.
func Sweep(runtimeDir string, logger *slog.Logger) []Ended {
	if runtimeDir == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(runtimeDir, "check-*.json"))
	var ended []groupRecord
	for _, f := range files {
		rec, ok := readGroupRecord(f)
		if !ok {
			_ = os.Remove(f)
			continue
		}
		if p, err := procinfo.Read(rec.Owner); err == nil && p.Start == rec.OwnerStart {
			continue // its hooksup is running: its checks are its own
		}
		members, err := procinfo.Group(rec.Pgid)
		if err != nil {
			logger.Warn("a check's process group left by a hooksup that is gone could not be looked at", "pgid", rec.Pgid, "check", rec.Check, "err", err)
			continue // keep the record: the next start tries again
		}
		if os.Remove(f) != nil {
			continue // another hooksup swept it
		}
		if len(members) == 0 {
			continue // the watchdog ended it
		}
		if why := notOurs(rec, members); why != "" {
			logger.Info("a recorded check's process group was left alone: it is not the check's any more", "pgid", rec.Pgid, "check", rec.Check, "why", why)
			continue
		}
		_ = syscall.Kill(-rec.Pgid, syscall.SIGTERM)
		logger.Warn("ended a check's process group left running by a hooksup that was killed",
			"pgid", rec.Pgid, "check", rec.Check, "command", rec.Command, "owner", rec.Owner, "pids", pids(members))
		rec.pids = make([]int, len(members))
		for i, p := range members {
			rec.pids[i] = p.Pid
		}
		ended = append(ended, rec)
	}
	if len(ended) == 0 {
		return nil
	}
	deadline := time.Now().Add(sweepGrace)
	for _, rec := range ended {
		for {
			m, err := procinfo.Group(rec.Pgid)
			if err != nil || len(m) == 0 {
				break
			}
			if time.Now().After(deadline) {
				if notOurs(rec, m) == "" {
					_ = syscall.Kill(-rec.Pgid, syscall.SIGKILL)
					logger.Info("a swept check's process group ignored SIGTERM: killed", "pgid", rec.Pgid, "check", rec.Check)
				}
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	out := make([]Ended, len(ended))
	for i, rec := range ended {
		out[i] = Ended{Check: rec.Check, Command: rec.Command, Owner: rec.Owner, Pids: rec.pids}
	}
	return out
}

func readGroupRecord(path string) (groupRecord, bool) {
	var rec groupRecord
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &rec) != nil || rec.Pgid <= 1 {
		return rec, false
	}
	return rec, true
}

// notOurs says why members are not (all) the recorded group's processes, or "" when they are.
// A live leader must have the recorded start time. A pid is not reused while its process group
// lives, so a group whose leader is gone (a check's shell killed by Pdeathsig, its background
// jobs left) is the recorded one unless it died out and the pid counter wrapped round to a new
// group of the user's own, which every check here (uid, started after the leader) lets through.
func notOurs(rec groupRecord, members []procinfo.Info) string {
	uid := uint32(os.Getuid())
	for _, p := range members {
		switch {
		case p.UID != rec.UID || p.UID != uid:
			return fmt.Sprintf("process %d belongs to uid %d", p.Pid, p.UID)
		case p.Pid == rec.Pgid && p.Start != rec.Start:
			return fmt.Sprintf("process %d is not the check's shell: it started at another time", p.Pid)
		case p.Start < rec.Start:
			return fmt.Sprintf("process %d started before the check", p.Pid)
		}
	}
	return ""
}

func pids(ps []procinfo.Info) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = strconv.Itoa(p.Pid)
	}
	return strings.Join(s, ",")
}
