package tui

import (
	"github.com/hooksup/hooksup/agent/claude"
	"github.com/hooksup/hooksup/session"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/themes"
)

// The header says what each number counts, names claude's own limit on blocks in a row only
// when it ends a turn before hooksup's limit does (claude overrides the block after that many
// in a row; hooksup allows the stop after max_continuations), and says "interrupted" once.
func TestHeaderSaysWhatItCounts(t *testing.T) {
	mono, err := themes.Get(themes.Mono)
	if err != nil {
		t.Fatal(err)
	}
	st := NewStyles(mono)
	counts := func(turn, max, all int) session.Counts {
		return session.Counts{TurnContinuations: turn, MaxContinuations: max, SessionContinuations: all}
	}
	tests := []struct {
		name      string
		h         header
		want, not []string
	}{
		{"a new session", header{mode: config.ModeAsk, blockCap: claude.DefaultBlockCap, counts: counts(0, 3, 0)},
			[]string{"● starting", "mode ask", "continuations 0/3 this turn · 0 this session"}, []string{"cap", "claude allows", "turn 0/3"}},
		{"claude's limit comes first", header{blockCap: 8, counts: counts(2, 10, 5)},
			[]string{"continuations 2/10 this turn (claude allows 8 in a row) · 5 this session"}, nil},
		{"claude's limit equals hooksup's", header{blockCap: 3, counts: counts(1, 3, 1)},
			[]string{"continuations 1/3 this turn · 1 this session"}, []string{"claude allows"}},
		{"claude's limit just below hooksup's", header{blockCap: 2, counts: counts(1, 3, 1)},
			[]string{"continuations 1/3 this turn (claude allows 2 in a row) · 1 this session"}, nil},
		{"another agent's limit", header{agent: "copilot", blockCap: 8, counts: counts(2, 10, 5)},
			[]string{"hooksup copilot", "continuations 2/10 this turn (copilot allows 8 in a row) · 5 this session"}, []string{"claude"}},
		{"claude's limit turned off", header{blockCap: 0, counts: counts(2, 10, 5)},
			[]string{"continuations 2/10 this turn · 5 this session"}, []string{"claude allows"}},
		{"subagents", header{counts: session.Counts{MaxContinuations: 3, SubagentContinuations: 3, MaxSteers: 3}},
			[]string{"subagent continuations 3 (max 3 each)"}, []string{"steers"}},
		{"interrupted", header{state: session.StateInterrupted, interrupted: true, counts: counts(1, 3, 1)},
			[]string{"● interrupted  │"}, []string{"turn interrupted"}},
		{"waiting after an interrupt", header{state: session.StateWaiting, interrupted: true, counts: counts(1, 3, 1)},
			[]string{"● waiting for input · turn interrupted"}, nil},
		{"the transcript's figures", header{tokens: 12345, toolCalls: 5, model: "claude-sonnet-4-5", sessionID: sampleSessionID, counts: counts(0, 3, 0)},
			[]string{"12.3k tokens · 5 tool calls", "claude-sonnet-4-5", "4312ba3d"}, []string{" tools"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.h.agent == "" {
				tt.h.agent, tt.h.plain = "claude", "claude" // hooksup's first agent, unnamed
			}
			got := ansi.Strip(tt.h.view(st, 300))
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("the header lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("the header says %q:\n%s", n, got)
				}
			}
		})
	}
}
