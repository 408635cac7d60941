package portowner

import (
	"net"
	"os"
	"testing"
)

// A listener of this process's is found with this user's uid and this pid.
func TestOfFindsTheListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	o, ok, err := Of(ln.Addr().String())
	if err != nil || !ok {
		t.Fatalf("Of(%s): %v %v", ln.Addr(), ok, err)
	}
	if o.UID != os.Getuid() || o.PID != os.Getpid() {
		t.Fatalf("Of(%s) = %+v, want uid %d pid %d", ln.Addr(), o, os.Getuid(), os.Getpid())
	}
	ln.Close()
	if _, ok, _ := Of(ln.Addr().String()); ok {
		t.Fatalf("Of(%s) finds a listener after it closed", ln.Addr())
	}
}
