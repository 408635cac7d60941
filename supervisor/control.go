package supervisor

import (
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/verdictlog"
)

// ResolveBy answers a pending question as Resolve does, with the verdict's source saying where
// the person answered (see Engine.ResolveBy).
func (s *Supervisor) ResolveBy(id int, d hooks.Decision, reason string, by verdictlog.Source) error {
	if ok, err := s.resolvePermission(id, d, reason, by); ok {
		return err
	}
	return s.engine.ResolveBy(id, d, reason, by)
}
