package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/verdictlog"
	"github.com/hooksup/hooksup/web"
)

// hooksup web's page shows a verdict with the words hooksup log prints for it, for every
// decision and every kind of source: the page shows the server's Words as they are.
func TestWebWordsAVerdictAsTheLogDoes(t *testing.T) {
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
			if logSays := "→ " + w.Decision + " (" + w.Source + ")"; !strings.Contains(out.String(), logSays) {
				t.Errorf("%s %s: hooksup log prints %q, the page would say %q", d, src, out.String(), w.Decision+" "+w.Source)
			}
		}
	}
}
