//go:build !linux && !darwin

package checks

import "syscall"

// checkProcAttr puts a check in the process group pgid (its watchdog's, watchdog.go), or in a
// group of its own when pgid is 0, so that killing the group ends all it started.
func checkProcAttr(pgid int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
}
