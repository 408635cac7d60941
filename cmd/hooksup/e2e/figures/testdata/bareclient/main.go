// Command bareclient is the floor for any Go hook client, for the round-trip benchmark: it
// reads stdin, dials the supervisor's unix socket, sends the request and reads the answer —
// nothing else. As `bareclient check COMMAND` it is the floor for a hook that runs a check
// itself (the standalone hook `hooksup install` registers): it reads stdin and runs
// /bin/sh -c COMMAND with its output captured, as hooksup runs a check — nothing else.
package main

import (
	"bytes"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
)

func main() {
	payload, _ := io.ReadAll(os.Stdin)
	if len(os.Args) == 3 && os.Args[1] == "check" {
		var out bytes.Buffer
		cmd := exec.Command("/bin/sh", "-c", os.Args[2])
		cmd.Stdout, cmd.Stderr = &out, &out
		_ = cmd.Run()
		return
	}
	c, err := net.Dial("unix", os.Getenv("HOOKSUP_SOCKET"))
	if err != nil {
		os.Exit(0)
	}
	hdr := "HOOKSUP/1 " + os.Getenv("HOOKSUP_TOKEN") + " Stop " + strconv.Itoa(len(payload)) + "\n"
	c.Write(append([]byte(hdr), payload...))
	buf := make([]byte, 4096)
	c.Read(buf)
	c.Close()
}
