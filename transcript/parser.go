package transcript

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"slices"

	"github.com/hooksup/hooksup/session"
)

// Options configures a [Parser] and a [Watcher]. The zero value is usable.
type Options struct {
	// Decoder makes the decoder of one file of the agent's transcript, given MaxText, for an
	// agent whose format is not the parser's own; nil reads Claude Code's session JSONL.
	Decoder func(maxText int) Decoder
	// OwnHook reports whether a hook command is one of the caller's own (hooksup's); their
	// outcomes are left out of Stats.Hooks and of updates. Nil keeps every hook.
	// See [HookProgram].
	OwnHook func(command string) bool
	// MaxText caps each text kept from a line (assistant text, prompt, hook message), in bytes.
	// Default 8 KiB.
	MaxText int
	// DedupeWindow is how many API messages are remembered for de-duplication. Default 65536
	// (about 4 MiB).
	DedupeWindow int
	// HookHistory is how many hook outcomes Stats.Hooks keeps. Default 64.
	HookHistory int
	// APIErrorHistory is how many API errors Stats.RecentAPIErrors keeps. Default 16.
	APIErrorHistory int
	// MaxLineBytes: longer lines are skipped and counted as malformed. Default 16 MiB.
	MaxLineBytes int
	// UpdateBuffer is the capacity of Watcher.Updates. Default 256.
	UpdateBuffer int
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxText, 8<<10)
	def(&o.DedupeWindow, 1<<16)
	def(&o.HookHistory, 64)
	def(&o.APIErrorHistory, 16)
	def(&o.MaxLineBytes, 16<<20)
	def(&o.UpdateBuffer, 256)
	return o
}

// Parser parses the lines of one transcript file and aggregates them. It keeps no line bytes:
// its memory is bounded by Options whatever the length of the file. A Parser is not safe for
// concurrent use.
type Parser struct {
	opts  Options
	dec   *decoder
	dd    *dedupe
	hooks hookLog
	st    session.TranscriptStats
	own   Decoder // Options.Decoder's, or nil
}

// NewParser returns a parser with empty aggregates.
func NewParser(opts Options) *Parser {
	opts = opts.withDefaults()
	p := &Parser{
		opts:  opts,
		dec:   newDecoder(opts.MaxText),
		dd:    newDedupe(opts.DedupeWindow),
		hooks: hookLog{own: opts.OwnHook, max: opts.HookHistory},
	}
	if opts.Decoder != nil {
		p.own = opts.Decoder(opts.MaxText)
	}
	p.Reset()
	return p
}

// Reset forgets all aggregates, as for a file that was truncated or replaced.
func (p *Parser) Reset() {
	p.st = session.TranscriptStats{ByModel: map[string]session.Usage{}, ToolCalls: map[string]int64{}}
	p.dd.reset()
	p.hooks.reset()
	if p.own != nil {
		p.own.Reset()
	}
}

// Stats returns a copy of the aggregates.
func (p *Parser) Stats() session.TranscriptStats {
	s := cloneStats(&p.st)
	s.Hooks = slices.Clone(p.hooks.recent)
	s.HookCounts = p.hooks.counts
	return s
}

// Feed parses one line (without its "\n"; a trailing "\r" is ignored) and adds it to the
// aggregates. It never fails: a malformed line is counted and returned as KindMalformed. The
// line is not retained.
func (p *Parser) Feed(line []byte) Record {
	p.st.Lines++
	p.st.Bytes += int64(len(line)) + 1
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	var r Record
	if p.own != nil {
		r = p.own.Decode(line)
		if r.UsageID != "" {
			r.key = maphash.String(p.dec.seed, r.UsageID) | 1
		}
	} else {
		r = p.dec.decode(line)
	}
	p.apply(&r)
	return r
}

