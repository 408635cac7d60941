package main

import (
	"archive/zip"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// codeBlocks are the code blocks of the Markdown file at path (from the repository's root)
// fenced as lang, in order.
func codeBlocks(t *testing.T, path, lang string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../..", path))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```"+regexp.QuoteMeta(lang)+"\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// readmeBlocks are the sh code blocks of README.md, in order.
func readmeBlocks(t *testing.T) []string {
	t.Helper()
	return codeBlocks(t, "README.md", "sh")
}

// readmeBlock is the one sh code block of README.md that starts with prefix.
func readmeBlock(t *testing.T, prefix string) string {
	t.Helper()
	var found []string
	for _, b := range readmeBlocks(t) {
		if strings.HasPrefix(b, prefix) {
			found = append(found, b)
		}
	}
	if len(found) != 1 {
		t.Fatalf("README.md has %d sh blocks starting with %q, want one", len(found), prefix)
	}
	return found[0]
}

// readmeFirstBlock is the first sh code block of README.md.
func readmeFirstBlock(t *testing.T) string {
	t.Helper()
	blocks := readmeBlocks(t)
	if len(blocks) == 0 {
		t.Fatal("README.md has no sh block")
	}
	return blocks[0]
}

// The README's commands for a newcomer: the first installs hooksup from a clone and runs the
// demo; then the one-line install from the module proxy; and the test command, exactly the one
// CI runs.
func TestReadmeFirstCommands(t *testing.T) {
	t.Parallel()
	if first := readmeFirstBlock(t); !strings.HasPrefix(first, "git clone ") {
		t.Errorf("README.md's first sh block is not the install from a clone: %q", first)
	}
	if got := strings.TrimSpace(readmeBlock(t, "go install github.com/")); got != "go install github.com/hooksup/hooksup/cmd/...@latest && hooksup demo" {
		t.Errorf("the one-line install is %q", got)
	}
	test := strings.TrimSpace(readmeBlock(t, "go test "))
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(test) + `$`).Match(ci) {
		t.Errorf("README's test command %q is not a line of .ci/run", test)
	}
}

// The README's first block, run as a newcomer runs it on a fresh machine: its clone is a fresh
// copy of this checkout's files, named as the block's cd says; in it the block's install line is
// typed into a terminal whose environment holds nothing of Go's but the toolchain on PATH, so
// go install puts the commands in the default GOPATH's bin under a new HOME, which is on PATH
// as the README asks. Both commands land there, and the demo comes up on the screen.
func TestInstallFromClone(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	lines := strings.Split(strings.TrimSpace(readmeFirstBlock(t)), "\n")
	if len(lines) != 2 {
		t.Fatalf("README.md's first sh block is not a clone and an install: %q", lines)
	}
	clone := strings.Fields(lines[0])
	if len(clone) != 6 || clone[0] != "git" || clone[1] != "clone" || clone[3] != "&&" || clone[4] != "cd" ||
		clone[5] != strings.TrimSuffix(path.Base(clone[2]), ".git") {
		t.Fatalf("not a git clone and a cd into it: %q", lines[0])
	}
	install := lines[1]

	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	s := e2e.NewSandbox(t)
	dir := filepath.Join(s.Home, clone[5])
	for _, f := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, f)
		fi, err := os.Stat(src)
		if os.IsNotExist(err) {
			continue // deleted in the work tree, not yet in the index
		} else if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}

	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	goEnv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	gopathBin := filepath.Join(s.Home, "go", "bin")
	sandbox := filepath.Dir(s.Home)
	env := []string{"PATH=" + gopathBin + ":" + filepath.Dir(goBin) + ":/usr/bin:/bin", "TERM=xterm-256color",
		"HOME=" + s.Home, "XDG_STATE_HOME=" + s.State, "XDG_CONFIG_HOME=" + filepath.Join(sandbox, "cfg"),
		"XDG_RUNTIME_DIR=" + filepath.Join(sandbox, "run")}
	// Stand-ins for the network, as this machine has it: the module proxy is the module cache's
	// download directory, laid out as one, and the build cache is shared (-trimpath: the
	// dependencies compile once, wherever their module cache is); -modcacherw lets the test
	// remove the new module cache.
	env = append(env, "GOPROXY=file://"+filepath.Join(goEnv("GOMODCACHE"), "cache", "download"), "GOSUMDB=off",
		"GOCACHE="+goEnv("GOCACHE"), "GOTOOLCHAIN=local", "GOFLAGS=-modcacherw -trimpath")
	e2e.RequireTmux(t)
	start := time.Now()
	tm := e2e.StartTmux(t, 150, 40, env, dir, "sh", "-c", install)
	scr := tm.WaitFor("the demo, or the install to fail", 10*time.Minute, func(scr string) bool {
		return strings.Contains(scr, "hooksup demo agent") || strings.Contains(scr, "[exited ")
	})
	if !strings.Contains(scr, "hooksup demo agent") {
		t.Fatalf("%s in %s:\n%s", install, dir, scr)
	}
	t.Logf("%s: the demo showed after %s", install, time.Since(start).Round(time.Second))
	tm.WaitText(time.Minute, "Add a --verbose flag", "verdicts")
	ents, err := os.ReadDir(gopathBin)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "hooksup hooksup-hook" {
		t.Errorf("%s put %q in %s, want hooksup and hooksup-hook", install, names, gopathBin)
	}
	// Quit; the demo agent is at work, so hooksup asks first.
	tm.Keys("C-]", "q")
	scr = tm.WaitFor("hooksup to ask", time.Minute, func(scr string) bool {
		return strings.Contains(scr, "again ends it") || strings.Contains(scr, "[exited ")
	})
	if !strings.Contains(scr, "[exited ") {
		tm.Keys("q")
	}
	tm.WaitText(time.Minute, "[exited ")
}

