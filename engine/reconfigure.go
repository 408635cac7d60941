package engine

import "github.com/hooksup/hooksup/config"

// nextConfig is a configuration waiting for the next stop.
type nextConfig struct {
	cfg     config.Config
	applied func()
}

// Reconfigure has the stops that come from now on decided by cfg: its checks, its mode and its
// limits. It takes effect as a stop arrives while no other is being decided, so that no stop's
// checks change in the middle; applied (nil: none) is called then, once, under the engine's
// lock. A later call replaces a configuration still waiting.
func (e *Engine) Reconfigure(cfg config.Config, applied func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.next = &nextConfig{cfg: cfg, applied: applied}
}

// takeNext switches to the configuration waiting, if any, when no stop is being decided; the
// caller holds e.mu. A stop reads e.cfg without the lock only while it is being decided (from
// admit to conclude), so none reads it as it changes.
func (e *Engine) takeNext() {
	if e.next == nil || len(e.deciding) > 0 {
		return
	}
	n := e.next
	e.next, e.cfg = nil, n.cfg
	if n.applied != nil {
		n.applied()
	}
}
