package e2e

import (
	"fmt"
	"path/filepath"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// Texts are n plain replies: "reply 1", "reply 2", …
func Texts(n int) []mockapi.Reply {
	rs := make([]mockapi.Reply, n)
	for i := range rs {
		rs[i] = mockapi.Text(fmt.Sprintf("reply %d", i+1))
	}
	return rs
}

// ChangingFailure is a done command that never passes and says something new each run (its
// count in letters): no progress never ends the goal.
func ChangingFailure(rc *RealClaude) string {
	runs := filepath.Join(rc.Env.Home, "runs")
	return fmt.Sprintf(`echo x >> %[1]s; echo "check $(wc -l < %[1]s | tr 0-9 a-j) fails"; exit 1`, runs)
}
