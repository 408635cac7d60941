package vt

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
)

// The fast paths (fastpath.go, pending.go, glyphs.go, Emulator.printASCII) against upstream's
// code on real output: the recorded Claude Code sessions and generated streams of plain
// scrolling text, long wrapping lines and coloured, erased, overwritten lines, each written in
// chunks cut at random places (inside sequences and characters too), with, between chunks, what
// a renderer does: reading every cell or one row, the scrollback, Render, String, Draw, the
// touched lines, resizing and back. After every chunk and every read, the two emulators must
// agree on every cell of both screens, the touched lines, the cursors, the scroll regions and
// the scrollback, and panic alike; reads must give the same answers.

// diffSamples are the vterm package's recorded Claude Code sessions (160×50).
var diffSamples = []string{"claude-tty.raw", "claude-tty-noanswer.raw", "claude-tty-tmux33.raw"}

func readDiffSample(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatalf("read sample: %v", err)
	}
	return b
}

// diffPlainStream is lines of plain text ending in CR LF, as bench_test.go's plainStream in the
// vterm package, about size bytes.
func diffPlainStream(size int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "%06d  the quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs %d\r\n", i, i*7919)
	}
	return b.Bytes()
}

var diffWords = []string{
	"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "  ", " ", "func", "x",
	"ok", "FAIL", "--- PASS:", "0.01s", "(cached)", "github.com/hooksup/hooksup/tui/vterm",
}

// diffLongLines is lines of up to three screen widths of words, most ending in CR LF, some in
// LF alone (the next line starts mid-row) and some in nothing (they run on), with trailing
// blanks now and then.
func diffLongLines(r *rand.Rand, w, lines int) []byte {
	var b bytes.Buffer
	for range lines {
		n := r.IntN(3*w + 1)
		start := b.Len()
		for b.Len()-start < n {
			b.WriteString(diffWords[r.IntN(len(diffWords))])
			b.WriteByte(' ')
		}
		if r.IntN(4) == 0 {
			b.WriteString(strings.Repeat(" ", r.IntN(w+1)))
		}
		switch r.IntN(10) {
		case 0:
			b.WriteString("\n")
		case 1:
		default:
			b.WriteString("\r\n")
		}
	}
	return b.Bytes()
}

// diffWrapStyles are the styles and links diffWrapped switches to mid-line: with and without a
// background (a blank in one is not a blank cell), and back to none.
var diffWrapStyles = []string{
	"\x1b[m", "\x1b[1;31m", "\x1b[48;5;236m", "\x1b[38;2;10;20;30m", "\x1b[4m", "\x1b[7m\x1b[27m",
	"\x1b]8;;https://example.com\x1b\\", "\x1b]8;;\x1b\\",
}

// diffWrapped is lines as a program in raw mode writes them: most end in a bare LF, so the next
// starts in the column where this one ended, and rows are printed from the middle on and wrap at
// the right edge. Some lines are 86 characters (the pane benchmark's), some exactly fill what is
// left of the row (the cursor waits at the margin, and the next character, or a line feed,
// decides), some are a few screen widths; styles, links and wide characters (one meeting the
// edge now and then) come and go mid-line, trailing blanks too. Some lines end in CR LF, an
// erase to the end of the line and a bare LF, or nothing.
func diffWrapped(r *rand.Rand, w, lines int) []byte {
	var b bytes.Buffer
	col := 0 // where the next character goes, as far as this tracks it (w: at the margin)
	put := func(s string, width int) {
		if col+width > w {
			col = 0
		}
		b.WriteString(s)
		col += width
	}
	text := func(n int) {
		for range n {
			switch k := r.IntN(40); {
			case k == 0:
				put("字", 2)
			case k == 1:
				b.WriteString(diffWrapStyles[r.IntN(len(diffWrapStyles))])
			case k < 8:
				put(" ", 1)
			default:
				put(string(rune('a'+r.IntN(26))), 1)
			}
		}
	}
	for range lines {
		switch r.IntN(6) {
		case 0, 1:
			text(86)
		case 2: // to the margin exactly
			text(max(w-col, 1))
		case 3:
			text(r.IntN(3*w + 1))
		case 4: // to the margin, the last of it wide
			text(max(w-col-2, 0))
			put("漢", 2)
		default: // trailing blanks, in whatever style is on
			text(r.IntN(w + 1))
			for range r.IntN(8) {
				put(" ", 1)
			}
		}
		switch k := r.IntN(20); {
		case k < 14:
			b.WriteString("\n")
			col = min(col, w-1)
		case k < 17:
			b.WriteString("\r\n")
			col = 0
		case k < 19:
			b.WriteString("\x1b[K\n")
			col = min(col, w-1)
		}
	}
	return b.Bytes()
}

