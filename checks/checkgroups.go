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
	"github.com/hooksup/hooksup/internal/procinfo"
)

// A check runs in its own process group, and hooksup kills the group at the check's timeout, on
// Escape and when the check exits. A hooksup killed with SIGKILL does none of that: on macOS
// nothing ends the group (there is no Pdeathsig), and on Linux Pdeathsig ends only the check's
// shell, not what the shell left running in its group. So each group a session starts is
// recorded in the runtime directory while it runs, and the next hooksup to start ends the
// groups whose hooksup is gone (Sweep).
//
// The runtime directory, not the state directory: a record names live processes of this boot,
// so it belongs where the sockets are — private to the user, shared by the user's sessions, and
// emptied at logout or reboot, when its pids would mean nothing — rather than in a directory
// kept across reboots. A sweep at the next start rather than a watchdog process: a watchdog
// would be one more process per session to keep alive and to kill, and dies with its session
// when the terminal's process group is killed; a record costs a file per running check, and
// its only weakness is that the groups live on until hooksup next starts.

// groupRecord is one running check's process group, as recorded in the runtime directory.
type groupRecord struct {
	Owner      int    `json:"owner"`       // the hooksup that started it
	OwnerStart uint64 `json:"owner_start"` // and when that started: a pid can be reused
	Pgid       int    `json:"pgid"`        // the check's shell, its group's leader
	Start      uint64 `json:"start"`       // when the shell started
	UID        uint32 `json:"uid"`
	Check      string `json:"check"`
	Command    string `json:"command"`
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

// started records the group of a check whose shell (the group's leader) is pid.
func (g *Groups) started(pid int, c config.Check) {
	if g == nil {
		return
	}
	p, err := procinfo.Read(pid)
	if errors.Is(err, procinfo.ErrNoProcess) {
		return // the shell is done already, and Run kills its group when it is
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

// ended removes the record of the group led by pid, once it was killed.
func (g *Groups) ended(pid int) {
	if g == nil {
		return
	}
	_ = os.Remove(g.path(pid))
}

// sweepGrace is how long a swept group has after SIGTERM before SIGKILL.
const sweepGrace = time.Second

// Sweep ends the checks' process groups recorded in runtimeDir whose hooksup is
// gone, and removes their records. A group is ended only when it is verifiably the one
// recorded (notOurs): its leader, if alive, started when the record says, and every member is
// the user's and started no earlier than the leader. Each group gets SIGTERM, then SIGKILL
// after sweepGrace; each is logged.
func Sweep(runtimeDir string, logger *slog.Logger) {
	if runtimeDir == "" {
		return
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
		_ = os.Remove(f)
		if len(members) == 0 {
			continue
		}
		if why := notOurs(rec, members); why != "" {
			logger.Info("a recorded check's process group was left alone: it is not the check's any more", "pgid", rec.Pgid, "check", rec.Check, "why", why)
			continue
		}
		_ = syscall.Kill(-rec.Pgid, syscall.SIGTERM)
		logger.Warn("ended a check's process group left running by a hooksup that was killed",
			"pgid", rec.Pgid, "check", rec.Check, "command", rec.Command, "owner", rec.Owner, "pids", pids(members))
		ended = append(ended, rec)
	}
	if len(ended) == 0 {
		return
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
