package e2e

import (
	"bytes"
	"net"
)

func ReadAll(c net.Conn) (string, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(c)
	return b.String(), err
}
