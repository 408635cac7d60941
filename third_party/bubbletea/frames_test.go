package tea

import (
	"bytes"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// frameCounter is a renderer that counts the frames drawn (flushes) and the
// views handed to it.
type frameCounter struct {
	nilRenderer
	frames atomic.Int64
	views  atomic.Int64
}

func (c *frameCounter) flush(closing bool) error {
	if !closing {
		c.frames.Add(1)
	}
	return nil
}

func (c *frameCounter) render(View) { c.views.Add(1) }

// syncBuffer is a bytes.Buffer safe for the renderer goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p) //nolint:wrapcheck
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startFrames starts the renderer goroutine of a program whose renderer is c,
// at fps, and stops it when the test ends.
func startFrames(t *testing.T, c *frameCounter, fps int) (*Program, *syncBuffer) {
	t.Helper()
	out := &syncBuffer{}
	p := NewProgram(nil, WithFPS(fps), WithOutput(out))
	p.renderer = wakingRenderer{renderer: c, wake: p.requestFrame}
	p.startRenderer()
	t.Cleanup(func() { p.stopRenderer(true) })
	return p, out
}

// waitFrames waits until c has drawn at least n frames (a long deadline: only
// a renderer that never draws runs into it).
func waitFrames(t *testing.T, c *frameCounter, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for c.frames.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d frames drawn, want %d", c.frames.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// settle waits for the renderer to go quiet: a few frame intervals after the
// last frame, the ticker found nothing to draw and stopped.
func settle(c *frameCounter, fps int) int64 {
	interval := time.Second / time.Duration(fps)
	for {
		n := c.frames.Load()
		time.Sleep(5 * interval)
		if c.frames.Load() == n {
			return n
		}
	}
}

func TestFramesNoneWhileNothingChanges(t *testing.T) {
	const fps = 120
	c := &frameCounter{}
	startFrames(t, c, fps)
	waitFrames(t, c, 1) // the first frame, asked for by startRenderer
	n := settle(c, fps)
	// Fifty frame intervals with nothing asked for: nothing is drawn. Upstream
	// drew (flushed) on every one of them.
	time.Sleep(50 * time.Second / fps)
	if got := c.frames.Load(); got != n {
		t.Fatalf("%d frames drawn while nothing changed", got-n)
	}
}

func TestFramesDrawnWhenAskedFor(t *testing.T) {
	const fps = 120
	c := &frameCounter{}
	p, out := startFrames(t, c, fps)
	waitFrames(t, c, 1)
	n := settle(c, fps)

	// A new view after a quiet spell is drawn.
	p.renderer.render(View{})
	waitFrames(t, c, n+1)
	n = settle(c, fps)

	// So is a sequence queued for the output, and it reaches the output.
	p.execute("\x1b]2;title\a")
	waitFrames(t, c, n+1)
	if got := out.String(); got != "\x1b]2;title\a" {
		t.Fatalf("output %q, want the queued sequence", got)
	}
	n = settle(c, fps)

	// And every other change of the renderer's state.
	changes := map[string]func(){
		"resize":          func() { p.renderer.resize(80, 24) },
		"clearScreen":     func() { p.renderer.clearScreen() },
		"insertAbove":     func() { _ = p.renderer.insertAbove("line") },
		"reset":           func() { p.renderer.reset() },
		"setSyncdUpdates": func() { p.renderer.setSyncdUpdates(true) },
	}
	for name, change := range changes {
		change()
		waitFrames(t, c, n+1)
		n = settle(c, fps)
		t.Logf("%s: drawn", name)
	}
}

func TestFramesCoalesceABurst(t *testing.T) {
	const fps = 60
	const views = 200
	c := &frameCounter{}
	p, _ := startFrames(t, c, fps)
	waitFrames(t, c, 1)
	n := settle(c, fps)
	for range views {
		p.renderer.render(View{})
	}
	waitFrames(t, c, n+1)
	drawn := settle(c, fps) - n
	// The views made between two beats are one frame: fewer frames than views.
	if drawn >= views {
		t.Fatalf("%d frames drawn for %d views: not coalesced", drawn, views)
	}
	if got := c.views.Load(); got != views {
		t.Fatalf("renderer got %d views, want %d", got, views)
	}
}

func TestFramesStopEndsTheGoroutineWhileQuiet(t *testing.T) {
	c := &frameCounter{}
	p := NewProgram(nil, WithFPS(120))
	p.renderer = wakingRenderer{renderer: c, wake: p.requestFrame}
	p.startRenderer()
	waitFrames(t, c, 1)
	settle(c, 120)
	done := make(chan struct{})
	go func() {
		p.stopRenderer(true) // blocks until the goroutine took rendererDone
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("stopRenderer did not return: the quiet renderer goroutine did not take rendererDone")
	}
	// Restarted (RestoreTerminal), it draws the repaint.
	n := c.frames.Load()
	p.startRenderer()
	waitFrames(t, c, n+1)
	p.stopRenderer(true)
}
