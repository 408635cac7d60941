package scenarios

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// As an ordinary user (not root) whose settings hold a stop hook of their own: the stop is
// gated, their hook still runs at each stop, and their settings and the project are the same
// bytes after the session as before; the session leaves nothing in the runtime directory.
func TestScenarioOrdinaryUserKeepsTheirFiles(t *testing.T) {
	forEach(t, func(t *testing.T, a *agent) {
		cred := ordinaryUser(t)
		var reach string
		if cred != nil {
			reach = reachable(t, a)
		}
		e := a.start(t, texts("Done, I think.", "Fixed it."), false)
		theirHook := filepath.Join(e.home, "their-hook-ran")
		settings := a.ownStopHook(t, e, "echo ran >> "+theirHook)
		cfg := e.config(`mode = "auto"` + failsOnce("once", filepath.Join(e.home, "failed-once"), "CHECK-REASON-7Q"))
		os.WriteFile(filepath.Join(e.workDir, "main.go"), []byte("package main\n"), 0o644)
		if cred != nil {
			runAs(t, e, cred, reach)
		}
		before := readAll(settings)
		project := treeSums(t, e.workDir)

		res := e.supervised(cfg, "fix the tests")
		if res.ExitCode != 0 {
			t.Fatalf("exit %d stdout %q\nstderr: %s\nlog: %s", res.ExitCode, res.Stdout, res.Stderr, e.log())
		}
		e.checkStdout(res, "Done, I think.", "Fixed it.")
		want := "Stop:block/check:once Stop:allow/checks"
		if a.logsOtherHooks {
			want = "Stop:block/check:once OtherHooks:allow/hooks Stop:allow/checks OtherHooks:allow/hooks"
		}
		if got := e.decisions(); got != want {
			t.Fatalf("verdicts: %s\nstderr: %s\nlog: %s", got, res.Stderr, e.log())
		}
		if turns := e.turns(); len(turns) != 2 || !strings.Contains(turns[1], "CHECK-REASON-7Q") {
			t.Fatalf("turn requests end with %q, want 2, the second with the check's reason", turns)
		}
		if b, _ := os.ReadFile(theirHook); strings.Count(string(b), "ran") != 2 {
			t.Fatalf("their own stop hook ran %d times, want 2 (once a stop)", strings.Count(string(b), "ran"))
		}
		var st syscall.Stat_t
		if err := syscall.Stat(theirHook, &st); err != nil || cred != nil && st.Uid != cred.Uid {
			t.Fatalf("their hook's file is owned by uid %d, not theirs (%v)", st.Uid, err)
		}
		for p, b := range readAll(settings) {
			if !bytes.Equal(b, before[p]) {
				t.Errorf("their %s changed:\n%s\nwas\n%s", p, b, before[p])
			}
		}
		if got := treeSums(t, e.workDir); fmt.Sprint(got) != fmt.Sprint(project) {
			t.Errorf("the project changed: %v, was %v", got, project)
		}
		if left, _ := filepath.Glob(filepath.Join(e.run, "hooksup", "*")); len(left) > 0 {
			t.Errorf("the session left %v in the runtime directory", left)
		}
	})
}

// treeSums maps every file under dir (relative path, links by their target) to a digest of its
// content.
func treeSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			sums[rel] = "link:" + l
		case d.Type().IsRegular():
			b, _ := os.ReadFile(p)
			sums[rel] = fmt.Sprintf("%x", sha256.Sum256(b))
		case d.IsDir():
			sums[rel+"/"] = "dir"
		}
		return nil
	})
	return sums
}

// ordinaryUser is the user other than root to run the agent and hooksup as: nil for the test's
// own user when it is not root, else a throwaway one (useradd, removed at the end).
func ordinaryUser(t *testing.T) *syscall.Credential {
	t.Helper()
	if os.Getuid() != 0 {
		return nil
	}
	if _, err := exec.LookPath("useradd"); err != nil {
		t.Skip("running as root without useradd: no ordinary user to run the agent as")
	}
	name := fmt.Sprintf("hsu%d", os.Getpid()%100000)
	if out, err := exec.Command("useradd", "-M", "-N", "-s", "/bin/sh", name).CombinedOutput(); err != nil {
		t.Fatalf("useradd %s: %v: %s", name, err, out)
	}
	t.Cleanup(func() { exec.Command("userdel", name).Run() })
	id := func(flag string) uint32 {
		out, err := exec.Command("id", flag, name).Output()
		if err != nil {
			t.Fatalf("id %s %s: %v", flag, name, err)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
		return uint32(n)
	}
	return &syscall.Credential{Uid: id("-u"), Gid: id("-g")}
}

// reachable installs the agent (and the node 22 qwen runs on) where an ordinary user can run
// it, as hard links where they can be made (the packages are some 100 MB each), and points the
// tests' variables at the copies, for the environment start makes next. It returns the
// directory that holds them.
func reachable(t *testing.T, a *agent) string {
	t.Helper()
	root, err := os.MkdirTemp("", "hsa")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	os.Chmod(root, 0o755)
	for i, v := range a.installVars {
		bin := os.Getenv(v)
		if bin == "" {
			t.Skipf("%s is not set: no %s to install where an ordinary user can run it", v, a.name)
		}
		modules := bin
		for filepath.Base(modules) != "node_modules" {
			if modules == "/" {
				t.Fatalf("%s=%s is not in a node_modules", v, bin)
			}
			modules = filepath.Dir(modules)
		}
		rel, _ := filepath.Rel(modules, bin)
		copied := filepath.Join(root, strconv.Itoa(i), "node_modules")
		os.MkdirAll(filepath.Dir(copied), 0o755)
		hardCopy(t, modules, copied)
		t.Setenv(v, filepath.Join(copied, rel))
	}
	return root
}

// hardCopy copies the tree src to dst, as hard links where they can be made.
func hardCopy(t *testing.T, src, dst string) {
	t.Helper()
	if exec.Command("cp", "-al", src, dst).Run() != nil {
		os.RemoveAll(dst)
		if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
			t.Fatalf("copy %s: %v: %s", src, err, out)
		}
	}
}

// runAs makes the agent's environment e the ordinary user's cred: it owns the agent's home,
// project and hooksup's directories, can reach them, hooksup and the agent installed at reach,
// and every command runs as that user.
func runAs(t *testing.T, e *env, cred *syscall.Credential, reach string) {
	t.Helper()
	own := append([]string{filepath.Dir(e.home), filepath.Dir(e.state)}, e.agent.runAs(t, e, cred, reach)...)
	for _, d := range own {
		if out, err := exec.Command("chown", "-R", fmt.Sprintf("%d:%d", cred.Uid, cred.Gid), d).CombinedOutput(); err != nil {
			t.Fatalf("chown: %v: %s", err, out)
		}
		// The directories above it, the tests' temporary ones, are root's alone.
		for p := filepath.Dir(d); p != os.TempDir() && p != "/"; p = filepath.Dir(p) {
			os.Chmod(p, 0o755)
		}
	}
	os.Chmod(filepath.Dir(hooksupBin), 0o755)
}
