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

// Every link of the README, CONTRIBUTING.md and the docs to another of the repository's files
// names a file that is there, and a #fragment names one of that page's headings.
func TestDocsLinksResolve(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "../../README.md", "../../CONTRIBUTING.md")
	fence := regexp.MustCompile("(?s)```.*?```")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading := regexp.MustCompile(`(?m)^#+ (.*)$`)
	anchors := func(page string) map[string]bool {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, h := range heading.FindAllStringSubmatch(string(b), -1) {
			// As GitHub makes a heading's anchor: lower case, spaces as hyphens, no punctuation.
			a := strings.Map(func(r rune) rune {
				switch {
				case r == ' ':
					return '-'
				case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
					return r
				}
				return -1
			}, strings.ToLower(h[1]))
			out[a] = true
		}
		return out
	}
	links := 0
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(fence.ReplaceAllString(string(b), ""), -1) {
			target := m[1]
			if strings.Contains(target, "://") {
				continue
			}
			links++
			file, frag, _ := strings.Cut(target, "#")
			dest := page
			if file != "" {
				dest = filepath.Join(filepath.Dir(page), file)
			}
			if _, err := os.Stat(dest); err != nil {
				t.Errorf("%s links to %s, which is not there", filepath.Base(page), target)
				continue
			}
			if frag != "" && !anchors(dest)[frag] {
				t.Errorf("%s links to %s, whose page has no heading %q", filepath.Base(page), target, frag)
			}
		}
	}
	if links == 0 {
		t.Error("no links found")
	}
}
