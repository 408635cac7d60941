package checks

import "syscall"

// checkProcAttr puts a check in the process group pgid (its watchdog's, watchdog.go), or in a
// group of its own when pgid is 0, so that killing the group ends all it started, and has the
// kernel kill the check's shell should hooksup die first. What the shell left running in its
// group the watchdog ends; failing that, the record of the group (checkgroups.go) has the next
// hooksup end it.
func checkProcAttr(pgid int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pgid: pgid, Pdeathsig: syscall.SIGKILL}
}
