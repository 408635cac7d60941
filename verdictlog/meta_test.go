package verdictlog

import (
	"testing"
	"time"
)

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		dir, project string
		want         bool
	}{
		{"/src/a", "/src/a", true},
		{"/src/a/sub/x", "/src/a", true},
		{"/src/ab", "/src/a", false},
		{"/src", "/src/a", false},
		{"/src/a", "", false},
		{"/anything", "/", true},
	} {
		if got := Within(tc.dir, tc.project); got != tc.want {
			t.Errorf("Within(%q, %q) = %v", tc.dir, tc.project, got)
		}
	}
}

// A session's description is written with its first verdict and kept: a second run of the same
// session (resumed) does not move its project or start; a later session of the same writer
// starts at its first question.
func TestMetaWrittenOnce(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	asked := start.Add(time.Hour)
	w := &Writer{Dir: dir, Meta: Meta{Project: "/src/a", Agent: "claude", Started: start}}
	w.Append(Verdict{SessionID: "one", Time: asked})
	w.Append(Verdict{SessionID: "two", Asked: asked, Time: asked.Add(time.Second)})
	w.Close()
	again := &Writer{Dir: dir, Meta: Meta{Project: "/src/b", Started: asked}}
	again.Append(Verdict{SessionID: "one", Time: asked})
	again.Close()
	for id, want := range map[string]Meta{
		"one": {Project: "/src/a", Agent: "claude", Started: start},
		"two": {Project: "/src/a", Agent: "claude", Started: asked},
	} {
		m, err := ReadMeta(dir, id)
		if err != nil || m.Project != want.Project || m.Agent != want.Agent || !m.Started.Equal(want.Started) {
			t.Errorf("session %s: %+v %v, want %+v", id, m, err, want)
		}
	}
}
