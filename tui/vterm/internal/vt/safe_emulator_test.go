package vt

import (
	"io"
	"sync"
	"testing"
)

// Reading a cell, rendering or taking the touched lines writes a row's pending text into its
// cells (pending.go), so two readers of a SafeEmulator at once must not share its lock: under
// the race detector this fails when they do.
func TestSafeEmulatorConcurrentReads(t *testing.T) {
	se := NewSafeEmulator(20, 4)
	go func() { _, _ = io.Copy(io.Discard, se) }()
	defer func() { _ = se.InputPipe().(io.Closer).Close() }()
	_, _ = se.Write([]byte("hello\r\nworld\r\n"))
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			switch i {
			case 0, 1:
				for y := range 4 {
					for x := range 20 {
						se.CellAt(x, y)
					}
				}
			case 2:
				_ = se.Render()
			default:
				_ = se.Touched()
			}
		})
	}
	wg.Wait()
	if c := se.CellAt(0, 1); c == nil || c.Content != "w" {
		t.Fatalf("CellAt(0, 1) = %#v, want w", c)
	}
}
