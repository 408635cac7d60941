package web

import "net"

// isLocalAddr reports whether host is an IP address of one of this machine's interfaces. An
// address, unlike a name, cannot be pointed at this machine by someone else's DNS.
func isLocalAddr(host string) bool {
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}

// IsLoopback reports whether host (a name or an address, without a port) is this machine's
// loopback: localhost, 127.0.0.0/8, ::1. A phone that opens it opens itself.
func IsLoopback(host string) bool { return isLoopback(host) }
