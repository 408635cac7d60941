package web

import (
	"net"
	"sync"
	"time"
)

// localAddrsFresh is how long the machine's interface addresses are taken as read: a request
// naming an address asks the kernel at most once in that time, however many come (a flood of
// foreign Hosts costs a map lookup each), and an address a network change gives the machine is
// answered to within it.
const localAddrsFresh = 2 * time.Second

// localAddrs are this machine's interface addresses, read at most once per localAddrsFresh.
type localAddrs struct {
	read func() ([]net.Addr, error) // net.InterfaceAddrs; a test counts the reads
	now  func() time.Time

	mu  sync.Mutex
	at  time.Time
	ips []net.IP
}

func newLocalAddrs() *localAddrs {
	return &localAddrs{read: net.InterfaceAddrs, now: time.Now}
}

// has reports whether host is an IP address of one of this machine's interfaces. An address,
// unlike a name, cannot be pointed at this machine by someone else's DNS.
func (l *localAddrs) has(host string) bool {
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if now := l.now(); l.at.IsZero() || now.Sub(l.at) >= localAddrsFresh || now.Before(l.at) {
		l.at, l.ips = now, nil
		addrs, err := l.read()
		if err != nil {
			return false
		}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				l.ips = append(l.ips, n.IP)
			}
		}
	}
	for _, own := range l.ips {
		if own.Equal(ip) {
			return true
		}
	}
	return false
}

// IsLoopback reports whether host (a name or an address, without a port) is this machine's
// loopback: localhost, 127.0.0.0/8, ::1. A phone that opens it opens itself.
func IsLoopback(host string) bool { return isLoopback(host) }
