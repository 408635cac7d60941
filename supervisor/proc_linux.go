package supervisor

import "syscall"

// checkProcAttr puts a check in its own process group, so that killing the group ends all it
// started, and has the kernel kill it should hooksup die first.
func checkProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
