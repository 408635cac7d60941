package projectlock

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The helper process: it takes the lock of the project in argv and holds it until killed,
// after saying so on stdout. With HOOKSUP_TEST_LOCK_CHILD set it also starts a child (a
// check's leftover process) that outlives it.
const envHolder = "HOOKSUP_TEST_LOCK_HOLDER"

func TestMain(m *testing.M) {
	if os.Getenv(envHolder) == "1" {
		os.Exit(holderMain(os.Args[len(os.Args)-2], os.Args[len(os.Args)-1]))
	}
	os.Exit(m.Run())
}

func holderMain(dir, project string) int {
	l, _, err := Acquire(context.Background(), dir, Holder{SessionID: "dead-beef", Agent: "claude", PID: os.Getpid(), Project: project}, nil)
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	l.Running("tests")
	fmt.Println("held")
	time.Sleep(time.Minute)
	return 0
}

// startHolder runs the helper holding project's lock and returns it once it holds it.
func startHolder(t *testing.T, dir, project string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$", dir, project)
	cmd.Env = append(os.Environ(), envHolder+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "held\n" {
		t.Fatalf("the holder said %q", line)
	}
	return cmd
}

// Of two holders in one project, the second waits, hears who holds it (and which check runs),
// and takes it once the first lets go; another project is not held up.
func TestSecondHolderWaitsForTheFirst(t *testing.T) {
	dir, project := t.TempDir(), t.TempDir()
	first, w, err := Acquire(context.Background(), dir, Holder{SessionID: "1a2b3c4d-xx", Agent: "claude", PID: 4242, Project: project}, nil)
	if err != nil || w.Waited != 0 || w.For != nil {
		t.Fatalf("first: %v, %+v", err, w)
	}
	first.Running("tests")

	// Another project: at once.
	other, w, err := Acquire(context.Background(), dir, Holder{SessionID: "other", Agent: "codex", PID: 1, Project: t.TempDir()}, nil)
	if err != nil || w.For != nil {
		t.Fatalf("another project: %v, %+v", err, w)
	}
	other.Release()

	heard := make(chan Holder, 8)
	type got struct {
		l   *Lock
		w   Wait
		err error
	}
	done := make(chan got, 1)
	go func() {
		l, w, err := Acquire(context.Background(), dir, Holder{SessionID: "5e6f", Agent: "gemini", PID: 99, Project: project + "/."},
			func(h Holder) { heard <- h })
		done <- got{l, w, err}
	}()
	var h Holder
	select {
	case h = <-heard:
	case <-time.After(5 * time.Second):
		t.Fatal("the second was not told it waits")
	}
	if h.SessionID != "1a2b3c4d-xx" || h.Agent != "claude" || h.PID != 4242 || h.Check != "tests" || h.Since.IsZero() {
		t.Fatalf("the second waits for %+v", h)
	}
	select {
	case g := <-done:
		t.Fatalf("the second took the lock while the first held it: %+v", g)
	case <-time.After(300 * time.Millisecond):
	}
	first.Release()
	var g got
	select {
	case g = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the second did not take the lock once the first let go")
	}
	if g.err != nil || g.w.Waited < 300*time.Millisecond || g.w.For == nil || g.w.For.SessionID != "1a2b3c4d-xx" || g.w.TookOver != nil {
		t.Fatalf("second: %v, %+v", g.err, g.w)
	}
	g.l.Release()
}

// A holder killed with SIGKILL lets go at once (the kernel drops its lock): the next takes it
// without waiting and learns whose it was.
func TestDeadHoldersLockIsTakenOver(t *testing.T) {
	dir, project := t.TempDir(), t.TempDir()
	holder := startHolder(t, dir, project)
	if _, _, err := Acquire(ctxFor(t, 200*time.Millisecond), dir, Holder{Agent: "claude", PID: 1, Project: project}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("taken while the holder lives: %v", err)
	}
	holder.Process.Signal(syscall.SIGKILL)
	holder.Wait()
	start := time.Now()
	l, w, err := Acquire(ctxFor(t, 5*time.Second), dir, Holder{Agent: "claude", PID: 2, Project: project}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	if took := time.Since(start); took > time.Second {
		t.Fatalf("took %s to take a dead holder's lock", took)
	}
	if w.TookOver == nil || w.TookOver.SessionID != "dead-beef" || w.TookOver.PID != holder.Process.Pid || w.TookOver.Check != "tests" {
		t.Fatalf("took over from %+v", w.TookOver)
	}
}

// A wait ends with its context, and leaves nothing held.
func TestWaitEndsWithItsContext(t *testing.T) {
	dir, project := t.TempDir(), t.TempDir()
	first, _, err := Acquire(context.Background(), dir, Holder{SessionID: "a", Agent: "claude", PID: 1, Project: project}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	heard := make(chan Holder, 1)
	done := make(chan error, 1)
	go func() {
		_, _, err := Acquire(ctx, dir, Holder{SessionID: "b", Agent: "claude", PID: 2, Project: project}, func(h Holder) { heard <- h })
		done <- err
	}()
	<-heard
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the cancelled wait ended with %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the wait did not end with its context")
	}
	first.Release()
	third, w, err := Acquire(ctxFor(t, time.Second), dir, Holder{SessionID: "c", Agent: "claude", PID: 3, Project: project}, nil)
	if err != nil || w.For != nil || w.TookOver != nil {
		t.Fatalf("after the cancelled wait and a release: %v, %+v", err, w)
	}
	third.Release()
}

// A process the holder starts (a check, and whatever it leaves running) never holds the lock:
// its descriptor is closed on exec.
func TestChildrenDoNotInheritTheLock(t *testing.T) {
	dir, project := t.TempDir(), t.TempDir()
	l, _, err := Acquire(context.Background(), dir, Holder{SessionID: "a", Agent: "claude", PID: os.Getpid(), Project: project}, nil)
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { child.Process.Kill(); child.Wait() })
	fds, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", child.Process.Pid)) // none on macOS: the release below tells
	for _, fd := range fds {
		if target, _ := os.Readlink(fd); strings.HasSuffix(target, ".lock") {
			t.Fatalf("the child holds %s", target)
		}
	}
	l.Release()
	next, _, err := Acquire(ctxFor(t, time.Second), dir, Holder{SessionID: "b", Agent: "claude", PID: 2, Project: project}, nil)
	if err != nil {
		t.Fatalf("a child of the holder kept the lock: %v", err)
	}
	next.Release()
}

// One project, however it is named: a symlink, a relative path, a trailing dot.
func TestOneProjectOneLock(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	os.Mkdir(project, 0o700)
	link := filepath.Join(root, "link")
	if err := os.Symlink(project, link); err != nil {
		t.Fatal(err)
	}
	want := Path(root, project)
	for _, name := range []string{link, project + "/.", project + "/sub/.."} {
		if got := Path(root, name); got != want {
			t.Errorf("Path(%q) = %s, want %s", name, got, want)
		}
	}
	if Path(root, root) == want {
		t.Error("another directory shares the lock")
	}
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// A lock let go leaves nothing in the runtime directory, also after others waited for it; the
// file of a holder that died stays until the next holder lets go.
func TestReleaseLeavesNothingBehind(t *testing.T) {
	dir, project := t.TempDir(), t.TempDir()
	first, _, err := Acquire(context.Background(), dir, Holder{SessionID: "a", Agent: "claude", PID: 1, Project: project}, nil)
	if err != nil {
		t.Fatal(err)
	}
	heard := make(chan Holder, 16)
	done := make(chan *Lock, 2)
	for _, id := range []string{"b", "c"} {
		go func() {
			l, _, err := Acquire(context.Background(), dir, Holder{SessionID: id, Agent: "claude", PID: 2, Project: project}, func(h Holder) { heard <- h })
			if err != nil {
				t.Error(err)
			}
			done <- l
		}()
	}
	<-heard
	<-heard
	first.Release()
	second := <-done
	select {
	case l := <-done:
		t.Fatalf("two hold the lock at once: %+v and %+v", second.me, l.me)
	case <-time.After(300 * time.Millisecond):
	}
	second.Release()
	(<-done).Release()
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Fatalf("left in the runtime directory: %v", left)
	}

	holder := startHolder(t, dir, project)
	holder.Process.Signal(syscall.SIGKILL)
	holder.Wait()
	l, w, err := Acquire(ctxFor(t, 5*time.Second), dir, Holder{Agent: "claude", PID: 3, Project: project}, nil)
	if err != nil || w.TookOver == nil {
		t.Fatalf("after a dead holder: %v, %+v", err, w)
	}
	l.Release()
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Fatalf("left in the runtime directory: %v", left)
	}
}
