package supervisor

import (
	"context"
	"github.com/hooksup/hooksup/agent/claude"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestHookWatch(t *testing.T) {
	reply := `{"type":"assistant","message":{"content":[]}}` + "\n"
	for _, tc := range []struct {
		name      string
		hook      bool
		appendOld bool
		want      bool
	}{
		{"a reply and no hook", false, false, true},
		{"a reply after a hook", true, false, false},
		{"only the lines that were there before", false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			old := filepath.Join(dir, "old.jsonl")
			os.WriteFile(old, []byte(reply), 0o600) // a resumed session's earlier replies
			w := newHookWatch(filepath.Join(dir, "*.jsonl"), claude.Agent{}.Reply)
			w.every, w.grace = 5*time.Millisecond, 20*time.Millisecond
			if tc.hook {
				w.hook()
			}
			warned := make(chan string, 1)
			// Long enough for a warning to come on a loaded machine; the cases without one end
			// sooner.
			limit := 2 * time.Second
			if tc.want {
				limit = 30 * time.Second
			}
			ctx, cancel := context.WithTimeout(t.Context(), limit)
			defer cancel()
			done := make(chan struct{})
			go func() { w.run(ctx, func(p string) { warned <- p }); close(done) }()
			if !tc.appendOld {
				os.WriteFile(filepath.Join(dir, "new.jsonl"), []byte(`{"type":"user"}`+"\n"+reply), 0o600)
			} else {
				f, _ := os.OpenFile(old, os.O_APPEND|os.O_WRONLY, 0)
				f.WriteString(`{"type":"user"}` + "\n")
				f.Close()
			}
			select {
			case p := <-warned:
				if !tc.want {
					t.Fatalf("warned about %s", p)
				}
			case <-done:
				if tc.want {
					t.Fatal("the watch ended without a warning")
				}
			case <-ctx.Done():
				if tc.want {
					t.Fatal("no warning")
				}
			}
		})
	}
}
