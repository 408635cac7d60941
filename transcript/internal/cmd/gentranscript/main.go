// Command gentranscript writes a synthetic Claude Code transcript (see package gen) and prints
// the totals a correct parser must find, as JSON.
//
//	go run ./transcript/internal/cmd/gentranscript -size 100M -out DIR/projects/-proj/ID.jsonl
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hooksup/hooksup/transcript/internal/gen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gentranscript:", err)
		os.Exit(1)
	}
}

func run() error {
	size := flag.String("size", "100M", "approximate size: bytes, or with a K, M or G suffix")
	out := flag.String("out", "", "file to write (its directory is created)")
	seed := flag.Uint64("seed", 1, "random seed")
	session := flag.String("session", "", "session id (default: the file's base name)")
	flag.Parse()
	if *out == "" {
		return fmt.Errorf("-out is required")
	}
	n, err := parseSize(*size)
	if err != nil {
		return err
	}
	if *session == "" {
		*session = strings.TrimSuffix(filepath.Base(*out), ".jsonl")
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return fmt.Errorf("create directory: %w", err)
	}
	f, err := os.Create(*out)
	if err != nil {
		return fmt.Errorf("create output: %w", err)
	}
	tot, err := gen.Write(f, gen.Config{Size: n, Seed: *seed, SessionID: *session})
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close output: %w", cerr)
	}
	if err != nil {
		return err
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(tot); err != nil {
		return fmt.Errorf("print totals: %w", err)
	}
	return nil
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("bad -size %q", s)
	}
	return n * mult, nil
}
