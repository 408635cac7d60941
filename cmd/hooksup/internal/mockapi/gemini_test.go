package mockapi

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The real gemini (HOOKSUP_TEST_GEMINI; skipped without it, a failure in CI) runs offline against
// the mock: plain `gemini -p` prints the scripted reply and exits 0, its one turn request
// carries the prompt, and its chat records the reply.
func TestGeminiPlainRunsOffline(t *testing.T) {
	srv := NewGeminiServer(t, &GeminiScript{Replies: []GeminiReply{GeminiText("The answer is 42.")}}, WithNetNS(), WithQuiet())
	env := NewGeminiEnv(t, srv.URL, "")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	res := srv.Run(env.Command(ctx, "gemini", "-p", "what is the answer?"))
	if res.ExitCode != 0 || res.Stdout != "The answer is 42.\n" {
		t.Fatalf("exit %d stdout %q\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	turns := srv.Turns()
	if len(turns) != 1 || !strings.Contains(turns[0].LastUserText(), "what is the answer?") {
		t.Fatalf("turns: %+v", turns)
	}
	if chats, _ := filepath.Glob(env.ChatsGlob()); len(chats) != 1 {
		t.Fatalf("chats: %v", chats)
	}
}
