package supervisor

import (
	"github.com/hooksup/hooksup/hooks"
)

// ResolveBy answers a pending question as Resolve does, with the verdict's source saying where
// the person answered (see Engine.ResolveBy).
func (s *Supervisor) ResolveBy(id int, d hooks.Decision, reason string, by Source) error {
	return s.engine.ResolveBy(id, d, reason, by)
}
