package supervisor

import "time"

// Typed is the front end owning the agent's terminal saying the person pressed a key there at
// at: a front end away from the terminal (hooksup web's pushes) tells no one of a wait while
// they are at it.
func (s *Supervisor) Typed(at time.Time) { s.lastKey.Store(at.UnixNano()) }

// lastKeyAt is the time of the person's last key at the terminal; zero before the first.
func (s *Supervisor) lastKeyAt() time.Time {
	if n := s.lastKey.Load(); n != 0 {
		return time.Unix(0, n)
	}
	return time.Time{}
}
