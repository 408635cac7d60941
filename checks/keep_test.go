package checks

import (
	"context"
	"strings"
	"testing"

	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/project"
)

// The verdict log keeps the end of a failed check's output, its last MiB, and says that the
// earlier output was cut; the manual (config.Schema) and the init template say so, not "all".
func TestVerdictLogKeepsTheLastMiBAsDocumented(t *testing.T) {
	if outputKeep != 1<<20 {
		t.Fatalf("outputKeep is %d bytes: say it in reason_lines' words", outputKeep)
	}
	res := Run(context.Background(), nil, config.Check{Name: "big", Command: `i=0; while [ $i -lt 3000 ]; do printf '%0500d\n' $i; i=$((i+1)); done; exit 1`}, t.TempDir(), nil, nil)
	rec := Record(res)
	if !strings.HasPrefix(rec.Output, "… (earlier output cut)\n") || len(rec.Output) > outputKeep+64 || !strings.HasSuffix(rec.Output, "2999") {
		t.Fatalf("recorded %d bytes: %.60q … %q", len(rec.Output), rec.Output, rec.Output[max(0, len(rec.Output)-20):])
	}
	const words = "the verdict log keeps its last MiB"
	var help string
	for _, k := range config.Schema() {
		if k.Key == "reason_lines" {
			help = k.Help
		}
	}
	if !strings.Contains(help, words) {
		t.Errorf("reason_lines' help %q does not say %q", help, words)
	}
	if !strings.Contains(project.Template, "reason_lines = 40") || !strings.Contains(project.Template, words) {
		t.Errorf("the init template's reason_lines does not say %q", words)
	}
}
