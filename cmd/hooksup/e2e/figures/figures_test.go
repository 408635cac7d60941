package figures

import (
	"os"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/mockapi"
)

// TestFigureStopLatency prints what an allow without checks costs with the real claude: the
// verdict's latency (until the answer), the wait for claude to write its last message to the
// transcript (the verdict's line waits for it, the answer does not) and how often the
// observation missed the turn's tokens. It asserts nothing; run
// it with HOOKSUP_FIGURES=1 go test -run TestFigureStopLatency -v ./cmd/hooksup/
func TestFigureStopLatency(t *testing.T) {
	// Serial: a figure measures times, which tests running beside it would stretch.
	if os.Getenv("HOOKSUP_FIGURES") == "" {
		t.Skip("prints figures: set HOOKSUP_FIGURES=1")
	}
	const runs = 30
	var latency, waited []time.Duration
	missing := 0
	re := regexp.MustCompile(`transcript caught up.*waited=(\S+)`)
	for range runs {
		rc := e2e.NewRealClaude(t, &mockapi.Script{Main: []mockapi.Reply{
			mockapi.Text("The answer is 42.").WithUsage(mockapi.Usage{InputTokens: 1111, OutputTokens: 222}),
		}})
		if res := rc.Hooksup("--debug", "--config", rc.Config(`mode = "auto"`), "claude", "-p", "what is the answer?"); res.ExitCode != 0 {
			t.Fatalf("exit %d: %s", res.ExitCode, res.Stderr)
		}
		v := rc.Verdicts()[0]
		latency = append(latency, time.Duration(v.LatencyMS*float64(time.Millisecond)))
		if v.Observation == nil || v.Observation.OutputTokens < 222 {
			missing++
		}
		if m := re.FindStringSubmatch(rc.Log()); m != nil {
			d, _ := time.ParseDuration(m[1])
			waited = append(waited, d)
		}
	}
	q := func(xs []time.Duration) (p50, p90, top time.Duration) {
		slices.Sort(xs)
		return xs[len(xs)/2], xs[len(xs)*9/10], xs[len(xs)-1]
	}
	p50, p90, top := q(latency)
	t.Logf("allow without checks, %d runs: verdict latency p50 %v, p90 %v, max %v", runs, p50, p90, top)
	if len(waited) > 0 {
		p50, p90, top = q(waited)
		t.Logf("wait for the transcript: p50 %v, p90 %v, max %v (bound %v)", p50, p90, top, 500*time.Millisecond)
	}
	t.Logf("verdicts without the turn's tokens: %d of %d", missing, runs)
}
