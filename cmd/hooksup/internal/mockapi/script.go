package mockapi

import "sync"

// Script is a Handler serving a fixed sequence of main-agent replies and a
// separate sequence of subagent replies; each sequence repeats its last
// reply once exhausted. Side requests never reach it.
type Script struct {
	Main     []Reply // default: Text("mock reply")
	Subagent []Reply // default: Text("mock subagent reply")

	mu         sync.Mutex
	main, subs int
}

// Reply implements Handler.
func (s *Script) Reply(r *Request) Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Kind == KindSubagent {
		s.subs++
		return pick(s.Subagent, s.subs, Text("mock subagent reply"))
	}
	s.main++
	return pick(s.Main, s.main, Text("mock reply"))
}

// pick is the nth (from 1) of a script's replies rs, its last once they are exhausted, def
// when there are none.
func pick[P any](rs []P, n int, def P) P {
	if len(rs) == 0 {
		return def
	}
	return rs[min(n, len(rs))-1]
}
