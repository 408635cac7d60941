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
		return pick(s.Subagent, s.subs, "mock subagent reply")
	}
	s.main++
	return pick(s.Main, s.main, "mock reply")
}

func pick(rs []Reply, n int, def string) Reply {
	if len(rs) == 0 {
		return Text(def)
	}
	return rs[min(n, len(rs))-1]
}
