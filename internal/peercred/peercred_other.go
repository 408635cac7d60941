//go:build !linux && !darwin

package peercred

import (
	"errors"
	"net"
	"runtime"
)

// UID cannot learn the peer's uid here, so every connection is refused (and each hook
// fails open): the socket is never open to an unknown peer.
func UID(*net.UnixConn) (int, error) {
	return -1, errors.New("peer credentials are not supported on " + runtime.GOOS)
}
