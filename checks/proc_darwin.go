package checks

import "syscall"

// checkProcAttr puts a check in the process group pgid (its watchdog's, watchdog.go), or in a
// group of its own when pgid is 0, so that killing the group ends all it started (at its
// timeout, on Escape, when it exits).
//
// macOS has no Pdeathsig: should hooksup be killed with SIGKILL, the watchdog ends the group;
// failing that, the record of the group (checkgroups.go) has the next hooksup end it.
func checkProcAttr(pgid int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pgid: pgid}
}
