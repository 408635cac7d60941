package web

import (
	"fmt"
	"net"
	"testing"
	"time"
)

// A flood of requests naming foreign addresses asks the kernel for the machine's addresses once
// per localAddrsFresh, not once a request; an address the machine gains is answered to once
// that time has passed.
func TestLocalAddrsAreReadOncePerWindow(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	reads := 0
	own := []net.Addr{&net.IPNet{IP: net.ParseIP("192.0.2.7"), Mask: net.CIDRMask(24, 32)}}
	l := &localAddrs{now: func() time.Time { return now }, read: func() ([]net.Addr, error) {
		reads++
		return own, nil
	}}
	for i := range 10_000 {
		if l.has(fmt.Sprintf("198.51.100.%d", i%250)) {
			t.Fatalf("a foreign address is taken as the machine's")
		}
	}
	if !l.has("192.0.2.7") {
		t.Error("the machine's own address is not recognised")
	}
	if l.has("localhost") || l.has("evil.example") {
		t.Error("a name is taken as an address of the machine")
	}
	if reads != 1 {
		t.Errorf("10,001 requests naming addresses read the interfaces %d times, want 1", reads)
	}
	own = append(own, &net.IPNet{IP: net.ParseIP("2001:db8::9"), Mask: net.CIDRMask(64, 128)})
	if l.has("2001:db8::9") {
		t.Error("an address gained within the window is answered before the window ends")
	}
	now = now.Add(localAddrsFresh)
	if !l.has("2001:db8::9") {
		t.Error("an address the machine gained is not answered once the window has passed")
	}
	if reads != 2 {
		t.Errorf("interfaces read %d times after the window, want 2", reads)
	}
}