// diffColourPieces are the pieces of diffColourful: styles (with and without a background, so
// that erases and trailing blanks differ), links, erases, cursor moves, overwrites, scroll
// regions, screens, character sets and non-ASCII text, each followed by text or a line end.
var diffColourPieces = []string{
	"\x1b[m", "\x1b[0m", "\x1b[1m", "\x1b[31m", "\x1b[41m", "\x1b[38;5;246m", "\x1b[48;5;236m",
	"\x1b[38;2;10;20;30m", "\x1b[48;2;0;0;0m", "\x1b[7m", "\x1b[27m", "\x1b[39m", "\x1b[49m", "\x1b[4:3m",
	"\x1b]8;;https://example.com\x1b\\", "\x1b]8;;\x1b\\", "\x1b]8;id=1;file:///x\x07",
	"\x1b[K", "\x1b[0K", "\x1b[1K", "\x1b[2K", "\x1b[J", "\x1b[1J", "\x1b[2J", "\x1b[3J", "\x1b[H",
	"\r", "\r\n", "\n", "\x1bD", "\x1bM", "\x1bE", "\t", "\b", "\x1b[5G", "\x1b[3C", "\x1b[2D", "\x1b[A",
	"\x1b[B", "\x1b[2@", "\x1b[3P", "\x1b[2X", "\x1b[L", "\x1b[2M", "\x1b[S", "\x1b[2T", "\x1b[3b",
	"\x1b[2;5r", "\x1b[r", "\x1b[?6h", "\x1b[?6l", "\x1b[?7l", "\x1b[?7h", "\x1b7", "\x1b8",
	"\x1b[?1049h", "\x1b[?1049l", "\x1b[?47h", "\x1b[?47l", "\x1b(0lqqk\x1b(B", "\x0e", "\x0f",
	"\x1b)0", "\x1bN", "\x1b[?69h\x1b[3;9s", "\x1b[?69l", "\x1b[4h", "\x1b[4l", "\x1b[20h", "\x1b[20l",
	"╭──────╮", "│ ● ✻ ⎿ │", "╰──────╯", "─\u0301", "e\u0301", "日本語", "👍🏽", "✻\ufe0f", "🇫🇷",
	"·×÷€…—", "\u00ad", "a\u200db", "한글", "\x1b#8", "\x1bc", "\x1b[?2026h", "\x1b[?2026l",
	// Edits inside a line just printed: back over it, then insert, delete or erase there.
	"\r\x1b[3@", "\x1b[4D\x1b[2@", "\r\x1b[2P", "\x1b[5D\x1b[3P", "\x1b[3D\x1b[2X", "\x1b[6D\x1b[K",
	"\r\x1b[4C\x1b[1K", "\x1b[3Dab",
	// Single shifts (C1 SS2 and SS3, as raw bytes and as ESC N, ESC O) into designated sets.
	"\x1b*0\x8eqq", "\x1b+0\x8fqx", "\x1b*0\x1bNqq", "\x1b+0\x1bOqq", "\x8eab", "\x1bNab",
}

// diffColourful is n pieces of coloured, erased, overwritten output with text between them.
func diffColourful(r *rand.Rand, w, h, n int) []byte {
	var b bytes.Buffer
	for range n {
		switch r.IntN(8) {
		case 0, 1, 2: // text, often ending in blanks
			for k := r.IntN(6); k >= 0; k-- {
				b.WriteString(diffWords[r.IntN(len(diffWords))])
			}
			if r.IntN(3) == 0 {
				b.WriteString(strings.Repeat(" ", r.IntN(w)))
			}
		case 3: // a progress line overwritten in place
			fmt.Fprintf(&b, "\r[%s%s] %d%%", strings.Repeat("=", r.IntN(w/2+1)), strings.Repeat(" ", r.IntN(w/2+1)), r.IntN(101))
		case 4:
			fmt.Fprintf(&b, "\x1b[%d;%dH", 1+r.IntN(h+2), 1+r.IntN(w+2))
		default:
			b.WriteString(diffColourPieces[r.IntN(len(diffColourPieces))])
		}
		if r.IntN(4) == 0 {
			b.WriteString("\r\n")
		}
	}
	return b.Bytes()
}

