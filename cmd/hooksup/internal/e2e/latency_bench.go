package e2e

import (
	"net"
	"os"

	"github.com/charmbracelet/x/term"
)

// EnvKeyEcho makes the test binary a child that reports every byte it reads from its terminal
// to the unix socket named by the variable.
const EnvKeyEcho = "HOOKSUP_TEST_KEYECHO"

func KeyEchoMain(sock string) int {
	if st, err := term.MakeRaw(os.Stdin.Fd()); err == nil {
		defer term.Restore(os.Stdin.Fd(), st)
	}
	c, err := net.Dial("unix", sock)
	if err != nil {
		return 1
	}
	buf := make([]byte, 64)
	for {
		n, err := os.Stdin.Read(buf)
		if n > 0 {
			c.Write(buf[:n])
		}
		if err != nil {
			return 0
		}
	}
}
