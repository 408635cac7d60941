//go:build linux

package mockapi

import (
	"fmt"
	"os"
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// netNS is one OS thread, locked to its goroutine, that has left the test's
// network namespace for a fresh one in which only lo exists (and is up).
// Sockets created and processes started on that thread belong to the new
// namespace; a socket keeps its namespace, so the server can accept and
// serve on it from any goroutine. The thread is never unlocked: when the
// goroutine returns, the Go runtime throws the thread away.
type netNS struct {
	id string // readlink /proc/thread-self/ns/net inside

	mu     sync.Mutex
	closed bool
	work   chan func()
}

func newNetNS() (*netNS, error) {
	n := &netNS{work: make(chan func())}
	ready := make(chan error, 1)
	go n.loop(ready, nil)
	if err := <-ready; err != nil {
		return nil, err
	}
	return n, nil
}

// loop locks its goroutine to a thread other than the process's main
// thread, moves that thread into a new network namespace and runs the work
// sent to it until close. Once locked is closed (if non-nil), it holds its
// thread.
func (n *netNS) loop(ready chan<- error, locked chan<- struct{}) {
	// Deliberately no UnlockOSThread on the namespace thread: it must die
	// with this goroutine. (While a goroutine is locked, the Go runtime
	// starts new threads from a clean template thread, so the namespace
	// does not leak into other threads.)
	runtime.LockOSThread()
	if unix.Gettid() == unix.Getpid() {
		// This is the main thread. Moving it would make the whole process
		// look moved (/proc/self/ns/net, /proc/net follow the main thread)
		// and a locked main thread is never discarded, only parked. Keep it
		// occupied until another goroutine holds another thread.
		other := make(chan struct{})
		go n.loop(ready, other)
		<-other
		runtime.UnlockOSThread()
		return
	}
	if locked != nil {
		close(locked)
	}
	hostID, _ := os.Readlink("/proc/thread-self/ns/net")
	if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
		ready <- fmt.Errorf("unshare(CLONE_NEWNET): %w", err)
		return
	}
	id, err := os.Readlink("/proc/thread-self/ns/net")
	if err == nil && id == hostID {
		err = fmt.Errorf("still in the host namespace %s after unshare", id)
	}
	if err == nil {
		err = loUp()
	}
	if err != nil {
		ready <- err
		return
	}
	n.id = id
	ready <- nil
	for f := range n.work {
		f()
	}
}

// loUp sets IFF_UP on lo in the calling thread's network namespace.
func loUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("SIOCGIFFLAGS lo: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("SIOCSIFFLAGS lo up: %w", err)
	}
	return nil
}

// do runs f on the namespace's thread and waits for it; it returns false
// (without running f) once the namespace is closed.
func (n *netNS) do(f func()) bool {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return false
	}
	done := make(chan struct{})
	n.work <- func() { defer close(done); f() }
	n.mu.Unlock()
	<-done
	return true
}

// close ends the thread. Processes already started keep the namespace
// alive until they exit.
func (n *netNS) close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.closed {
		n.closed = true
		close(n.work)
	}
}
