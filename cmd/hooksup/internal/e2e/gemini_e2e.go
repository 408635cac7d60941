package e2e

import (
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// RealGemini is one test's gemini: the mock it talks to, its environment, and hooksup's state
// and runtime directories.
type RealGemini struct {
	HooksupEnv
	Srv *mockapi.GeminiServer
	Env *mockapi.GeminiEnv
}

func NewRealGemini(t *testing.T, replies ...mockapi.GeminiReply) *RealGemini {
	t.Helper()
	srv := mockapi.NewGeminiServer(t, &mockapi.GeminiScript{Replies: replies}, mockapi.WithNetNS(), mockapi.WithQuiet())
	env := mockapi.NewGeminiEnv(t, srv.URL, "")
	return &RealGemini{HooksupEnv: NewHooksupEnv(t, "hg", env.Home, env.Setenv, srv.Run, env.Command), Srv: srv, Env: env}
}

// Gemini runs plain gemini with args and waits for it.
func (rg *RealGemini) Gemini(args ...string) mockapi.Result {
	rg.T.Helper()
	return rg.RunBounded("gemini", rg.Env.Gemini, args...)
}
