package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The macOS watcher learns only that a directory changed; listing it again tells which entries
// came (Create) and went (Remove).
func TestDirEntriesDiff(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.jsonl", "b.jsonl"} {
		appendFile(t, filepath.Join(dir, n), "x\n")
	}
	before, err := listDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(dir, "c.jsonl"), "x\n")
	appendFile(t, filepath.Join(dir, "a.jsonl"), "more\n") // a write is no entry change
	if err := os.Remove(filepath.Join(dir, "b.jsonl")); err != nil {
		t.Fatal(err)
	}
	now, err := listDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range before.diff(dir, now) {
		got = append(got, ev.Op.String()+" "+filepath.Base(ev.Name))
		if filepath.Dir(ev.Name) != dir {
			t.Errorf("event %v not named by its path in %s", ev, dir)
		}
	}
	slices.Sort(got)
	want(t, slices.Equal(got, []string{"CREATE c.jsonl", "REMOVE b.jsonl"}), true)
	if evs := now.diff(dir, now); len(evs) != 0 {
		t.Errorf("no change gave %v", evs)
	}
	gone, err := listDir(filepath.Join(dir, "missing"))
	if err != nil || len(gone) != 0 {
		t.Errorf("a missing directory: %v %v", gone, err)
	}
}
