package config

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hooksup/hooksup/internal/atomicfile"
)

// TrustStore records which project configuration files the user trusted, by absolute path and
// the SHA-256 of their exact content (like direnv): a changed file is untrusted again.
type TrustStore struct {
	Path string // the store file, e.g. $XDG_STATE_HOME/hooksup/trusted
}

// Digest is the content hash the store records.
func Digest(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

// Trusted reports whether this exact content of path was trusted.
func (t TrustStore) Trusted(path string, content []byte) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	entries, err := t.read()
	if err != nil {
		return false
	}
	return entries[abs] == Digest(content)
}

// Trust records the current content of path as trusted.
func (t TrustStore) Trust(path string) error {
	content, err := ReadFile(path)
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	return t.TrustContent(path, content)
}

// TrustContent records this content of path as trusted: the bytes the person was shown, not
// whatever the file holds a moment later.
func (t TrustStore) TrustContent(path string, content []byte) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	entries, err := t.read()
	if err != nil {
		return err
	}
	entries[abs] = Digest(content)
	var b strings.Builder
	for p, d := range entries {
		fmt.Fprintf(&b, "%s %s\n", d, recordPath(p))
	}
	if err := os.MkdirAll(filepath.Dir(t.Path), 0o700); err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	return atomicfile.Write(t.Path, []byte(b.String()), 0o600)
}

func (t TrustStore) read() (map[string]string, error) {
	m := map[string]string{}
	f, err := os.Open(t.Path)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read trust store: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		digest, path, ok := strings.Cut(sc.Text(), " ")
		if !ok || len(digest) != sha256.Size*2 {
			continue
		}
		if strings.HasPrefix(path, `"`) {
			if path, err = strconv.Unquote(path); err != nil {
				continue
			}
		}
		m[path] = digest
	}
	return m, sc.Err()
}

// recordPath is how a path is written in the store: as it is, unless it holds a byte that could
// end or bend its line (a newline, any control, a byte that is not UTF-8) or starts with a quote;
// then Go-quoted, which read undoes, so that every path round-trips and no path can add a line.
func recordPath(p string) string {
	if strings.HasPrefix(p, `"`) || !utf8.ValidString(p) || strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return strconv.Quote(p)
	}
	return p
}
