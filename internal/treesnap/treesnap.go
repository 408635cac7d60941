// Package treesnap takes a snapshot of a project's files, to tell whether a command left them
// as it found them: the files git would show (tracked, and untracked but not ignored) when the
// directory is in a git work tree, else every file below it but the usual dependency and cache
// directories. A file is its path, type and mode, size and content hash (its modification time
// above MaxHashed); the caches tools keep of their own (__pycache__, .pytest_cache, …) and CMake
// build trees (a directory holding CMakeCache.txt or meson-private/coredata.dat, where a check builds out of the source) are
// no change of the project.
package treesnap

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// MaxFiles bounds a snapshot: a tree of more files is not compared (ErrTooLarge).
const MaxFiles = 100_000

// MaxHashed bounds the files whose content is compared: a larger one is compared by its size
// and modification time.
const MaxHashed = 16 << 20

// ErrTooLarge is the error of a tree of more than MaxFiles files.
var ErrTooLarge = fmt.Errorf("more than %d files", MaxFiles)

// file is what a snapshot knows of one file.
type file struct {
	mode  fs.FileMode
	size  int64
	mtime time.Time
	hash  [sha256.Size]byte // of the content, or of a symlink's target
}

// Snapshot is the project's files at one moment.
type Snapshot struct {
	dir   string
	git   bool            // the files are those git shows
	files map[string]file // by slash-separated path relative to dir
}

// Git reports whether the snapshot is of the files git shows, in a git work tree.
func (s *Snapshot) Git() bool { return s.git }

// cacheDirs are the directories tools fill with their own caches, never compared.
var cacheDirs = map[string]bool{
	"__pycache__": true, ".pytest_cache": true, ".mypy_cache": true, ".ruff_cache": true,
	".hypothesis": true, ".tox": true, ".nox": true, ".git": true,
}

// buildTreeMarks are the files CMake and Meson write in a build tree they configure.
var buildTreeMarks = []string{"CMakeCache.txt", "meson-private/coredata.dat"}

// walkSkip are the directories a walk (no git) leaves out besides the caches: dependencies,
// virtualenvs and build output, which the person keeps out of git.
var walkSkip = map[string]bool{
	"node_modules": true, ".venv": true, "venv": true, "target": true, ".gradle": true,
}

// Take snapshots dir. prev, when not nil, is an earlier snapshot of it: a file whose type, size
// and modification time are the same is not read again.
func Take(ctx context.Context, dir string, prev *Snapshot) (*Snapshot, error) {
	paths, err := gitFiles(ctx, dir)
	inGit := err == nil
	if err != nil && !errors.Is(err, ErrTooLarge) {
		paths, err = walk(dir)
	}
	if err != nil {
		return nil, err
	}
	s := &Snapshot{dir: dir, git: inGit, files: make(map[string]file, len(paths))}
	for _, p := range paths {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		fi, err := os.Lstat(full)
		if err != nil {
			continue // tracked but deleted: absent
		}
		f := file{mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime()}
		if old, ok := prev.file(p); ok && old.mode == f.mode && old.size == f.size && old.mtime.Equal(f.mtime) {
			s.files[p] = old
			continue
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			t, _ := os.Readlink(full)
			f.hash = sha256.Sum256([]byte(t))
		case fi.Mode().IsRegular() && fi.Size() > MaxHashed:
			f.hash = sha256.Sum256([]byte(f.mtime.String()))
		case fi.Mode().IsRegular():
			if f.hash, err = hashFile(full); err != nil {
				continue
			}
		default:
			continue
		}
		s.files[p] = f
	}
	return s, nil
}

// Has reports whether the snapshot holds the file p (slash-separated, relative to its
// directory).
func (s *Snapshot) Has(p string) bool {
	_, ok := s.file(p)
	return ok
}

func (s *Snapshot) file(p string) (file, bool) {
	if s == nil {
		return file{}, false
	}
	f, ok := s.files[p]
	return f, ok
}

func hashFile(p string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, err := os.Open(p)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// skipped reports whether a path lies in a cache directory.
func skipped(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if cacheDirs[part] {
			return true
		}
	}
	return false
}

// gitFiles are the files git shows in dir: tracked, and untracked but not ignored.
func gitFiles(ctx context.Context, dir string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "ls-files", "-z", "-c", "-o", "--exclude-standard")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w", err)
	}
	all := strings.Split(string(out), "\x00")
	var trees []string // the CMake build trees among them, each "DIR/"
	for _, p := range all {
		for _, mark := range buildTreeMarks {
			if dir, ok := strings.CutSuffix(p, "/"+mark); ok {
				trees = append(trees, dir+"/")
			}
		}
	}
	var paths []string
	for _, p := range all {
		if p == "" || skipped(p) || slices.ContainsFunc(trees, func(t string) bool { return strings.HasPrefix(p, t) }) {
			continue
		}
		if len(paths) == MaxFiles {
			return nil, ErrTooLarge
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return slices.Compact(paths), nil
}

// walk lists the files below dir, without the skipped directories.
func walk(dir string) ([]string, error) {
	var paths []string
	errTooLarge := errors.New("stop")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil
		}
		if d.IsDir() {
			if p != dir && (cacheDirs[d.Name()] || walkSkip[d.Name()]) {
				return filepath.SkipDir
			}
			for _, mark := range buildTreeMarks {
				if _, err := os.Lstat(filepath.Join(p, filepath.FromSlash(mark))); err == nil && p != dir {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if len(paths) == MaxFiles {
			return errTooLarge
		}
		rel, _ := filepath.Rel(dir, p)
		paths = append(paths, filepath.ToSlash(rel))
		return nil
	})
	if errors.Is(err, errTooLarge) {
		return nil, ErrTooLarge
	}
	return paths, err
}

// Change is one file that differs between two snapshots.
type Change struct {
	Path string
	What string // "changed", "created", "deleted", "mode changed"
}

// String is the path, quoted as Go quotes a string when it holds a control character or is not
// UTF-8 (safe in a terminal and in a TOML comment), and what happened to it but for a change.
func (c Change) String() string {
	p := c.Path
	if !utf8.ValidString(p) || strings.ContainsFunc(p, unicode.IsControl) {
		p = strconv.Quote(p)
	}
	if c.What == "changed" {
		return p
	}
	return p + " (" + c.What + ")"
}

// Diff is what changed from a to b, by path.
func Diff(a, b *Snapshot) []Change {
	var out []Change
	for p, fa := range a.files {
		fb, ok := b.files[p]
		switch {
		case !ok:
			out = append(out, Change{p, "deleted"})
		case fa.hash != fb.hash || fa.mode.Type() != fb.mode.Type():
			out = append(out, Change{p, "changed"})
		case fa.mode != fb.mode:
			out = append(out, Change{p, "mode changed"})
		}
	}
	for p := range b.files {
		if _, ok := a.files[p]; !ok {
			out = append(out, Change{p, "created"})
		}
	}
	slices.SortFunc(out, func(x, y Change) int { return strings.Compare(x.Path, y.Path) })
	return out
}

// Summary names the changes in one line, at most n of them: "README.md, docs/a.md (created)
// and 3 more".
func Summary(cs []Change, n int) string {
	var parts []string
	for i, c := range cs {
		if i == n {
			return strings.Join(parts, ", ") + fmt.Sprintf(" and %d more", len(cs)-n)
		}
		parts = append(parts, c.String())
	}
	return strings.Join(parts, ", ")
}