// diffEveryPiece is each of diffColourPieces once, on a fresh line and after text, each
// followed by text: none is left to chance.
func diffEveryPiece() []byte {
	var b bytes.Buffer
	for _, piece := range diffColourPieces {
		fmt.Fprintf(&b, "\r\n%sqqqq lazy dog\r\nthe fox %sqqqq jumps  \x1b[m", piece, piece)
	}
	return b.Bytes()
}

// diffPair is an emulator running the fast paths and one running upstream's code, fed alike.
type diffPair struct {
	t          *testing.T
	fast, slow *Emulator
	w, h       int
	log        []string // what happened, for the failure message
	scratch    [2]uv.Line
	moves      [2][]string // the cursor moves reported, when watched (watchCursor)
}

func newDiffPair(t *testing.T, w, h, sbSize int) *diffPair {
	p := &diffPair{t: t, fast: NewEmulator(w, h), slow: NewEmulator(w, h), w: w, h: h}
	for i := range p.slow.scrs {
		p.slow.scrs[i].upstream = true
	}
	for _, e := range []*Emulator{p.fast, p.slow} {
		e.SetScrollbackSize(sbSize)
		// Replies to the recorded queries go into the emulator's pipe, which blocks until read.
		done := make(chan struct{})
		go func() {
			_, _ = io.Copy(io.Discard, e)
			close(done)
		}()
		t.Cleanup(func() {
			_ = e.InputPipe().(io.Closer).Close()
			<-done
		})
	}
	p.note("%dx%d, scrollback %d", w, h, sbSize)
	return p
}

// watchCursor has both emulators report every cursor move (the fast paths must step aside for
// them: they move the cursor once per line), compared after each write.
func (p *diffPair) watchCursor() {
	p.note("watching the cursor")
	for i, e := range []*Emulator{p.fast, p.slow} {
		e.SetCallbacks(Callbacks{CursorPosition: func(old, new uv.Position) {
			p.moves[i] = append(p.moves[i], fmt.Sprint(old, new))
		}})
	}
}

func (p *diffPair) note(format string, args ...any) {
	p.log = append(p.log, fmt.Sprintf(format, args...))
}

// fail reports a difference with the last steps that led to it and both emulators' state.
func (p *diffPair) fail(format string, args ...any) {
	p.t.Helper()
	steps := p.log
	if len(steps) > 40 {
		steps = append([]string{fmt.Sprintf("(%d steps before)", len(steps)-40)}, steps[len(steps)-40:]...)
	}
	p.t.Fatalf("%s\nafter:\n%s\nfast:\n%s\nupstream:\n%s", fmt.Sprintf(format, args...),
		strings.Join(steps, "\n"), dump(stateOf(p.fast)), dump(stateOf(p.slow)))
}

// both runs f on each emulator and reports whether each panicked.
func (p *diffPair) both(f func(e *Emulator)) (fastPanicked, slowPanicked bool) {
	run := func(e *Emulator) (panicked bool) {
		defer func() {
			if recover() != nil {
				panicked = true
			}
		}()
		f(e)
		return false
	}
	return run(p.fast), run(p.slow)
}

func (p *diffPair) write(chunk []byte) {
	p.t.Helper()
	if len(chunk) > 48 {
		p.note("write %q… (%d bytes)", chunk[:48], len(chunk))
	} else {
		p.note("write %q", chunk)
	}
	fp, sp := p.both(func(e *Emulator) { _, _ = e.Write(chunk) })
	if fp != sp {
		p.fail("write panicked: fast %v, upstream %v", fp, sp)
	}
	if strings.Join(p.moves[0], " ") != strings.Join(p.moves[1], " ") {
		p.fail("cursor moves reported:\nfast     %v\nupstream %v", p.moves[0], p.moves[1])
	}
	p.moves[0], p.moves[1] = p.moves[0][:0], p.moves[1][:0]
	p.compare()
}

