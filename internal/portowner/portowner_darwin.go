package portowner

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"time"
)

// of asks lsof, which macOS has, for the listener on ip:port: its pid and its user's uid.
func of(ip net.IP, port int) (Owner, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "lsof", "-nP", fmt.Sprintf("-iTCP:%d", port), "-sTCP:LISTEN", "-Fpun").Output()
	if err != nil && len(out) == 0 {
		return Owner{}, false, nil // lsof says nothing (exit 1) when no one listens
	}
	var o Owner
	found := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		l := sc.Text()
		if l == "" {
			continue
		}
		switch l[0] {
		case 'p':
			o.PID, _ = strconv.Atoi(l[1:])
		case 'u':
			o.UID, _ = strconv.Atoi(l[1:])
		case 'n': // "127.0.0.1:7862", "*:7862", "[::1]:7862"
			host, _, err := net.SplitHostPort(l[1:])
			if err != nil {
				continue
			}
			lip := net.ParseIP(host)
			if host == "*" || lip == nil {
				lip = net.IPv4zero
			}
			if covers(lip, ip) {
				found = true
			}
		}
		if found {
			return o, true, nil
		}
	}
	return Owner{}, false, nil
}
