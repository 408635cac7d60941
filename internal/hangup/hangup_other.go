//go:build !linux && !darwin

package hangup

func isTerminal(uintptr) bool { return false }

func waitHangup([]tty, int) (string, bool) { return "", false }
