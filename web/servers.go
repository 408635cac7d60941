package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hooksup/hooksup/internal/atomicfile"
)

// ServersDir, in hooksup's state directory, holds a file for each running hooksup web, named
// by its pid, for hooksup web pair; each server removes its own as it exits.
const ServersDir = "web-url.d"

// Running is a hooksup web as its file in ServersDir says.
type Running struct {
	URL     string    `json:"url"`    // the URL it printed: --public-url's, or its own
	Listen  string    `json:"listen"` // --listen, as given
	Addr    string    `json:"addr"`   // the address it listens on: 127.0.0.1:7862
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
}

// Announce writes r's file in stateDir (0600, in a 0700 directory); remove removes it.
func Announce(stateDir string, r Running) (remove func(), err error) {
	dir := filepath.Join(stateDir, ServersDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	path := filepath.Join(dir, strconv.Itoa(r.PID))
	if err := atomicfile.Write(path, append(b, '\n'), 0o600); err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	return func() { os.Remove(path) }, nil
}

// Servers are the hooksup webs of stateDir, oldest first: those running, and those gone (killed,
// their files left behind), whose files it removes. A file that others may read or change is
// an *UnsafeFileError, as the token's is.
func Servers(stateDir string) (running, gone []Running, err error) {
	dir := filepath.Join(stateDir, ServersDir)
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("web: %w", err)
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue // atomicfile's temporary files, or not ours
		}
		path := filepath.Join(dir, e.Name())
		b, err := readPrivate(path)
		if err != nil {
			return nil, nil, err
		}
		var r Running
		if json.Unmarshal(b, &r) != nil || r.PID != pid || !strings.Contains(r.URL, "://") {
			continue
		}
		if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			os.Remove(path)
			gone = append(gone, r)
			continue
		}
		running = append(running, r)
	}
	oldest := func(a, b Running) int { return a.Started.Compare(b.Started) }
	slices.SortFunc(running, oldest)
	slices.SortFunc(gone, oldest)
	return running, gone, nil
}
