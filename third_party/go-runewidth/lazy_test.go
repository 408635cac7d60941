package runewidth

import (
	"os"
	"os/exec"
	"testing"
)

// The width tables are built on the first width asked for, not at init. The check runs in a
// process of its own, where nothing asked for a width before it.
func TestTablesBuiltOnFirstWidth(t *testing.T) {
	if os.Getenv("RUNEWIDTH_LAZY_CHILD") == "1" {
		if zerowidth != nil || eastAsianWidth != nil || strictWidthLUT[0]['a'] != 0 || strictWidthLUT[1][0x4E16] != 0 {
			t.Fatal("the width tables were built before any width was asked for")
		}
		if w := RuneWidth('世'); w != 2 {
			t.Fatalf("RuneWidth('世') = %d, want 2", w)
		}
		if zerowidth == nil || strictWidthLUT[0]['a'] != 1 || strictWidthLUT[1][0x4E16] != 2 {
			t.Fatal("the width tables were not built on the first width asked for")
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTablesBuiltOnFirstWidth$", "-test.count=1")
	cmd.Env = append(os.Environ(), "RUNEWIDTH_LAZY_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// Every width is asked for from many goroutines at once: the tables are built once, and every
// goroutine sees them whole (run with -race).
func TestTablesBuiltOnceUnderConcurrency(t *testing.T) {
	if os.Getenv("RUNEWIDTH_LAZY_CHILD") == "2" {
		done := make(chan int)
		for range 8 {
			go func() { done <- StringWidth("世界 abc") }()
		}
		for range 8 {
			if w := <-done; w != 8 {
				t.Errorf("StringWidth = %d, want 8", w)
			}
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestTablesBuiltOnceUnderConcurrency$", "-test.count=1")
	cmd.Env = append(os.Environ(), "RUNEWIDTH_LAZY_CHILD=2")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
