package hangup

import "golang.org/x/sys/unix"

// waitHangup blocks until one of ttys hangs up (its name, true) or the write end of stop's pipe
// is closed (false). Each terminal is polled for no event at all: poll reports POLLHUP and
// POLLERR whatever is asked, so neither input typed nor output written wakes it, and a terminal
// that hangs up (a pty whose other side closed: its descriptors become hung-up ones) wakes it
// at once.
func waitHangup(ttys []tty, stop int) (string, bool) {
	fds := []unix.PollFd{{Fd: int32(stop), Events: unix.POLLIN}}
	for _, t := range ttys {
		fds = append(fds, unix.PollFd{Fd: int32(t.fd)})
	}
	for {
		if _, err := unix.Poll(fds, -1); err == unix.EINTR {
			continue
		} else if err != nil {
			return "", false // cannot watch: SIGHUP alone ends the command
		}
		if fds[0].Revents != 0 {
			return "", false
		}
		for i := range fds[1:] {
			switch r := fds[i+1].Revents; {
			case r&(unix.POLLHUP|unix.POLLERR) != 0:
				return ttys[i].name, true
			case r&unix.POLLNVAL != 0:
				fds[i+1].Fd = -1 // closed by its owner: no longer the terminal's
			}
		}
	}
}
