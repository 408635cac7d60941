package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/keymap"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/verdictlog"
	"github.com/hooksup/hooksup/web"
)

// hooksup web's page shows a verdict with the words hooksup log prints for it, for every
// decision and every kind of source: the page shows the server's Words as they are.
func TestWebWordsAVerdictAsTheLogDoes(t *testing.T) {
	t.Parallel()
	sources := []verdictlog.Source{verdictlog.SourceChecks, verdictlog.SourceNoChecks, verdictlog.SourceManual,
		verdictlog.SourceEscape, verdictlog.SourceLimit, verdictlog.SourceTimeout, verdictlog.SourceObserve,
		verdictlog.SourceFailOpen, verdictlog.CheckSource("tests"), verdictlog.CheckSource("a\x1b[2Jb\u202e"),
		"manual (hooksup web)", "manual (hooksup approve)"}
	for _, d := range []hooks.Decision{hooks.Allow, hooks.Block, hooks.Halt} {
		for _, src := range sources {
			v := verdictlog.Verdict{Event: hooks.Stop, Decision: d, Source: src, Continuations: 1, MaxContinuations: 3}
			line, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			printVerdictLine(&out, line, false)
			w := web.VerdictWords(v)
			if logSays := "→ " + w.Decision + ": " + w.Source + " "; !strings.Contains(out.String(), logSays) {
				t.Errorf("%s %s: hooksup log prints %q, the page would say %q", d, src, out.String(), w.Decision+": "+w.Source)
			}
		}
	}
}

// hooksup web's page words each answer to a question as the TUI does (its key hint and its
// help, naming the agent) and the verdict it records as hooksup log prints the verdict that
// hooksup approve, deny and halt record: the server sends the words, the page shows them.
func TestWebWordsAnAnswerAsTheTUIAndTheLogDo(t *testing.T) {
	t.Parallel()
	s := web.SessionOf(hub.Live{Snapshot: hub.Snapshot{ID: "1a2b", Agent: "codex", Pending: []hub.Question{{ID: 1, Event: "Stop", Proposal: "block"}}}})
	got := map[string]present.AnswerWords{}
	for _, a := range s.Pending[0].Answers {
		got[a.Action] = a
	}
	for _, name := range []string{keymap.Approve, keymap.Deny, keymap.Edit, keymap.Halt, keymap.Send, keymap.Cancel} {
		a, _ := keymap.Lookup(name)
		w, ok := got[name]
		if !ok || w.Label != a.Hint || w.Help != a.HelpFor("codex") {
			t.Errorf("%s: the page would say %q (%q), the TUI %q (%q)", name, w.Label, w.Help, a.Hint, a.HelpFor("codex"))
		}
		d, _, isAnswer := present.Answer(name)
		switch name {
		case keymap.Send:
			d, _, isAnswer = present.Answer(keymap.Approve) // the edit is sent as hooksup approve --reason
		case keymap.Edit, keymap.Cancel:
			if w.Decision != "" {
				t.Errorf("%s records no verdict, the page would say %q", name, w.Decision)
			}
			continue
		}
		if !isAnswer {
			t.Fatalf("%s is no answer", name)
		}
		line, _ := json.Marshal(verdictlog.Verdict{Event: hooks.Stop, Decision: d, Source: "manual (hooksup web)"})
		var out bytes.Buffer
		printVerdictLine(&out, line, false)
		if !strings.Contains(out.String(), "→ "+w.Decision+": ") {
			t.Errorf("%s: hooksup log prints %q, the page would say it records %q", name, out.String(), w.Decision)
		}
	}
}