func (p *diffPair) resize(w, h int) {
	p.t.Helper()
	p.note("resize %dx%d", w, h)
	fp, sp := p.both(func(e *Emulator) { e.Resize(w, h) })
	if fp != sp {
		p.fail("resize panicked: fast %v, upstream %v", fp, sp)
	}
	p.compare()
}

// read does one of the things a renderer does, at random, on both emulators, and compares what
// they answer and then their state.
func (p *diffPair) read(r *rand.Rand) {
	p.t.Helper()
	f, s := p.fast, p.slow
	switch r.IntN(9) {
	case 0, 1: // a frame: every cell of the screen
		p.note("read every cell")
		for y := range s.Height() + 1 {
			for x := range s.Width() + 1 {
				if fc, sc := f.CellAt(x, y), s.CellAt(x, y); (fc == nil) != (sc == nil) || (fc != nil && *fc != *sc) {
					p.fail("CellAt(%d, %d): fast %#v, upstream %#v", x, y, fc, sc)
				}
			}
		}
	case 2: // one row, the others left pending
		y := r.IntN(s.Height())
		p.note("read row %d", y)
		for x := range s.Width() {
			if fc, sc := f.CellAt(x, y), s.CellAt(x, y); (fc == nil) != (sc == nil) || (fc != nil && *fc != *sc) {
				p.fail("CellAt(%d, %d): fast %#v, upstream %#v", x, y, fc, sc)
			}
		}
	case 3:
		p.note("read the scrollback")
		if fl, sl := f.Scrollback().Lines(), s.Scrollback().Lines(); !sameLines(fl, sl) {
			p.fail("Scrollback().Lines() differ: fast %d lines, upstream %d", len(fl), len(sl))
		}
	case 4:
		p.note("Render")
		if fr, sr := f.Render(), s.Render(); fr != sr {
			p.fail("Render differs:\nfast     %q\nupstream %q", fr, sr)
		}
	case 5:
		p.note("String")
		if fs, ss := f.String(), s.String(); fs != ss {
			p.fail("String differs:\nfast     %q\nupstream %q", fs, ss)
		}
	case 6:
		clearIt := r.IntN(2) == 0
		p.note("Touched (then clear: %v)", clearIt)
		if ft, st := f.Touched(), s.Touched(); !sameTouched(ft, st) {
			p.fail("Touched differs:\nfast     %s\nupstream %s", touchedString(ft), touchedString(st))
		}
		if clearIt {
			f.scr.ClearTouched()
			s.scr.ClearTouched()
		}
	case 7:
		p.note("Draw")
		fb, sb := uv.NewScreenBuffer(p.w, p.h), uv.NewScreenBuffer(p.w, p.h)
		f.Draw(fb, fb.Bounds())
		s.Draw(sb, sb.Bounds())
		if !sameLines(fb.Lines, sb.Lines) {
			p.fail("Draw differs")
		}
	default: // a resize, and usually back
		w, h := 1+r.IntN(2*p.w), 1+r.IntN(2*p.h)
		p.resize(w, h)
		if r.IntN(4) != 0 {
			p.resize(p.w, p.h)
		} else {
			p.w, p.h = w, h
		}
	}
	p.compare()
}

