package tea

import (
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Demand-driven frames: a local change to Bubble Tea v2.0.10 (see README.hooksup.md).
//
// Upstream, startRenderer runs a ticker at the frame rate for the program's
// whole life, so an idle program wakes fps times a second to find that nothing
// changed. Here the renderer goroutine sleeps until something asks for a frame:
// a new view (every Update is followed by one), a sequence queued for the
// output, or any other change of the renderer's state. A request starts the
// ticker; frames are drawn on its beats, as upstream draws them, the requests
// made between two beats coalescing into one frame; the first beat that finds
// no request stops the ticker. A frame is drawn at most one frame interval
// after it was asked for, as upstream, and the output is the same: upstream's
// extra beats only found the view unchanged.

// requestFrame asks the renderer goroutine for a frame. It never blocks: the
// requests made before the next frame is drawn are one request. Call it after
// the state to draw has changed.
func (p *Program) requestFrame() {
	select {
	case p.frameWanted <- struct{}{}:
	default:
	}
}

// drawFrames is the renderer goroutine: it draws on the ticker's beats, as
// upstream does, but runs the ticker only while frames are wanted, until
// rendererDone.
func (p *Program) drawFrames(framerate time.Duration) {
	for {
		// Quiet: nothing to draw, no ticker.
		select {
		case <-p.rendererDone:
			return
		case <-p.frameWanted:
		}
		p.requestFrame() // the request is for the next beat
		p.ticker.Reset(framerate)
		// Busy: on each beat, draw if a frame was asked for since the last
		// one; stop at the first beat with none.
		for busy := true; busy; {
			select {
			case <-p.rendererDone:
				p.ticker.Stop()
				return
			case <-p.ticker.C:
				select {
				case <-p.frameWanted:
					_ = p.flush()
					_ = p.renderer.flush(false)
				default:
					p.ticker.Stop()
					busy = false
				}
			}
		}
	}
}

// wakingRenderer asks for a frame after every change of the renderer's state.
type wakingRenderer struct {
	renderer
	wake func()
}

func (r wakingRenderer) render(v View) {
	r.renderer.render(v)
	r.wake()
}

func (r wakingRenderer) reset() {
	r.renderer.reset()
	r.wake()
}

func (r wakingRenderer) insertAbove(s string) error {
	defer r.wake()
	return r.renderer.insertAbove(s) //nolint:wrapcheck
}

func (r wakingRenderer) setSyncdUpdates(syncd bool) {
	r.renderer.setSyncdUpdates(syncd)
	r.wake()
}

func (r wakingRenderer) setWidthMethod(m ansi.Method) {
	r.renderer.setWidthMethod(m)
	r.wake()
}

func (r wakingRenderer) resize(w, h int) {
	r.renderer.resize(w, h)
	r.wake()
}

func (r wakingRenderer) setColorProfile(cp colorprofile.Profile) {
	r.renderer.setColorProfile(cp)
	r.wake()
}

func (r wakingRenderer) clearScreen() {
	r.renderer.clearScreen()
	r.wake()
}

func (r wakingRenderer) writeString(s string) (int, error) {
	defer r.wake()
	return r.renderer.writeString(s) //nolint:wrapcheck
}

func (r wakingRenderer) onMouse(m MouseMsg) Cmd {
	defer r.wake()
	return r.renderer.onMouse(m)
}