// The README's one-line install, run as a person runs it, against a module proxy serving this
// checkout as v0.1.0 (the zip as the Go proxy makes it: the tracked files, without the nested
// modules under testdata): go install builds and installs both binaries, they start, and they
// link the very modules a release build of the checkout links.
func TestGoInstallLatest(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	install := strings.TrimSpace(strings.Split(readmeBlock(t, "go install github.com/"), "&&")[0])
	args := strings.Fields(install)
	if len(args) != 3 || args[0] != "go" || args[1] != "install" {
		t.Fatalf("not a go install line: %q", install)
	}
	mod, _, _ := strings.Cut(strings.TrimSuffix(args[2], "/cmd/...@latest"), "@")

	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	files := strings.Fields(string(out))
	var nested []string
	for _, f := range files {
		if strings.HasSuffix(f, "/go.mod") {
			nested = append(nested, strings.TrimSuffix(f, "go.mod"))
		}
	}
	const version = "v0.1.0"
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy", mod, "@v")
	if err := os.MkdirAll(proxy, 0o755); err != nil {
		t.Fatal(err)
	}
	zf, err := os.Create(filepath.Join(proxy, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(zf)
files:
	for _, f := range files {
		for _, n := range nested {
			if strings.HasPrefix(f, n) {
				continue files
			}
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(mod + "@" + version + "/" + f)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zf.Close()
	gomod, _ := os.ReadFile(filepath.Join(root, "go.mod"))
	os.WriteFile(filepath.Join(proxy, version+".mod"), gomod, 0o644)
	os.WriteFile(filepath.Join(proxy, version+".info"), []byte(`{"Version":"`+version+`","Time":"2026-11-23T00:00:00Z"}`), 0o644)
	os.WriteFile(filepath.Join(proxy, "list"), []byte(version+"\n"), 0o644)

	// The dependencies come from this machine's module cache, itself laid out as a proxy; the
	// module cache of the install is a fresh one, so nothing of this fake version stays behind.
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	gobin := filepath.Join(tmp, "bin")
	cmd := exec.Command("go", args[1:]...)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(),
		"GOBIN="+gobin, "GOMODCACHE="+filepath.Join(tmp, "modcache"), "GOTOOLCHAIN=local", "GOSUMDB=off",
		"GOPROXY=file://"+filepath.Join(tmp, "proxy")+",file://"+filepath.Join(strings.TrimSpace(string(gomodcache)), "cache", "download"),
		"GOFLAGS=-modcacherw -trimpath") // -trimpath: the dependencies compile once, wherever their cache is
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", install, err, out)
	}
	t.Logf("%s took %s", install, time.Since(start).Round(time.Second))
	for _, name := range []string{"hooksup", "hooksup-hook"} {
		out, err := exec.Command(filepath.Join(gobin, name), "--version").Output()
		if err != nil || !strings.HasPrefix(string(out), name+" "+version+" ") {
			t.Errorf("%s --version: %v %q", name, err, out)
		}
	}
	if ents, _ := os.ReadDir(gobin); len(ents) != 2 {
		t.Errorf("go install put %d files in GOBIN, want hooksup and hooksup-hook", len(ents))
	}

	// What it installed links the modules a release links, at the same versions, with no
	// replacement on either side: the checkout built as .goreleaser.yaml builds it.
	release := filepath.Join(tmp, "release")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", release+string(filepath.Separator), "./cmd/...")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/...: %v\n%s", err, out)
	}
	for _, name := range []string{"hooksup", "hooksup-hook"} {
		installed, released := linkedModules(t, filepath.Join(gobin, name)), linkedModules(t, filepath.Join(release, name))
		if onlyInstalled, onlyReleased := missingFrom(released, installed), missingFrom(installed, released); len(onlyInstalled)+len(onlyReleased) > 0 {
			t.Errorf("%s from go install links other modules than the release's; only go install's:%s\nonly the release's:%s",
				name, lines(onlyInstalled), lines(onlyReleased))
		}
		// Upstream's renderer wakes the whole program at its frame rate while nothing changes.
		for _, m := range installed {
			if strings.HasPrefix(m, "dep charm.land/bubbletea/v2 ") {
				t.Errorf("%s from go install links upstream Bubble Tea: %s", name, m)
			}
		}
	}
}

// linkedModules lists the modules bin was built with, as `go version -m` reports them: path and
// version, and where one was replaced, its replacement, a line each.
func linkedModules(t *testing.T, bin string) []string {
	t.Helper()
	out, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m %s: %v", bin, err)
	}
	var mods []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && (f[0] == "dep" || f[0] == "=>") {
			mods = append(mods, f[0]+" "+f[1]+" "+f[2])
		}
	}
	return mods
}

// lines is ls, one an indented line, or " none".
func lines(ls []string) string {
	if len(ls) == 0 {
		return " none"
	}
	return "\n\t" + strings.Join(ls, "\n\t")
}

// missingFrom is the lines of b that a lacks.
func missingFrom(a, b []string) []string {
	var missing []string
	for _, l := range b {
		if !slices.Contains(a, l) {
			missing = append(missing, l)
		}
	}
	return missing
}