// compare fails at the first difference between the two emulators' state: fast's pending rows
// are read as they will be once settled, without settling them (settling is what the reads do).
func (p *diffPair) compare() {
	p.t.Helper()
	f, s := p.fast, p.slow
	if f.IsAltScreen() != s.IsAltScreen() {
		p.fail("alternate screen: fast %v, upstream %v", f.IsAltScreen(), s.IsAltScreen())
	}
	if f.atPhantom != s.atPhantom || f.lastChar != s.lastChar || f.gl != s.gl || f.gr != s.gr ||
		f.gsingle != s.gsingle || string(f.grapheme) != string(s.grapheme) {
		p.fail("emulator state: fast phantom %v last %q gl %d gr %d single %d grapheme %q; upstream %v %q %d %d %d %q",
			f.atPhantom, f.lastChar, f.gl, f.gr, f.gsingle, f.grapheme,
			s.atPhantom, s.lastChar, s.gl, s.gr, s.gsingle, s.grapheme)
	}
	for i := range f.scrs {
		fs, ss := &f.scrs[i], &s.scrs[i]
		if bad := pendingInvariant(fs); bad != "" {
			p.fail("screen %d: %s", i, bad)
		}
		if fs.cur != ss.cur || fs.saved != ss.saved || fs.scroll != ss.scroll {
			p.fail("screen %d: cursor %+v saved %+v scroll %v; upstream %+v %+v %v", i, fs.cur, fs.saved, fs.scroll, ss.cur, ss.saved, ss.scroll)
		}
		if bad := diffCells(fs, ss); bad != "" {
			p.fail("screen %d: %s", i, bad)
		}
		if ft, st := pendingTouched(fs), ss.buf.Touched; !sameTouched(ft, st) {
			p.fail("screen %d: touched lines\nfast     %s\nupstream %s", i, touchedString(ft), touchedString(st))
		}
	}
	// The scrollback: its length and newest lines every time, all of it now and then (read).
	fsb, ssb := f.Scrollback(), s.Scrollback()
	if fsb.Len() != ssb.Len() {
		p.fail("scrollback: fast %d lines, upstream %d", fsb.Len(), ssb.Len())
	}
	for i := max(ssb.Len()-3, 0); i < ssb.Len(); i++ {
		p.scratch[0] = fsb.AppendLine(p.scratch[0][:0], i)
		p.scratch[1] = ssb.AppendLine(p.scratch[1][:0], i)
		if !sameLines([]uv.Line{p.scratch[0]}, []uv.Line{p.scratch[1]}) {
			p.fail("scrollback line %d:\nfast     %q\nupstream %q", i, p.scratch[0].String(), p.scratch[1].String())
		}
	}
}

// diffCells describes the first cell where fast's screen, its pending rows read as settled,
// differs from upstream's.
func diffCells(fast, slow *Screen) string {
	if len(fast.buf.Lines) != len(slow.buf.Lines) {
		return fmt.Sprintf("%d rows, upstream %d", len(fast.buf.Lines), len(slow.buf.Lines))
	}
	for y, sl := range slow.buf.Lines {
		fl := fast.buf.Lines[y]
		if len(fl) != len(sl) {
			return fmt.Sprintf("row %d: %d columns, upstream %d", y, len(fl), len(sl))
		}
		var r *pendRow
		if fast.pendOK() && fast.rows[y].state != rowAny {
			r = fast.rows[y]
		}
		run, left := 0, 0 // the run of r holding column x, and its cells from x on
		if r != nil && r.state == rowText && len(r.runs) > 0 {
			left = r.runs[0].n
		}
		for x := range sl {
			c := fl[x]
			if r != nil {
				c = uv.EmptyCell
				if r.state == rowText && x < len(r.text) {
					for left == 0 {
						run++
						left = r.runs[run].n
					}
					left--
					c = uv.Cell{Content: string(r.text[x : x+1]), Width: 1, Style: r.runs[run].style, Link: r.runs[run].link}
				}
			}
			if c != sl[x] {
				return fmt.Sprintf("cell (%d, %d): fast %#v, upstream %#v", x, y, c, sl[x])
			}
		}
	}
	return ""
}

// pendingTouched is s's touched lines with its pending rows' touches told (as Touched would
// leave them), without telling them: a copy.
func pendingTouched(s *Screen) []*uv.LineData {
	var t []*uv.LineData
	if s.buf.Touched != nil {
		t = make([]*uv.LineData, len(s.buf.Touched))
		for y, d := range s.buf.Touched {
			if d != nil {
				t[y] = &uv.LineData{FirstCell: d.FirstCell, LastCell: d.LastCell}
			}
		}
	}
	if !s.pendOK() {
		return t
	}
	for y, r := range s.rows {
		if r.t0 >= r.t1 {
			continue
		}
		if y >= len(t) {
			t = append(t, make([]*uv.LineData, y-len(t)+1)...)
		}
		if d := t[y]; d == nil {
			t[y] = &uv.LineData{FirstCell: r.t0, LastCell: r.t1}
		} else {
			d.FirstCell, d.LastCell = min(d.FirstCell, r.t0), max(d.LastCell, r.t1)
		}
	}
	return t
}

func sameTouched(a, b []*uv.LineData) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for y, d := range a {
		if e := b[y]; (d == nil) != (e == nil) || (d != nil && *d != *e) {
			return false
		}
	}
	return true
}

