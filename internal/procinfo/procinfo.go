// Package procinfo reads what the system says of a process: its group, its owner and when it
// started (/proc on Linux, sysctl kern.proc on macOS). A pid and its start time name one
// process, where a pid alone may name a later one that got it again: the sweeps of check groups
// and of hub registrations rely on it.
package procinfo

import "errors"

// Info is what the system says of one process. Start is when it started, in the system's own
// unit (Linux: clock ticks after boot; macOS: microseconds since the epoch): only compared.
type Info struct {
	Pid, Pgid int
	UID       uint32
	Start     uint64
}

// ErrNoProcess: the process does not exist (or is a zombie, as good as gone).
var ErrNoProcess = errors.New("no such process")
