package main

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// readmeBlocks are the sh code blocks of README.md, in order.
func readmeBlocks(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// The README's two commands for a newcomer: the first installs hooksup from the module proxy
// and runs the demo, the second is the test command, exactly the one CI runs.
func TestReadmeFirstCommands(t *testing.T) {
	blocks := readmeBlocks(t)
	if len(blocks) < 2 {
		t.Fatalf("README.md has %d sh blocks", len(blocks))
	}
	if got := strings.TrimSpace(blocks[0]); got != "go install github.com/hooksup/hooksup/cmd/...@latest && hooksup demo" {
		t.Errorf("the first install line is %q", got)
	}
	test := strings.TrimSpace(blocks[1])
	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(test) + `$`).Match(ci) {
		t.Errorf("README's test command %q is not a line of .ci/run", test)
	}
}

// The README's first line, run as a person runs it, against a module proxy serving this
// checkout as v0.1.0 (the zip as the Go proxy makes it: the tracked files, without the nested
// modules under testdata): go install builds and installs both binaries, they start, and they
// link the very modules a release build of the checkout links.
func TestGoInstallLatest(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	install := strings.TrimSpace(strings.Split(readmeBlocks(t)[0], "&&")[0])
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
