package checks

import (
	"golang.org/x/sys/unix"
)

// szomb is a zombie's p_stat (sys/proc.h).
const szomb = 5

// info takes what hooksup needs from a kinfo_proc: the start time as microseconds since the
// epoch, the real uid. A zombie is as good as gone.
func info(k *unix.KinfoProc) (procInfo, bool) {
	if k.Proc.P_stat == szomb {
		return procInfo{}, false
	}
	tv := k.Proc.P_starttime
	return procInfo{Pid: int(k.Proc.P_pid), Pgid: int(k.Eproc.Pgid), UID: k.Eproc.Ucred.Uid,
		Start: uint64(tv.Sec)*1e6 + uint64(tv.Usec)}, true
}

// readProc asks sysctl kern.proc.pid.<pid> (an empty answer: no such process).
func readProc(pid int) (procInfo, error) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err == unix.EIO || err == unix.ESRCH || (err == nil && int(k.Proc.P_pid) != pid) {
		return procInfo{}, errNoProcess
	}
	if err != nil {
		return procInfo{}, err
	}
	p, ok := info(k)
	if !ok {
		return procInfo{}, errNoProcess
	}
	return p, nil
}

// groupMembers asks sysctl kern.proc.pgrp.<pgid> for the live processes in the group.
func groupMembers(pgid int) ([]procInfo, error) {
	ks, err := unix.SysctlKinfoProcSlice("kern.proc.pgrp", pgid)
	if err != nil {
		return nil, err
	}
	var out []procInfo
	for i := range ks {
		if p, ok := info(&ks[i]); ok {
			out = append(out, p)
		}
	}
	return out, nil
}
