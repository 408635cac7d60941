// Package e2e is what hooksup's end-to-end tests share: building the binaries they drive (with
// the race detector when the tests run under it), reading the verdict logs a session wrote, and
// driving a program in a real tmux as a person would.
package e2e
