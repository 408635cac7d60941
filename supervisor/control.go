package supervisor

import (
	"net"

	"github.com/hooksup/hooksup/hooks"
)

// ResolveBy answers a pending question as Resolve does, with the verdict's source saying where
// the person answered (see Engine.ResolveBy).
func (s *Supervisor) ResolveBy(id int, d hooks.Decision, reason string, by Source) error {
	return s.engine.ResolveBy(id, d, reason, by)
}

// PeerUID is the uid of the process at the other end of c, from the kernel: the check the hook
// socket makes, for other sockets of a session to make too.
func PeerUID(c *net.UnixConn) (int, error) { return peerUID(c) }
