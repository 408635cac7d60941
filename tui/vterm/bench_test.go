package vterm

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/hooksup/hooksup/tui/vterm/internal/vt"
)

var dumpDir = flag.String("vterm.dump", "",
	"TestDumpBenchStreams writes the benchmark streams into this directory (for bench-tmux.sh)")

// The benchmark geometry, also used by bench-tmux.sh.
const benchCols, benchRows = 200, 50

// plainStream is about 1 MB of plain scrolling output: lines of text, each
// ending in CR LF, as a build log or a long diff would produce.
func plainStream() []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "%06d  the quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs %d\r\n", i, i*7919)
	}
	return b.Bytes()
}

// wrappedStream is about 1 MB of lines 86 characters long, each ending in a bare LF (no CR), as
// a program writes them to a terminal in raw mode: each line starts in the column where the one
// before it ended, so most rows are printed from the middle and wrap at the right edge.
func wrappedStream() []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "%06d %-79.79s\n", i, "the quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs")
	}
	return b.Bytes()
}

// claudeStream is about 1 MB of Claude Code output: the three recorded
// sessions, repeated.
func claudeStream(tb testing.TB) []byte {
	var one []byte
	for _, name := range samples {
		one = append(one, readSample(tb, name)...)
	}
	return bytes.Repeat(one, (1<<20)/len(one)+1)
}

func benchWrite(b *testing.B, stream []byte) {
	term, _ := loopTerm(benchCols, benchRows, Options{})
	defer term.Close()
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := term.Write(stream); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0, len(stream))
}

// cpuTime is the CPU time the process has used, in all its threads (the garbage collector's
// included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the throughput per second of CPU time since cpu0 (cpu-MB/s): unlike MB/s,
// it hardly depends on what else the machine is running.
func reportCPU(b *testing.B, cpu0 time.Duration, size int) {
	if used := cpuTime() - cpu0; used > 0 && b.N > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/1e6/used.Seconds(), "cpu-MB/s")
	}
}

// BenchmarkWrite measures the throughput of Write, pre-filter and emulator
// together.
func BenchmarkWrite(b *testing.B) {
	b.Run("plain", func(b *testing.B) { benchWrite(b, plainStream()) })
	b.Run("claude", func(b *testing.B) { benchWrite(b, claudeStream(b)) })
	b.Run("wrapped", func(b *testing.B) { benchWrite(b, wrappedStream()) })
}

// BenchmarkXVT measures x/vt alone on the same streams, to show what the
// wrapper costs.
func BenchmarkXVT(b *testing.B) {
	for name, stream := range map[string][]byte{"plain": plainStream(), "claude": claudeStream(b), "wrapped": wrappedStream()} {
		b.Run(name, func(b *testing.B) {
			e := vt.NewEmulator(benchCols, benchRows)
			e.SetScrollbackSize(DefaultScrollback)
			go func() { _, _ = io.Copy(io.Discard, e) }()
			defer func() { _ = e.InputPipe().(io.Closer).Close() }()
			b.SetBytes(int64(len(stream)))
			cpu0 := cpuTime()
			for b.Loop() {
				_, _ = e.Write(stream)
			}
			reportCPU(b, cpu0, len(stream))
		})
	}
}

// BenchmarkRender measures one full frame: the 200×50 screen rendered to
// styled lines, showing Claude Code's screen plus a styled scrolled history.
func BenchmarkRender(b *testing.B) {
	term, _ := loopTerm(benchCols, benchRows, Options{})
	defer term.Close()
	for i := range 200 {
		fmt.Fprintf(term, "\x1b[3%dm%04d\x1b[m \x1b[1mbold\x1b[m \x1b[48;5;%dm%-150s\x1b[m 日本語\r\n", i%8, i, i%256, "styled history line")
	}
	data := readSample(b, "claude-tty.raw")
	_, _ = term.Write(data[:7812]) // claude on the alternate screen
	b.Run("screen", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = term.Render(benchCols, benchRows, 0)
		}
	})
	_, _ = term.Write(data[7812:]) // back on the main screen, with history
	b.Run("scrolled", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = term.Render(benchCols, benchRows, 25)
		}
	})
}

// BenchmarkEncodeKey measures encoding one modified key.
func BenchmarkEncodeKey(b *testing.B) {
	m := Modes{KittyFlags: KittyDisambiguate | KittyReportAlternates}
	k := Key{Code: 'a', Mod: ModCtrl | ModShift}
	for b.Loop() {
		_ = EncodeKey(k, m)
	}
}

// TestDumpBenchStreams writes the benchmark streams (repeated to about 16 MB,
// so tmux's start-up is small beside them) for bench-tmux.sh. It does
// nothing without -vterm.dump.
func TestDumpBenchStreams(t *testing.T) {
	if *dumpDir == "" {
		t.Skip("set -vterm.dump=DIR to write the benchmark streams")
	}
	for name, stream := range map[string][]byte{"plain": plainStream(), "claude": claudeStream(t), "wrapped": wrappedStream()} {
		big := bytes.Repeat(stream, 16)
		if err := os.WriteFile(filepath.Join(*dumpDir, name+".stream"), big, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(*dumpDir, "empty.stream"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
}
