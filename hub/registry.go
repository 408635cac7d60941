package hub

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hooksup/hooksup/internal/atomicfile"
	"github.com/hooksup/hooksup/internal/procinfo"
)

// Entry is a session's registration: <runtime dir>/<ID>.session.json, beside its sockets.
type Entry struct {
	ID    string `json:"id"`
	Agent string `json:"agent"`
	Cwd   string `json:"cwd"`
	PID   int    `json:"pid"`
	// PIDStart is when the process PID started (procinfo.Read): with it, a supervisor
	// whose pid a later process got is known to be gone. Register sets it.
	PIDStart uint64    `json:"pid_start,omitempty"`
	Started  time.Time `json:"started"`
	Mode     string    `json:"mode"`
	Control  string    `json:"control"`           // the control socket's path
	Hooksup  string    `json:"hooksup,omitempty"` // the version of the hooksup that started it
}

const entrySuffix = ".session.json"

// ControlPath is the control socket of the session whose hook socket is hookSocket
// (<dir>/<id>.sock → <dir>/<id>.ctl).
func ControlPath(hookSocket string) string {
	return strings.TrimSuffix(hookSocket, ".sock") + ".ctl"
}

// Register writes e in dir (0600, whole or not at all), with the start time of its process,
// and returns the function that removes it.
func Register(dir string, e Entry) (func(), error) {
	if e.PIDStart == 0 {
		if p, err := procinfo.Read(e.PID); err == nil {
			e.PIDStart = p.Start
		} // 0 when unknown: the pid alone then
	}
	b, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, e.ID+entrySuffix)
	if err := atomicfile.Write(path, append(b, '\n'), 0o600); err != nil {
		return nil, fmt.Errorf("register the session: %w", err)
	}
	return func() { os.Remove(path) }, nil
}

// Live is a registered session that answered: its entry and its snapshot, or, when it speaks
// another version of the protocol, Err (a *VersionError) and a Snapshot of what its entry says
// (id, agent, cwd, pid, start, mode).
type Live struct {
	Entry    Entry
	Snapshot Snapshot
	Err      error
	Host     string // the host it runs on, as Remote names it; "" for this machine
}

// List returns the sessions registered in dir that answer on their control socket, oldest
// first, those that answer in another protocol version too (with Err). An entry whose
// supervisor is gone (see gone, or nothing listens on its socket) is never listed, and is
// removed with its socket; one that does not answer is not listed.
func List(dir string) ([]Live, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*"+entrySuffix))
	if err != nil {
		return nil, err
	}
	type result struct {
		live Live
		ok   bool
	}
	results := make([]result, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Go(func() {
			e, ok := readEntry(p)
			if !ok {
				return
			}
			if gone(e) {
				removeEntry(p, e)
				return
			}
			snap, err := Client{Path: e.Control}.Snapshot()
			if verr, ok := errors.AsType[*VersionError](err); ok {
				verr.PID, verr.Hooksup = e.PID, e.Hooksup
				results[i] = result{Live{Entry: e, Snapshot: registered(e), Err: verr}, true}
				return
			}
			if err != nil {
				if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, os.ErrNotExist) {
					removeEntry(p, e)
				}
				return
			}
			results[i] = result{Live{Entry: e, Snapshot: snap}, true}
		})
	}
	wg.Wait()
	var out []Live
	for _, r := range results {
		if r.ok {
			out = append(out, r.live)
		}
	}
	slices.SortFunc(out, func(a, b Live) int { return a.Entry.Started.Compare(b.Entry.Started) })
	return out, nil
}

// registered is what e says of its session, as a snapshot.
func registered(e Entry) Snapshot {
	return Snapshot{ID: e.ID, Agent: e.Agent, Cwd: e.Cwd, PID: e.PID, Started: e.Started, Mode: e.Mode, Pending: []Question{}}
}

func readEntry(path string) (Entry, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Entry{}, false
	}
	var e Entry
	if json.Unmarshal(b, &e) != nil || e.ID == "" || e.Control == "" {
		// Half-written entries are never seen (Register renames); this one is not hooksup's.
		return Entry{}, false
	}
	return e, true
}

// Sweep removes the entries in dir whose supervisor is verifiably gone (see gone), with their
// control sockets. Every session's start calls it, so a session killed with SIGKILL leaves no
// registration behind once the next one starts, whether or not anyone ran hooksup ls.
func Sweep(dir string) {
	if dir == "" {
		return
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*"+entrySuffix))
	for _, p := range paths {
		if e, ok := readEntry(p); ok && gone(e) {
			removeEntry(p, e)
		}
	}
}

// gone reports whether e's supervisor is verifiably not running: no process has its pid, or
// the one that has it did not start when the entry says (the pid was given again). An entry
// without a start time is gone only when no process has its pid.
func gone(e Entry) bool {
	if e.PID <= 0 {
		return true
	}
	p, err := procinfo.Read(e.PID)
	if errors.Is(err, procinfo.ErrNoProcess) {
		return true
	}
	if err != nil { // the system's process table is not readable here: the kernel's word
		return !processAlive(e.PID)
	}
	return e.PIDStart != 0 && p.Start != e.PIDStart
}

// removeEntry removes a dead session's entry and its control socket.
func removeEntry(path string, e Entry) {
	os.Remove(path)
	if filepath.Dir(e.Control) == filepath.Dir(path) {
		os.Remove(e.Control)
	}
}

// processAlive reports whether a process with pid exists (signal 0 asks the kernel without
// sending anything; EPERM is a live process of another user).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// dialTimeout bounds connecting to a control socket: a live session accepts at once.
const dialTimeout = time.Second

func dial(path string) (*net.UnixConn, error) {
	c, err := net.DialTimeout("unix", path, dialTimeout)
	if err != nil {
		return nil, err
	}
	return c.(*net.UnixConn), nil
}
