package checks

import "syscall"

// checkProcAttr puts a check in its own process group, so that killing the group ends all it
// started (at its timeout, on Escape, when it exits).
//
// macOS has no Pdeathsig: a check outlives a hooksup killed with SIGKILL. Its group is recorded
// while it runs, and the next hooksup to start ends it (checkgroups.go).
func checkProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
