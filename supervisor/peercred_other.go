//go:build !linux && !darwin

package supervisor

import (
	"errors"
	"net"
	"runtime"
)

// peerUID cannot learn the peer's uid here, so every connection is refused (and each hook
// fails open): the socket is never open to an unknown peer.
func peerUID(*net.UnixConn) (int, error) {
	return -1, errors.New("peer credentials are not supported on " + runtime.GOOS)
}
