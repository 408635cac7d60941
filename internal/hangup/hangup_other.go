//go:build !linux && !darwin

package hangup

func waitHangup([]tty, int) (string, bool) { return "", false }
