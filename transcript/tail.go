package transcript

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/hooksup/hooksup/session"
)

// tail follows one transcript file: it opens it once it exists, reads what was appended since
// the last read, and starts over when the file is truncated or replaced (a new inode at the
// path). It never polls: the watcher calls read when fsnotify reports a change.
type tail struct {
	info   session.AgentInfo // ID is "" for the main transcript
	p      *Parser
	lb     lineBuffer
	f      *os.File
	fi     os.FileInfo
	off    int64
	dirty  bool // a change was reported and not yet read
	metaOK bool // .meta.json changed and not yet read (subagents only)
	failed bool // the last open failed with an error other than "not found"; reported once
	// parked: a subagent's transcript let go (runner.go): closed and unwatched, fi and off kept
	// to go on from where it was read to.
	parked  bool
	changed time.Time   // when it was discovered or last read something
	metaFi  os.FileInfo // the .meta.json when last read (subagents only)
}

func newTail(info session.AgentInfo, opts Options) *tail {
	return &tail{info: info, p: NewParser(opts), lb: lineBuffer{max: opts.withDefaults().MaxLineBytes}}
}

// source returns the tail's identity for updates.
func (t *tail) source() Source {
	typ := t.info.Type
	if typ == "" && t.info.ID != "" {
		typ = t.p.st.AgentType
	}
	return Source{AgentID: t.info.ID, AgentType: typ, Path: t.info.Path}
}

// sync makes t.f the file now at the path. It reports whether the aggregates must restart
// (the file was truncated or replaced) and any error other than the file not existing yet.
func (t *tail) sync() (restart bool, err error) {
	if t.f != nil {
		pi, serr := os.Stat(t.info.Path)
		switch {
		case serr == nil && !os.SameFile(pi, t.fi):
			t.close() // replaced: follow the new file from its start
			restart = true
		case serr != nil && !errors.Is(serr, fs.ErrNotExist):
			return false, fmt.Errorf("transcript: stat %s: %w", t.info.Path, serr)
		default: // same file, or removed (then finish reading what the open file holds)
			fi, ferr := t.f.Stat()
			if ferr != nil {
				return false, fmt.Errorf("transcript: stat %s: %w", t.info.Path, ferr)
			}
			if fi.Size() < t.off {
				t.off = 0
				return true, nil
			}
			return false, nil
		}
	}
	f, err := os.Open(t.info.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return restart, nil
	}
	if err != nil {
		return restart, fmt.Errorf("transcript: open %s: %w", t.info.Path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return restart, fmt.Errorf("transcript: stat %s: %w", t.info.Path, err)
	}
	if t.fi != nil && os.SameFile(fi, t.fi) && fi.Size() >= t.off {
		t.f, t.fi = f, fi // reopened after it was parked: go on where it was read to
		return restart, nil
	}
	t.f, t.fi, t.off = f, fi, 0
	return restart || t.p.st.Lines > 0, nil
}

// restart forgets everything read so far.
func (t *tail) restart() {
	t.p.Reset()
	t.lb.reset()
	t.off = 0
}

// read reads from the file's current offset to its end in chunks of buf, calling chunk with
// the bytes of each read. It stops early if chunk returns false.
func (t *tail) read(buf []byte, chunk func([]byte) bool) error {
	if t.f == nil {
		return nil
	}
	for {
		n, err := t.f.ReadAt(buf, t.off)
		t.off += int64(n)
		if n > 0 && !chunk(buf[:n]) {
			return nil
		}
		if errors.Is(err, io.EOF) || n == 0 {
			return nil
		}
		if err != nil {
			return fmt.Errorf("transcript: read %s: %w", t.info.Path, err)
		}
	}
}

// park closes the file and keeps where it was read to, for sync to go on from there.
func (t *tail) park() {
	if t.f != nil {
		t.f.Close()
		t.f = nil
	}
}

func (t *tail) close() {
	if t.f != nil {
		t.f.Close()
		t.f, t.fi = nil, nil
	}
}
