// Command parsetranscript parses transcript files with package transcript and prints their
// aggregates as JSON: the figure bench.sh compares with ccusage, under /usr/bin/time.
//
//	go run ./transcript/internal/cmd/parsetranscript FILE...
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/hooksup/hooksup/session"
	"github.com/hooksup/hooksup/transcript"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "parsetranscript:", err)
		os.Exit(1)
	}
}

type result struct {
	Files     int           `json:"files"`
	Bytes     int64         `json:"bytes"`
	Lines     int64         `json:"lines"`
	Malformed int64         `json:"malformed"`
	Messages  int64         `json:"messages"`
	Usage     session.Usage `json:"usage"`
	Seconds   float64       `json:"seconds"`
	MBPerSec  float64       `json:"mb_per_s"`
	HeapMB    float64       `json:"heap_after_mb"` // live heap after a GC, parsers still held
}

func run(files []string) error {
	if len(files) == 0 {
		return fmt.Errorf("no file given (usage: parsetranscript FILE...)")
	}
	var res result
	parsers := make([]*transcript.Parser, 0, len(files))
	start := time.Now()
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("open: %w", err)
		}
		p := transcript.NewParser(transcript.Options{})
		n, err := p.ReadFrom(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("parse %s: %w", name, err)
		}
		parsers = append(parsers, p)
		st := p.Stats()
		res.Files++
		res.Bytes += n
		res.Lines += st.Lines
		res.Malformed += st.Malformed
		res.Messages += st.Messages
		res.Usage.InputTokens += st.Usage.InputTokens
		res.Usage.OutputTokens += st.Usage.OutputTokens
		res.Usage.CacheCreationTokens += st.Usage.CacheCreationTokens
		res.Usage.CacheReadTokens += st.Usage.CacheReadTokens
	}
	res.Seconds = time.Since(start).Seconds()
	res.MBPerSec = float64(res.Bytes) / (1 << 20) / res.Seconds
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	res.HeapMB = float64(ms.HeapAlloc) / (1 << 20)
	runtime.KeepAlive(parsers)
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res); err != nil {
		return fmt.Errorf("print: %w", err)
	}
	return nil
}
