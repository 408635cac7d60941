package vt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
)

// The fast paths (fastpath.go) must leave exactly what upstream's code leaves: every cell of both
// screens, the touched lines, the cursor and the scrollback, after any sequence of scrolls,
// scroll regions, margins, erases, styles, screens and resizes.

// opStream turns random numbers into terminal output that exercises the fast paths and their
// edges, and the resizes to apply between writes.
type opStream struct {
	next func(n int) int // a number in [0, n)
	w, h int
}

var opTexts = []string{
	"the quick brown fox", "x", "日本語", "e\u0301", "👍🏽", "ab\tcd", "wide 漢字 at the end 字",
	strings.Repeat("w", 37), strings.Repeat("字", 9), "╭──╮ ● ✻ ⎿ ─\u0301", "a─\u200d👍",
}

// op returns one piece of output, or a resize (w, h > 0).
func (o *opStream) op() (out string, w, h int) {
	n := func(max int) int { return o.next(max) }
	switch n(13) {
	case 0, 1:
		return opTexts[n(len(opTexts))], 0, 0
	case 2, 3:
		return []string{"\r\n", "\n", "\x1bD", "\x1bM", "\x1bE", "\r"}[n(6)], 0, 0
	case 4: // scroll region, sometimes past the screen or empty
		if n(4) == 0 {
			return "\x1b[r", 0, 0
		}
		return fmt.Sprintf("\x1b[%d;%dr", n(o.h+3), n(o.h+3)), 0, 0
	case 5: // cursor moves, some back into what was just printed
		if n(2) == 0 {
			return fmt.Sprintf("\x1b[%d%c", n(o.w+3), "DG"[n(2)]), 0, 0
		}
		return fmt.Sprintf("\x1b[%d;%dH", n(o.h+3), n(o.w+3)), 0, 0
	case 6: // insert and delete lines, scroll up and down
		return fmt.Sprintf("\x1b[%d%c", n(o.h+3), "LMST"[n(4)]), 0, 0
	case 7: // erases
		return fmt.Sprintf("\x1b[%d%c", n(4), "JJKX"[n(4)]), 0, 0
	case 8: // styles, so that erases and scrolls blank with a background
		return []string{"\x1b[m", "\x1b[41m", "\x1b[48;5;123m", "\x1b[1;32;44m", "\x1b[48;2;1;2;3m\x1b[4m", "\x1b]8;;http://x\x1b\\"}[n(6)], 0, 0
	case 9: // left and right margins: the fast paths must step aside
		if n(3) == 0 {
			return "\x1b[?69l", 0, 0
		}
		return fmt.Sprintf("\x1b[?69h\x1b[%d;%ds", n(o.w+3), n(o.w+3)), 0, 0
	case 10:
		return []string{"\x1b[?1049h", "\x1b[?1049l", "\x1b[?47h", "\x1b[?47l", "\x1b7", "\x1b8", "\x1b[?6h", "\x1b[?6l", "\x1b[?7l", "\x1b[?7h"}[n(10)], 0, 0
	case 11:
		return fmt.Sprintf("\x1b[%d%c", n(o.w+3), "@PG"[n(3)]), 0, 0
	default:
		if n(3) == 0 {
			o.w, o.h = 1+n(30), 1+n(12)
			return "", o.w, o.h
		}
		return opTexts[n(len(opTexts))] + "\r\n", 0, 0
	}
}

// emuState is what the fast paths may change.
type emuState struct {
	Lines      [2][]uv.Line
	Touched    [2][]*uv.LineData
	Scrollback []uv.Line
	Cursor     [2]Cursor
	Scroll     [2]uv.Rectangle
	Alt        bool
}

func stateOf(e *Emulator) emuState {
	var s emuState
	for i := range e.scrs {
		s.Lines[i], s.Touched[i] = cellsOf(&e.scrs[i])
		s.Cursor[i] = e.scrs[i].cur
		s.Scroll[i] = e.scrs[i].scroll
	}
	s.Scrollback = e.Scrollback().Lines()
	s.Alt = e.IsAltScreen()
	return s
}

