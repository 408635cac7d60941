// Package peercred asks the kernel who is at the other end of a unix socket: the uid check
// every hooksup socket makes before it reads a byte (SO_PEERCRED on Linux, LOCAL_PEERCRED on
// macOS; elsewhere every peer is refused).
package peercred
