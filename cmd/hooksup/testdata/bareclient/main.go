// Command bareclient is the floor for any Go hook client, for the round-trip benchmark: it
// reads stdin, dials the supervisor's unix socket, sends the request and reads the answer —
// nothing else.
package main

import (
	"io"
	"net"
	"os"
	"strconv"
)

func main() {
	payload, _ := io.ReadAll(os.Stdin)
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
