package hub

import "testing"

// BenchmarkSnapshot is one snapshot call, dial to answer, on a real control socket: what
// hooksup ls pays for each session.
func BenchmarkSnapshot(b *testing.B) {
	_, e := serve(b, shortDir(b), "bench", newEngineSession(b), nil)
	c := Client{Path: e.Control}
	for b.Loop() {
		if _, err := c.Snapshot(); err != nil {
			b.Fatal(err)
		}
	}
}
