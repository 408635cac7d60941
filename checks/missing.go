package checks

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hooksup/hooksup/config"
)

// notPrograms are the shell's own words: a command that starts with one runs no program
// hooksup could look for.
var notPrograms = []string{
	"!", "{", "(", ".", ":", "[", "[[", "alias", "case", "cd", "command", "echo", "eval", "exec", "exit",
	"export", "false", "for", "if", "printf", "pwd", "read", "set", "source", "test", "time", "true",
	"ulimit", "umask", "unset", "until", "while",
}

// Program is the program a check's command starts, "" when the shell decides (a builtin, a
// variable, a quote): "uv" for "uv run pytest -q", ".venv/bin/python" for
// "CI=true .venv/bin/python -m pytest".
func Program(command string) string {
	for _, w := range strings.Fields(command) {
		if strings.ContainsAny(w, "$`'\"\\;&|<>()*?") {
			return ""
		}
		if name, _, ok := strings.Cut(w, "="); ok && name != "" && !strings.Contains(name, "/") {
			continue // an assignment for the command
		}
		if slices.Contains(notPrograms, w) {
			return ""
		}
		return w
	}
	return ""
}

// Missing is the program a check starts when it is not installed: not on the PATH, or, for
// a path, not an executable file there (relative to the check's cwd under dir); "" when it is
// there or hooksup cannot tell.
func Missing(c config.Check, dir string) string {
	prog := Program(c.Command)
	if prog == "" {
		return ""
	}
	if !strings.Contains(prog, "/") {
		if _, err := exec.LookPath(prog); err != nil {
			return prog
		}
		return ""
	}
	p := prog
	if !filepath.IsAbs(p) {
		p = filepath.Join(WorkDir(c, dir), p)
	}
	if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return prog
	}
	return ""
}