// cellsOf returns the screen's cells and touched lines as they would be with its pending rows
// settled (pending.go), without settling them: copies, with the pending text written in.
func cellsOf(s *Screen) ([]uv.Line, []*uv.LineData) {
	lines := make([]uv.Line, len(s.buf.Lines))
	for y, l := range s.buf.Lines {
		lines[y] = slices.Clone(l)
	}
	var touched []*uv.LineData
	if s.buf.Touched != nil {
		touched = make([]*uv.LineData, len(s.buf.Touched))
		for y, d := range s.buf.Touched {
			if d != nil {
				touched[y] = &uv.LineData{FirstCell: d.FirstCell, LastCell: d.LastCell}
			}
		}
	}
	if !s.pendOK() {
		return lines, touched
	}
	for y, r := range s.rows {
		if r.state != rowAny && r.dirty {
			for x := range lines[y] {
				lines[y][x] = uv.EmptyCell
			}
		}
		if r.state != rowText {
			continue
		}
		i := 0
		for _, run := range r.runs {
			for range run.n {
				lines[y][i] = uv.Cell{Content: string(r.text[i : i+1]), Width: 1, Style: run.style, Link: run.link}
				i++
			}
		}
		if r.t0 < r.t1 { // as RenderBuffer.TouchLine
			if y >= len(touched) {
				touched = append(touched, make([]*uv.LineData, y-len(touched)+1)...)
			}
			if d := touched[y]; d == nil {
				touched[y] = &uv.LineData{FirstCell: r.t0, LastCell: r.t1}
			} else {
				d.FirstCell, d.LastCell = min(d.FirstCell, r.t0), max(d.LastCell, r.t1)
			}
		}
	}
	return lines, touched
}

// pendingInvariant reports how the screen's pending rows break their promise, if they do: a
// blank row, or a row with pending text, whose cells are not all blank beneath.
func pendingInvariant(s *Screen) string {
	if !s.pendOK() {
		return ""
	}
	for y, r := range s.rows {
		if r.state == rowAny {
			continue
		}
		if r.state == rowText && (len(r.text) == 0 || len(r.text) > len(s.buf.Lines[y])) {
			return fmt.Sprintf("row %d has %d bytes of pending text", y, len(r.text))
		}
		if r.dirty {
			continue
		}
		for x, c := range s.buf.Lines[y] {
			if c != uv.EmptyCell {
				return fmt.Sprintf("row %d (state %d) has %#v at column %d", y, r.state, c, x)
			}
		}
	}
	return ""
}

// write feeds out to e, reporting whether it panicked (upstream's code does on some scroll
// regions; the fast paths must panic, or not, alike).
func write(e *Emulator, out string) (panicked bool) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	_, _ = e.WriteString(out)
	return false
}

// compareWithUpstream runs ops operations from next on a fast and an upstream emulator and fails
// at the first difference.
func compareWithUpstream(t *testing.T, next func(int) int, ops int) {
	t.Helper()
	o := &opStream{next: next, w: 1 + next(30), h: 1 + next(12)}
	sbSize := 1 + next(40)
	fast, slow := NewEmulator(o.w, o.h), NewEmulator(o.w, o.h)
	for i := range slow.scrs {
		slow.scrs[i].upstream = true
	}
	var log strings.Builder
	for _, e := range []*Emulator{fast, slow} {
		e.SetScrollbackSize(sbSize)
	}
	fmt.Fprintf(&log, "%dx%d, scrollback %d\n", o.w, o.h, sbSize)
	for range ops {
		out, w, h := o.op()
		if w > 0 {
			fmt.Fprintf(&log, "resize %dx%d\n", w, h)
			fp, sp := false, false
			func() {
				defer func() { fp = recover() != nil }()
				fast.Resize(w, h)
			}()
			func() {
				defer func() { sp = recover() != nil }()
				slow.Resize(w, h)
			}()
			if fp != sp {
				t.Fatalf("resize panicked: fast %v, upstream %v\n%s", fp, sp, log.String())
			}
			continue
		}
		fmt.Fprintf(&log, "%q\n", out)
		fp, sp := write(fast, out), write(slow, out)
		if fp != sp {
			t.Fatalf("panicked: fast %v, upstream %v after:\n%s", fp, sp, log.String())
		}
		for i := range fast.scrs {
			if bad := pendingInvariant(&fast.scrs[i]); bad != "" {
				t.Fatalf("screen %d: %s after:\n%s", i, bad, log.String())
			}
		}
		if f, s := stateOf(fast), stateOf(slow); !sameState(&f, &s) {
			t.Fatalf("fast paths differ from upstream after:\n%s\nfast:\n%s\nupstream:\n%s", log.String(), dump(f), dump(s))
		}
		// Now and then, something reads every cell (a frame is drawn): the pending rows are
		// settled, and the screens must still agree after what comes next.
		if next(6) == 0 {
			fmt.Fprintf(&log, "(settled)\n")
			for i := range fast.scrs {
				fast.scrs[i].settleAll()
			}
		}
	}
}