// ReadFrom feeds every line of r, including a last line without a newline, and returns the
// number of bytes read.
func (p *Parser) ReadFrom(r io.Reader) (int64, error) {
	buf := make([]byte, readChunk)
	lb := lineBuffer{max: p.opts.MaxLineBytes}
	feed := func(line []byte) { p.Feed(line) }
	var total int64
	for {
		n, err := r.Read(buf)
		total += int64(n)
		p.skipOversized(lb.feed(buf[:n], feed))
		if errors.Is(err, io.EOF) {
			if len(lb.partial) > 0 {
				p.Feed(lb.partial)
				p.st.Bytes-- // no newline
			}
			return total, nil
		}
		if err != nil {
			return total, fmt.Errorf("transcript: read: %w", err)
		}
	}
}

// readChunk is the size of each read from a transcript file.
const readChunk = 256 << 10

// skipOversized counts lines the line buffer skipped as too long.
func (p *Parser) skipOversized(n int) {
	p.st.Lines += int64(n)
	p.st.Malformed += int64(n)
}

// synthetic is the model claude names on the assistant lines it writes itself (API errors).
const synthetic = "<synthetic>"

func (p *Parser) apply(r *Record) {
	st := &p.st
	if !r.Time.IsZero() && r.Kind != KindOther && r.Kind != KindMalformed {
		st.LastTime = r.Time
	}
	switch r.Kind {
	case KindMalformed:
		st.Malformed++
	case KindOther:
		st.Skipped++
	case KindAssistant:
		if r.Model != "" && r.Model != synthetic {
			st.Model = r.Model
		}
		if r.AgentType != "" {
			st.AgentType = r.AgentType
		}
		if r.HasUsage && r.Model != synthetic {
			p.addUsage(r)
		}
		for _, t := range r.Tools {
			st.ToolCalls[t.Name]++
			st.ToolCallCount++
		}
		if r.Text != "" {
			st.LastText = r.Text
		}
	case KindAPIError:
		st.APIErrors++
		e := *r.APIError
		e.Time = r.Time
		r.APIError = &e
		if len(st.RecentAPIErrors) >= p.opts.APIErrorHistory {
			st.RecentAPIErrors = append(st.RecentAPIErrors[:0], st.RecentAPIErrors[1:]...)
		}
		st.RecentAPIErrors = append(st.RecentAPIErrors, e)
	case KindPrompt:
		st.Turns++
		if r.Origin == "task_notification" {
			st.TaskNotifications++
		}
		st.LastPrompt = r.Text
	case KindCommand:
		st.Commands++
	case KindInterrupt:
		st.Interrupts++
	case KindToolResult:
		st.ToolResults++
		st.ToolErrors += int64(r.ToolErrors)
	case KindTurnDuration:
		st.TurnsEnded++
		st.TurnTime += r.Duration
		st.LastTurn = r.Duration
		st.LongestTurn = max(st.LongestTurn, r.Duration)
	case KindHook:
		kept := r.Hooks[:0]
		for _, h := range r.Hooks {
			if h, ok := p.hooks.add(h); ok {
				kept = append(kept, h)
			}
		}
		r.Hooks = kept
	case KindCompaction:
		st.Compactions++
		st.LastCompaction = *r.Compaction
	case KindModel:
		if r.Model != "" {
			st.Model = r.Model
		}
	case KindTitle:
		st.Title = r.Text
	case KindStopHook:
		r.Text = st.LastText
	}
}

// addUsage counts an assistant line's usage once per message: the copy with the largest usage
// wins, and the model it names gets it.
func (p *Parser) addUsage(r *Record) {
	st := &p.st
	if r.key == 0 {
		st.Messages++
		st.Usage = addUsage(st.Usage, r.Usage)
		st.ByModel[r.Model] = addUsage(st.ByModel[r.Model], r.Usage)
		return
	}
	prev, seen, replace := p.dd.observe(r.key, r.Usage, r.Model)
	if !replace {
		return
	}
	if seen {
		st.Usage = subUsage(st.Usage, prev.usage)
		st.ByModel[prev.model] = subUsage(st.ByModel[prev.model], prev.usage)
		if st.ByModel[prev.model] == (session.Usage{}) {
			delete(st.ByModel, prev.model)
		}
	} else {
		st.Messages++
	}
	st.Usage = addUsage(st.Usage, r.Usage)
	st.ByModel[r.Model] = addUsage(st.ByModel[r.Model], r.Usage)
}