func touchedString(t []*uv.LineData) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows (nil %v):", len(t), t == nil)
	for y, d := range t {
		if d != nil {
			fmt.Fprintf(&b, " %d:[%d,%d)", y, d.FirstCell, d.LastCell)
		}
	}
	return b.String()
}

// feed writes stream to p in chunks cut at random (often small, so that sequences and characters
// are cut), with a renderer's reads between some of them, and reads everything at the end.
func (p *diffPair) feed(r *rand.Rand, stream []byte, readEvery int) {
	p.t.Helper()
	for len(stream) > 0 {
		var n int
		switch r.IntN(4) {
		case 0:
			n = 1 + r.IntN(8)
		case 1, 2:
			n = 1 + r.IntN(256)
		default:
			n = 1 + r.IntN(4096)
		}
		n = min(n, len(stream))
		p.write(stream[:n])
		stream = stream[n:]
		for r.IntN(readEvery) == 0 {
			p.read(r)
		}
	}
	if fl, sl := p.fast.Scrollback().Lines(), p.slow.Scrollback().Lines(); !sameLines(fl, sl) {
		p.fail("Scrollback().Lines() differ at the end")
	}
	if fr, sr := p.fast.Render(), p.slow.Render(); fr != sr {
		p.fail("Render differs at the end:\nfast     %q\nupstream %q", fr, sr)
	}
}

// The recorded Claude Code sessions, alone and one after the other, at their own size and at
// others (the alternate screen's text is cut or wraps differently), in random chunks.
func TestDifferentialRecordedSessions(t *testing.T) {
	var all []byte
	streams := map[string][]byte{}
	for _, name := range diffSamples {
		streams[name] = readDiffSample(t, name)
		all = append(all, streams[name]...)
	}
	streams["all"] = all
	sizes := [][2]int{{160, 50}, {80, 24}, {37, 9}}
	seeds := 3
	if testing.Short() || raceEnabled {
		seeds = 1
	}
	for name, stream := range streams {
		for _, size := range sizes {
			for seed := range uint64(seeds) {
				t.Run(fmt.Sprintf("%s/%dx%d/%d", name, size[0], size[1], seed), func(t *testing.T) {
					r := rand.New(rand.NewPCG(seed, 1))
					p := newDiffPair(t, size[0], size[1], 1+r.IntN(200))
					p.feed(r, stream, 3)
				})
			}
		}
	}
}

// Plain scrolling text, long lines that wrap (or not, with auto-wrap off), lines ending in a bare
// LF (each printed from where the last ended), and coloured, erased and overwritten output, at sizes from one cell to wider than the lines.
func TestDifferentialGeneratedStreams(t *testing.T) {
	// The race detector makes this ~15 times slower, and finds nothing more in one goroutine.
	seeds, scale := 4, 3
	if testing.Short() || raceEnabled {
		seeds, scale = 1, 1
	}
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 2))
		sizes := [][2]int{{200, 50}, {80, 24}, {1 + r.IntN(40), 1 + r.IntN(12)}, {1, 1 + r.IntN(3)}}
		for _, size := range sizes {
			w, h := size[0], size[1]
			streams := map[string][]byte{
				"plain":     diffPlainStream(scale * 6 << 10),
				"long":      diffLongLines(r, w, scale*50),
				"nowrap":    append([]byte("\x1b[?7l"), diffLongLines(r, w, scale*35)...),
				"colourful": diffColourful(r, w, h, scale*200),
				"wrapped":   diffWrapped(r, w, scale*60),
				"mixed":     bytes.Join([][]byte{diffLongLines(r, w, scale*15), diffWrapped(r, w, scale*15), diffColourful(r, w, h, scale*70), diffPlainStream(scale << 10)}, nil),
				"pieces":    diffEveryPiece(),
			}
			for _, name := range []string{"plain", "long", "nowrap", "wrapped", "colourful", "mixed", "pieces"} {
				t.Run(fmt.Sprintf("%s/%dx%d/%d", name, w, h, seed), func(t *testing.T) {
					r := rand.New(rand.NewPCG(seed, uint64(w*1000+h)))
					p := newDiffPair(t, w, h, 1+r.IntN(300))
					if r.IntN(4) == 0 {
						p.watchCursor()
					}
					p.feed(r, streams[name], 4)
				})
			}
		}
	}
}
