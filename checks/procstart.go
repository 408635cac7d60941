package checks

// ErrNoProcess is ProcessStart's error when no process runs with the pid (a zombie is none).
var ErrNoProcess = errNoProcess

// ProcessStart is when process pid started, in the system's own unit (see procInfo): a pid and
// its start name one process, where a pid alone may name a later one that got it again. Only
// to be compared with another ProcessStart of the same boot.
func ProcessStart(pid int) (uint64, error) {
	p, err := readProc(pid)
	return p.Start, err
}
