package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// execHooksup makes this process `hooksup hook ARGS…`, with the same environment and its
// standard input unread. It returns only when that fails.
func execHooksup(args []string) error {
	bin, err := hooksupBeside()
	if err != nil {
		return err
	}
	return syscall.Exec(bin, append([]string{bin, "hook"}, args...), os.Environ())
}

// hooksupBeside is the hooksup installed with this hooksup-hook: in the directory of the file
// this program runs from (a symbolic link followed: Homebrew links both from one folder), else
// the one on PATH.
func hooksupBeside() (string, error) {
	self, err := os.Executable()
	if err == nil {
		if target, err := filepath.EvalSymlinks(self); err == nil {
			self = target
		}
		bin := filepath.Join(filepath.Dir(self), "hooksup")
		if fi, err := os.Stat(bin); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return bin, nil
		}
	}
	bin, err := exec.LookPath("hooksup")
	if err != nil {
		return "", errors.New("no hooksup beside hooksup-hook nor on PATH")
	}
	return bin, nil
}
