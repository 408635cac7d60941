package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// RealCodex is one test's Codex: the mock it talks to, its environment, and hooksup's state and
// runtime directories.
type RealCodex struct {
	HooksupEnv
	Srv *mockapi.ResponsesServer
	Env *mockapi.CodexEnv
}

func NewRealCodex(t *testing.T, h mockapi.ResponsesHandler) *RealCodex {
	t.Helper()
	return NewRealCodexOpts(t, h, mockapi.WithNetNS())
}

func NewRealCodexOpts(t *testing.T, h mockapi.ResponsesHandler, opts ...mockapi.Option) *RealCodex {
	t.Helper()
	srv := mockapi.NewResponsesServer(t, h, append(opts, mockapi.WithQuiet())...)
	env := mockapi.NewCodexEnv(t, srv.URL, "")
	return &RealCodex{HooksupEnv: NewHooksupEnv(t, "hx", env.Home, env.Setenv, srv.Run, env.Command), Srv: srv, Env: env}
}

// Codex runs plain codex with args and waits for it.
func (rc *RealCodex) Codex(args ...string) mockapi.Result {
	rc.T.Helper()
	return rc.RunBounded("codex", rc.Env.Codex, args...)
}

// HooksFiles lists the files in CODEX_HOME that a hook registration would leave there: any
// hooks.json, and any file whose name holds "hooksup". hooksup must leave none.
func (rc *RealCodex) HooksFiles() []string {
	var out []string
	filepath.WalkDir(rc.Env.CodexHome, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, "hooks.json") || strings.Contains(filepath.Base(p), "hooksup")) {
			out = append(out, p)
		}
		return nil
	})
	return out
}
