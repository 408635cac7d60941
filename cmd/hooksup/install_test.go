package main

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// The README's one-line install, run as a person runs it, against a module proxy serving this
// checkout as v0.1.0 (the zip as the Go proxy makes it: the tracked files, without the nested
// modules under testdata): go install builds and installs both binaries, and they start.
func TestGoInstallLatest(t *testing.T) {
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
}
