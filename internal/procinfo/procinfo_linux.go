package procinfo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// Read reads /proc/<pid>/stat: the process group and the start time (clock ticks after
// boot, field 22), and the owner of /proc/<pid> (the process's uid).
func Read(pid int) (Info, error) {
	dir := "/proc/" + strconv.Itoa(pid)
	b, err := os.ReadFile(dir + "/stat")
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
		return Info{}, ErrNoProcess
	}
	if err != nil {
		return Info{}, err
	}
	p, zombie, err := parseStat(b)
	if err != nil {
		return Info{}, fmt.Errorf("%s/stat: %w", dir, err)
	}
	if zombie {
		return Info{}, ErrNoProcess
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return Info{}, ErrNoProcess
	}
	p.Pid, p.UID = pid, fi.Sys().(*syscall.Stat_t).Uid
	return p, nil
}

// parseStat takes the group and start time from a /proc/<pid>/stat line: after the command in
// parentheses (which may hold spaces and parentheses itself) come state (field 3), ppid, pgrp
// (5) … starttime (22).
func parseStat(b []byte) (p Info, zombie bool, err error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return p, false, errors.New("no command")
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return p, false, errors.New("too few fields")
	}
	pgid, err1 := strconv.Atoi(string(f[2]))
	start, err2 := strconv.ParseUint(string(f[19]), 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return p, false, err
	}
	return Info{Pgid: pgid, Start: start}, string(f[0]) == "Z", nil
}

// Group lists the live processes in process group pgid, from /proc. Every process's stat is
// read into one buffer and its group compared before anything else is asked of it: a check's
// end asks this of a machine of hundreds of processes.
func Group(pgid int) ([]Info, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return nil, err
	}
	var out []Info
	buf := make([]byte, 4096)
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		fd, err := syscall.Open("/proc/"+name+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		n, err := syscall.Read(fd, buf)
		syscall.Close(fd)
		if err != nil || n <= 0 {
			continue
		}
		if p, _, err := parseStat(buf[:n]); err != nil || p.Pgid != pgid {
			continue
		}
		if p, err := Read(pid); err == nil && p.Pgid == pgid {
			out = append(out, p)
		}
	}
	return out, nil
}
