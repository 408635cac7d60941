package hooks

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Version is an agent's version, as its --version prints it ("2.1.330 (Claude Code)").
// The zero Version is unknown.
type Version struct{ Major, Minor, Patch int }

// versionRE is compiled on first use, not when the package loads: the hook client
// (cmd/hooksup-hook) links this package and runs on every hook call without reading versions.
var versionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(\d+)\.(\d+)\.(\d+)\b`) })

// ParseVersion reads the first x.y.z in s (e.g. `claude --version`'s output).
func ParseVersion(s string) (Version, bool) {
	m := versionRE().FindStringSubmatch(s)
	if m == nil {
		return Version{}, false
	}
	var v Version
	for i, p := range []*int{&v.Major, &v.Minor, &v.Patch} {
		n, err := strconv.Atoi(m[i+1])
		if err != nil {
			return Version{}, false
		}
		*p = n
	}
	return v, true
}

// Known reports whether the version was found.
func (v Version) Known() bool { return v != Version{} }

func (v Version) String() string {
	if !v.Known() {
		return "unknown"
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// Less reports whether v is older than w.
func (v Version) Less(w Version) bool {
	if v.Major != w.Major {
		return v.Major < w.Major
	}
	if v.Minor != w.Minor {
		return v.Minor < w.Minor
	}
	return v.Patch < w.Patch
}

// RunVersion runs `bin --version` once, with env, for at most timeout, and reads the version
// in the first line it prints. It returns the zero Version and an error when it cannot tell.
func RunVersion(ctx context.Context, bin string, env []string, timeout time.Duration) (Version, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = env
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		return Version{}, fmt.Errorf("%s --version: %w", bin, err)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	v, ok := ParseVersion(first)
	if !ok {
		return Version{}, fmt.Errorf("%s --version printed %q, not a version", bin, clipString(first, 80))
	}
	return v, nil
}

// clipString is s cut to n bytes and marked "…" when it is longer.
func clipString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
