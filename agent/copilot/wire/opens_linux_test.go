package wire

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

// countOpens watches path from now on; the function it returns is how many times the file was
// opened since. (Each open is followed by a close: the kernel never merges two opens into one
// event, as it does two identical events in a row.)
func countOpens(t *testing.T, path string) func() int {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	if _, err := unix.InotifyAddWatch(fd, path, unix.IN_OPEN|unix.IN_CLOSE_NOWRITE); err != nil {
		t.Fatal(err)
	}
	return func() int {
		n := 0
		buf := make([]byte, 64<<10)
		for {
			k, err := unix.Read(fd, buf)
			if k <= 0 || err != nil {
				return n
			}
			// struct inotify_event: wd, mask, cookie, len (each 32 bits), then len bytes of name.
			for off := 0; off+unix.SizeofInotifyEvent <= k; {
				if binary.NativeEndian.Uint32(buf[off+4:])&unix.IN_OPEN != 0 {
					n++
				}
				off += unix.SizeofInotifyEvent + int(binary.NativeEndian.Uint32(buf[off+12:]))
			}
		}
	}
}
