package checks

import "syscall"

// checkProcAttr puts a check in its own process group, so that killing the group ends all it
// started, and has the kernel kill the check's shell should hooksup die first. What the shell
// left running in its group outlives it: the group is recorded while it runs, and the next
// hooksup to start ends it (checkgroups.go).
func checkProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
