package portowner

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// of reads the kernel's table of TCP sockets (/proc/net/tcp, tcp6) for a listener on ip:port,
// and looks for the process holding it among those this user may see.
func of(ip net.IP, port int) (Owner, bool, error) {
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		uid, inode, ok, err := listener(table, ip, port)
		if err != nil {
			return Owner{}, false, err
		}
		if ok {
			return Owner{UID: uid, PID: holder(inode)}, true, nil
		}
	}
	return Owner{}, false, nil
}

const listenState = "0A"

func listener(table string, ip net.IP, port int) (uid int, inode string, ok bool, err error) {
	f, err := os.Open(table)
	if os.IsNotExist(err) {
		return 0, "", false, nil
	}
	if err != nil {
		return 0, "", false, fmt.Errorf("read %s: %w", table, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the heading
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != listenState {
			continue
		}
		lip, lport, err := parseAddr(fields[1])
		if err != nil || lport != port || !covers(lip, ip) {
			continue
		}
		uid, err := strconv.Atoi(fields[7])
		if err != nil {
			continue
		}
		return uid, fields[9], true, nil
	}
	return 0, "", false, sc.Err()
}

// parseAddr reads the table's "0100007F:1EB6": the address as the kernel stores it (each 32-bit
// word in host order: little-endian here) and the port in hex.
func parseAddr(s string) (net.IP, int, error) {
	h, p, ok := strings.Cut(s, ":")
	if !ok {
		return nil, 0, fmt.Errorf("no port in %q", s)
	}
	port, err := strconv.ParseUint(p, 16, 16)
	if err != nil {
		return nil, 0, err
	}
	b, err := hex.DecodeString(h)
	if err != nil || (len(b) != 4 && len(b) != 16) {
		return nil, 0, fmt.Errorf("bad address %q", s)
	}
	for i := 0; i < len(b); i += 4 {
		b[i], b[i+1], b[i+2], b[i+3] = b[i+3], b[i+2], b[i+1], b[i]
	}
	return net.IP(b), int(port), nil
}

// holder is the pid of a process holding the socket inode, 0 when none that this user may see.
func holder(inode string) int {
	want := "socket:[" + inode + "]"
	fds, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	for _, fd := range fds {
		if l, err := os.Readlink(fd); err == nil && l == want {
			pid, _ := strconv.Atoi(strings.Split(fd, "/")[2])
			return pid
		}
	}
	return 0
}
