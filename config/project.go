package config

import (
	"os"
	"path/filepath"
)

// ProjectFiles are the names of a project's configuration files, shared (trusted by content)
// and personal.
var ProjectFiles = []string{".hooksup.toml", ".hooksup.local.toml"}

// FindProject is the directory whose configuration a command started in start uses: the nearest
// directory from start upward that holds a .hooksup.toml or .hooksup.local.toml, as git, cargo
// and eslint look upward. The search stops at the repository's root (a directory holding .git)
// and at /. found is false when there is none: dir is then start. start is absolute. A name is
// found whatever it is: one that is not a regular file (a named pipe, a directory) is the
// project's file all the same, which reading it then refuses by name (ReadFile), rather than
// one passed over in silence for a file further up.
func FindProject(start string) (dir string, found bool) {
	start = filepath.Clean(start)
	for d := start; ; {
		for _, name := range ProjectFiles {
			if _, err := os.Stat(filepath.Join(d, name)); err == nil {
				return d, true
			}
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return start, false
		}
		up := filepath.Dir(d)
		if up == d {
			return start, false
		}
		d = up
	}
}

// RepoRoot is the nearest directory from start upward that holds .git: the repository's root,
// where a project's CI and its .hooksup.toml are. ok is false outside a repository.
func RepoRoot(start string) (dir string, ok bool) {
	for d := filepath.Clean(start); ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, true
		}
		up := filepath.Dir(d)
		if up == d {
			return "", false
		}
		d = up
	}
}
