package hangup

import "golang.org/x/sys/unix"

// waitHangup blocks until one of ttys hangs up (its name, true) or the write end of stop's pipe
// is closed (false). macOS's poll registers nothing for a descriptor polled for no event, so
// each terminal is watched with kqueue for reading, edge-triggered (EV_CLEAR): a key typed
// wakes it once, and a terminal that hangs up (its pty's other side closed) reports EV_EOF.
func waitHangup(ttys []tty, stop int) (string, bool) {
	kq, err := unix.Kqueue()
	if err != nil {
		return "", false // cannot watch: SIGHUP alone ends the command
	}
	defer unix.Close(kq)
	changes := []unix.Kevent_t{{Ident: uint64(stop), Filter: unix.EVFILT_READ, Flags: unix.EV_ADD}}
	names := map[uint64]string{}
	for _, t := range ttys {
		changes = append(changes, unix.Kevent_t{Ident: uint64(t.fd), Filter: unix.EVFILT_READ, Flags: unix.EV_ADD | unix.EV_CLEAR})
		names[uint64(t.fd)] = t.name
	}
	events := make([]unix.Kevent_t, len(changes))
	for {
		n, err := unix.Kevent(kq, changes, events, nil)
		changes = nil
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return "", false
		}
		for _, ev := range events[:n] {
			switch {
			case ev.Ident == uint64(stop):
				return "", false
			case ev.Flags&unix.EV_ERROR != 0:
				// This one cannot be watched (a registration refused): the others still are.
			case ev.Flags&unix.EV_EOF != 0:
				return names[ev.Ident], true
			}
		}
	}
}
