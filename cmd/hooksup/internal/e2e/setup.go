package e2e

import (
	"bytes"
	"testing"
)

func (s *Sandbox) Hooksup(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := ExecHooksup(s, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Run()
	return cmd.ProcessState.ExitCode(), out.String()
}