// sameState is reflect.DeepEqual for emuState, quicker (the race detector makes reflection
// slow): cells, styles and links compare as values, as uv.Cell.IsZero does.
func sameState(a, b *emuState) bool {
	if a.Alt != b.Alt || a.Cursor != b.Cursor || a.Scroll != b.Scroll || !sameLines(a.Scrollback, b.Scrollback) {
		return false
	}
	for i := range a.Lines {
		if !sameLines(a.Lines[i], b.Lines[i]) || (a.Touched[i] == nil) != (b.Touched[i] == nil) || len(a.Touched[i]) != len(b.Touched[i]) {
			return false
		}
		for y, t := range a.Touched[i] {
			if u := b.Touched[i][y]; (t == nil) != (u == nil) || (t != nil && *t != *u) {
				return false
			}
		}
	}
	return true
}

func sameLines(a, b []uv.Line) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for y := range a {
		if (a[y] == nil) != (b[y] == nil) || !slices.Equal(a[y], b[y]) {
			return false
		}
	}
	return true
}

func dump(s emuState) string {
	var b strings.Builder
	fmt.Fprintf(&b, "alt %v cursors %+v scroll %v\n", s.Alt, s.Cursor, s.Scroll)
	for _, l := range s.Scrollback {
		fmt.Fprintf(&b, "sb |%s|\n", l.String())
	}
	for i := range s.Lines {
		for y, l := range s.Lines[i] {
			var touched *uv.LineData
			if y < len(s.Touched[i]) {
				touched = s.Touched[i][y]
			}
			fmt.Fprintf(&b, "%d %2d |%s| %+v\n", i, y, l.String(), touched)
		}
	}
	return b.String()
}

func TestFastPathsMatchUpstream(t *testing.T) {
	runs := 200
	if testing.Short() {
		runs = 50
	}
	for seed := range uint64(runs) {
		r := rand.New(rand.NewPCG(seed, 7))
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			compareWithUpstream(t, r.IntN, 200)
		})
	}
}

// FuzzFastPathsMatchUpstream is TestFastPathsMatchUpstream driven by the fuzzer's bytes.
func FuzzFastPathsMatchUpstream(f *testing.F) {
	f.Add([]byte("\x05\x03\x10\x04\x06\x00\x02\x02\x02\x06\x01\x02\x07\x02\x02"))
	f.Fuzz(func(t *testing.T, data []byte) {
		i := 0
		next := func(n int) int {
			if i >= len(data) {
				return 0
			}
			i++
			return int(data[i-1]) % n
		}
		compareWithUpstream(t, next, len(data)/2+1)
	})
}

// Once full, the scrollback keeps the newest lines, in order, and no more.
func TestScrollbackKeepsTheNewestLines(t *testing.T) {
	sb := NewScrollback(5)
	for i := range 23 {
		l := uv.NewLine(4)
		l[0].Content = fmt.Sprint(i % 10)
		sb.Push(l)
		want := min(i+1, 5)
		if sb.Len() != want {
			t.Fatalf("after %d lines Len %d, want %d", i+1, sb.Len(), want)
		}
		for k := range want {
			if got, exp := sb.Line(k).String(), fmt.Sprint((i-want+1+k)%10); got != exp {
				t.Fatalf("after %d lines line %d is %q, want %q", i+1, k, got, exp)
			}
		}
		if cap(sb.lines) > 4*5 {
			t.Fatalf("the scrollback's slice grew to %d entries", cap(sb.lines))
		}
	}
}

