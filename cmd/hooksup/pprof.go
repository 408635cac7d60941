package main

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"

	"github.com/hooksup/hooksup/internal/atomicfile"
)

// envPprofDir, when set to a directory, makes hooksup write a heap profile there each time it
// gets SIGUSR1 (Linux and macOS): heap-PID-N.pprof, N counting from 1, after a garbage
// collection, so that the profile shows what is live. For soaks and leak hunts
// (scripts/soak.sh); read one with go tool pprof -top, two with -base.
const envPprofDir = "HOOKSUP_PPROF_DIR"

// startHeapProfiles arms the profile signal when envPprofDir is set; without it, or on a
// system with no profile signal, it does nothing. It returns the function that stops it.
func startHeapProfiles(stderr *os.File) func() {
	dir := os.Getenv(envPprofDir)
	if dir == "" || len(profileSignals) == 0 {
		return func() {}
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, profileSignals...)
	done := make(chan struct{})
	go func() {
		for n := 1; ; n++ {
			select {
			case <-c:
			case <-done:
				return
			}
			path := filepath.Join(dir, fmt.Sprintf("heap-%d-%d.pprof", os.Getpid(), n))
			if err := writeHeapProfile(path); err != nil {
				fmt.Fprintf(stderr, "hooksup: %s: %v\n", envPprofDir, err)
			}
		}
	}()
	return func() {
		signal.Stop(c)
		close(done)
	}
}

// writeHeapProfile writes the heap profile of what is live now to path, atomically: a reader
// waiting for the file never sees half of it.
func writeHeapProfile(path string) error {
	runtime.GC()
	var b bytes.Buffer
	if err := pprof.Lookup("heap").WriteTo(&b, 0); err != nil {
		return err
	}
	return atomicfile.Write(path, b.Bytes(), 0o600)
}
