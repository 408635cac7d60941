package procinfo

import (
	"golang.org/x/sys/unix"
)

// szomb is a zombie's p_stat (sys/proc.h).
const szomb = 5

// info takes what hooksup needs from a kinfo_proc: the start time as microseconds since the
// epoch, the real uid. A zombie is as good as gone.
func info(k *unix.KinfoProc) (Info, bool) {
	if k.Proc.P_stat == szomb {
		return Info{}, false
	}
	tv := k.Proc.P_starttime
	return Info{Pid: int(k.Proc.P_pid), Pgid: int(k.Eproc.Pgid), UID: k.Eproc.Ucred.Uid,
		Start: uint64(tv.Sec)*1e6 + uint64(tv.Usec)}, true
}

// Read asks sysctl kern.proc.pid.<pid> (an empty answer: no such process).
func Read(pid int) (Info, error) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err == unix.EIO || err == unix.ESRCH || (err == nil && int(k.Proc.P_pid) != pid) {
		return Info{}, ErrNoProcess
	}
	if err != nil {
		return Info{}, err
	}
	p, ok := info(k)
	if !ok {
		return Info{}, ErrNoProcess
	}
	return p, nil
}

// Group asks sysctl kern.proc.pgrp.<pgid> for the live processes in the group.
func Group(pgid int) ([]Info, error) {
	ks, err := unix.SysctlKinfoProcSlice("kern.proc.pgrp", pgid)
	if err != nil {
		return nil, err
	}
	var out []Info
	for i := range ks {
		if p, ok := info(&ks[i]); ok {
			out = append(out, p)
		}
	}
	return out, nil
}