// A full scrollback takes each new line in the place of the oldest without allocating: its lines
// are not copied into a new array as they come and go.
func TestFullScrollbackAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	const size, more = 100, 10_000
	lines := make([]sbLine, size+more)
	for i := range lines {
		lines[i] = sbLine{text: fmt.Sprint(i)}
	}
	sb := NewScrollback(size)
	for _, l := range lines[:size] {
		sb.add(l)
	}
	allocs := testing.AllocsPerRun(1, func() { // run twice: a warm-up, then counted
		for _, l := range lines[size:] {
			sb.add(l)
		}
	})
	if allocs != 0 {
		t.Errorf("%d more lines into a full scrollback of %d allocated %v times", more, size, allocs)
	}
	if sb.Len() != size {
		t.Fatalf("Len %d, want %d", sb.Len(), size)
	}
	for k := range size {
		if got, want := sb.Line(k).String(), fmt.Sprint(more+k); got != want {
			t.Fatalf("line %d is %q, want %q", k, got, want)
		}
	}
}

// refScrollback is upstream's scrollback: every line kept as cells.
type refScrollback struct {
	lines    []uv.Line
	maxLines int
}

func (s *refScrollback) push(line uv.Line) {
	lastNonEmpty := -1
	for i := len(line) - 1; i >= 0; i-- {
		c := &line[i]
		if !c.IsZero() && !c.Equal(&uv.EmptyCell) {
			lastNonEmpty = i
			break
		}
	}
	cloned := slices.Clone(line[:lastNonEmpty+1])
	if len(s.lines) >= s.maxLines {
		s.lines = slices.Delete(s.lines, 0, 1)
	}
	s.lines = append(s.lines, cloned)
}

// The compact scrollback gives back exactly the cells upstream's kept, for lines taken from
// screens after random operations (wide characters, combining marks, styles, links, blanks with
// a background), through pushes, shrinking, growing and clearing.
func TestScrollbackMatchesUpstream(t *testing.T) {
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 11))
		o := &opStream{next: r.IntN, w: 1 + r.IntN(30), h: 1 + r.IntN(12)}
		e := NewEmulator(o.w, o.h)
		max := 1 + r.IntN(20)
		sb, ref := NewScrollback(max), &refScrollback{lines: []uv.Line{}, maxLines: max}
		var scratch uv.Line
		for step := range 300 {
			out, w, h := o.op()
			if w > 0 {
				func() {
					defer func() { _ = recover() }()
					e.Resize(w, h)
				}()
				continue
			}
			write(e, out)
			switch r.IntN(20) {
			case 0:
				max = 1 + r.IntN(20)
				sb.SetMaxLines(max)
				ref.maxLines = max
				if len(ref.lines) > max {
					ref.lines = ref.lines[len(ref.lines)-max:]
				}
			case 1:
				sb.Clear()
				ref.lines = ref.lines[:0]
			}
			e.scr.settleAll()
			for _, l := range e.scr.buf.Lines {
				if r.IntN(3) == 0 {
					sb.Push(l)
					ref.push(l)
				}
			}
			if got := sb.Lines(); !sameLines(got, ref.lines) {
				t.Fatalf("seed %d: scrollback\n%#v\nupstream's\n%#v", seed, got, ref.lines)
			}
			if sb.Len() != len(ref.lines) {
				t.Fatalf("seed %d: Len %d, upstream's %d", seed, sb.Len(), len(ref.lines))
			}
			for i, l := range ref.lines {
				if scratch = sb.AppendLine(scratch[:0], i); !slices.Equal(scratch, l) {
					t.Fatalf("seed %d: AppendLine(%d) %#v, upstream's %#v", seed, i, scratch, l)
				}
				for x := range len(l) + 1 {
					if step%25 != 0 {
						break
					}
					c, rc := sb.CellAt(x, i), (*uv.Cell)(nil)
					if x < len(l) {
						rc = &l[x]
					}
					if (c == nil) != (rc == nil) || (c != nil && *c != *rc) {
						t.Fatalf("seed %d: CellAt(%d, %d) %v, upstream's %v", seed, x, i, c, rc)
					}
				}
			}
		}
	}
}
