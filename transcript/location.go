package transcript

import (
	"path/filepath"
	"strings"
)

// ConfigDir is Claude Code's configuration directory in an environment: $CLAUDE_CONFIG_DIR,
// else $HOME/.claude.
func ConfigDir(getenv func(string) string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	return filepath.Join(getenv("HOME"), ".claude")
}

// ProjectDir is where Claude Code keeps the transcripts of sessions started in cwd:
// <configDir>/projects/<cwd's real path, every character other than [A-Za-z0-9] as "-">.
// Claude cuts names over 200 characters and adds a hash; ProjectDir then finds the directory
// by that prefix once claude has made it.
func ProjectDir(configDir, cwd string) string {
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	base := filepath.Join(configDir, "projects")
	name := ProjectDirName(cwd)
	if len(name) <= 200 {
		return filepath.Join(base, name)
	}
	if m, _ := filepath.Glob(filepath.Join(base, name[:200]+"-*")); len(m) == 1 {
		return m[0]
	}
	return filepath.Join(base, name[:200])
}

// ProjectDirName is Claude Code's directory name for a project path (before its 200-character
// cut): each character other than [A-Za-z0-9] becomes "-" (two for characters outside the
// BMP, as claude counts UTF-16 units).
func ProjectDirName(dir string) string {
	var b strings.Builder
	for _, r := range dir {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteString("--")
		default:
			b.WriteByte('-')
		}
	}
	return b.String()
}
