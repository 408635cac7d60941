//go:build !linux && !darwin

package checks

import "syscall"

// checkProcAttr puts a check in its own process group, so that killing the group ends all it
// started.
func checkProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
