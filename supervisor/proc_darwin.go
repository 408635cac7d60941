package supervisor

import "syscall"

// checkProcAttr puts a check in its own process group, so that killing the group ends all it
// started (at its timeout, on Escape, when it exits).
//
// macOS has no Pdeathsig: a check outlives a hooksup killed with SIGKILL, and so does anything
// that left the check's group. Sweeping those up after a SIGKILL (a watcher process, or kqueue
// NOTE_EXIT on hooksup's pid) is not done yet.
func checkProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
