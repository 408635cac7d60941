package transcript

import "bytes"

// lineBuffer splits a byte stream into lines. It keeps the incomplete last line until its
// newline arrives, and skips lines longer than max without holding them.
type lineBuffer struct {
	max        int
	partial    []byte // the incomplete line so far
	discarding bool   // inside a line longer than max: drop bytes up to its newline
}

// releaseAbove is the capacity above which the partial-line buffer is dropped once its line
// is complete, so one long line does not pin memory.
const releaseAbove = 1 << 20

// feed splits data into lines and calls fn for each complete one, without its "\n".
// fn must not keep the slice. It returns how many lines were skipped as longer than max.
func (lb *lineBuffer) feed(data []byte, fn func(line []byte)) (oversized int) {
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			if lb.discarding {
				return oversized
			}
			if len(lb.partial)+len(data) > lb.max {
				lb.dropPartial()
				lb.discarding = true
				return oversized + 1
			}
			lb.partial = append(lb.partial, data...)
			return oversized
		}
		seg := data[:i]
		data = data[i+1:]
		switch {
		case lb.discarding:
			lb.discarding = false
		case len(lb.partial) > 0:
			if len(lb.partial)+len(seg) > lb.max {
				oversized++
				lb.dropPartial()
				continue
			}
			lb.partial = append(lb.partial, seg...)
			fn(lb.partial)
			lb.dropPartial()
		case len(seg) > lb.max:
			oversized++
		default:
			fn(seg)
		}
	}
	return oversized
}

func (lb *lineBuffer) dropPartial() {
	if cap(lb.partial) > releaseAbove {
		lb.partial = nil
		return
	}
	lb.partial = lb.partial[:0]
}

// reset forgets any incomplete line (after a truncation or a replaced file).
func (lb *lineBuffer) reset() {
	lb.partial = nil
	lb.discarding = false
}
