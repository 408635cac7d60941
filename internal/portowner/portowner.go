// Package portowner tells who holds a TCP port that a listen found in use: the user (and, where
// this user may see it, the process) listening there.
package portowner

import (
	"fmt"
	"net"
	"os/user"
)

// Owner is the listener found on an address.
type Owner struct {
	UID int
	PID int // 0 when it cannot be seen (another user's process)
}

// Name is the owner's user name, "uid N" when it has none.
func (o Owner) Name() string {
	if u, err := user.LookupId(fmt.Sprint(o.UID)); err == nil && u.Username != "" {
		return fmt.Sprintf("%s (uid %d)", u.Username, o.UID)
	}
	return fmt.Sprintf("uid %d", o.UID)
}

// Of returns who listens on addr ("127.0.0.1:7862"), or on the unspecified address at its port;
// ok false when no one can be found.
func Of(addr string) (o Owner, ok bool, err error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return Owner{}, false, err
	}
	port, err := net.LookupPort("tcp", portText)
	if err != nil {
		return Owner{}, false, err
	}
	ip := net.ParseIP(host)
	if host == "localhost" {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return of(ip, port)
}

// covers reports whether a listener on l holds an address of ip: the same address, or the
// unspecified one.
func covers(l, ip net.IP) bool {
	return l.IsUnspecified() || ip == nil || l.Equal(ip)
}
