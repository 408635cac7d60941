package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The configuration page's example is a configuration hooksup takes as it is: given with
// --config, hooksup check reads it without a complaint and runs its check.
func TestConfigurationPageExample(t *testing.T) {
	blocks := codeBlocks(t, "docs/configuration.md", "toml")
	if len(blocks) != 1 {
		t.Fatalf("docs/configuration.md has %d toml blocks, want its one example", len(blocks))
	}
	s := newSandbox(t)
	cfg := filepath.Join(s.home, "example.toml")
	if err := os.WriteFile(cfg, []byte(blocks[0]), 0o600); err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`(?m)^name = "(.*)"$`).FindAllStringSubmatch(blocks[0], -1)
	if len(names) == 0 {
		t.Fatalf("the example has no check:\n%s", blocks[0])
	}
	cmd := execHooksup(s, "--config", cfg, "check")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Run() // the example's check may fail here: what it runs is the project's business
	if stderr.Len() > 0 {
		t.Errorf("hooksup check with the example: %s", stderr.String())
	}
	for _, n := range names {
		if !regexp.MustCompile(`(?m)^[✓✗] ` + regexp.QuoteMeta(n[1]) + `(: | \()`).MatchString(stdout.String()) {
			t.Errorf("the example's check %q did not run:\n%s", n[1], stdout.String())
		}
	}
}
