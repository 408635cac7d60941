package engine

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/checks/testcount"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/internal/treesnap"
	"github.com/hooksup/hooksup/session"
)

// What a goal is held to from its start, so that the agent cannot reach it by narrowing it: the
// number of tests each test check ran, and the content of the files it protects (--protect, and
// the project's configuration files).

// testsRun is how many tests a check ran, as its runner's summary says, and in words.
type testsRun struct {
	n    int
	what string
}

// ranTests reads how many tests a check's output says ran; false when it holds no summary of a
// runner hooksup knows. go test without -v names only its packages and failed tests: its
// packages are counted then.
func ranTests(out string) (testsRun, bool) {
	c := testcount.Read(out)
	if !c.Known() {
		return testsRun{}, false
	}
	verbose := strings.Contains(out, "=== RUN")
	switch {
	case c.Packages > 0 && !verbose:
		return testsRun{c.Tests + c.Packages, c.String()}, true
	case c.Tests == 1:
		return testsRun{1, "1 test"}, true
	}
	return testsRun{c.Tests, fmt.Sprintf("%d tests", c.Tests)}, true
}

// noteTests keeps, in goal mode, what a check's run says of the tests it ran, for the goal's
// judgement of the stop.
func (e *Engine) noteTests(p *proposal, res session.CheckResult) {
	if e.goal == nil {
		return
	}
	if p.tests == nil {
		p.tests = map[string]testsRun{}
	}
	n, _ := ranTests(checks.Text(res))
	if n.what == "" {
		n.what = "no tests hooksup can count"
	}
	p.tests[res.Name] = n
}

// fewerTests says which test checks ran fewer tests at this stop than at the goal's start: "the
// check tests ran 12 tests, 14 at the goal's start"; "" when none did. A check that did not run
// at this stop (an earlier one failed) is not weighed.
func (g *goalRun) fewerTests(ran map[string]testsRun) string {
	var out []string
	for _, name := range g.testNames {
		base := g.tests[name]
		now, ok := ran[name]
		if !ok || now.n >= base.n {
			continue
		}
		out = append(out, fmt.Sprintf("the check %s ran %s, %s at the goal's start", termsafe.String(name), now.what, base.what))
	}
	return strings.Join(out, "; ")
}

// guard is the content of the files a goal protects, as they were at its start.
type guard struct {
	dir   string
	globs []string
	tree  *treesnap.Snapshot // the project's files (nil: none protected by a glob, or no snapshot)
	files map[string][]byte  // the project's configuration files by path (nil content: absent)
}

// takeGuard snapshots what a goal protects in dir.
func takeGuard(ctx context.Context, dir string, globs, files []string, prev *treesnap.Snapshot) *guard {
	g := &guard{dir: dir, globs: globs, files: map[string][]byte{}}
	if len(globs) > 0 {
		g.tree, _ = treesnap.Take(ctx, dir, prev) // a tree hooksup cannot snapshot protects nothing
	}
	for _, f := range files {
		c, err := config.ReadFile(f)
		if err != nil {
			c = nil
		}
		g.files[f] = c
	}
	return g
}

// protected reports whether a file (slash-separated, relative to the project) matches a glob:
// one without a slash names files by their base name at any depth ("*_test.go"), one with a
// slash the path from the project's root ("tests/*.py").
func protected(globs []string, p string) bool {
	for _, glob := range globs {
		name := p
		if !strings.Contains(glob, "/") {
			name = path.Base(p)
		}
		if ok, _ := path.Match(strings.TrimPrefix(glob, "./"), name); ok {
			return true
		}
	}
	return false
}

// changed says what changed since g was taken, in words ("a_test.go, b_test.go (deleted)"), and
// the new snapshot to take as the start should the person let the goal go on; "" when nothing
// did.
func (g *guard) changed(ctx context.Context) (string, *guard) {
	if g == nil {
		return "", nil
	}
	var names []string
	for f, was := range g.files {
		now, err := config.ReadFile(f)
		if err != nil {
			now = nil
		}
		if !bytes.Equal(now, was) || (now == nil) != (was == nil) {
			names = append(names, fmt.Sprintf("the configuration %s", termsafe.String(path.Base(f))))
		}
	}
	var files []string
	for f := range g.files {
		files = append(files, f)
	}
	next := takeGuard(ctx, g.dir, g.globs, files, g.tree)
	if g.tree != nil && next.tree != nil {
		var cs []treesnap.Change
		for _, c := range treesnap.Diff(g.tree, next.tree) {
			if protected(g.globs, c.Path) {
				cs = append(cs, c)
			}
		}
		if len(cs) > 0 {
			names = append(names, termsafe.String(treesnap.Summary(cs, 5)))
		}
	}
	return strings.Join(names, "; "), next
}

// StartGoal takes what the goal is held to from its start, before the agent is started: the
// files it protects, and the number of tests each of the main agent's checks runs (every check
// runs once, whether it passes or fails, under the project's lock). Outside goal mode it does
// nothing. It says what it counted, for the log.
func (e *Engine) StartGoal(ctx context.Context) {
	e.mu.Lock()
	g, list := e.goal, e.cfg.Stop.Checks
	e.mu.Unlock()
	if g == nil {
		return
	}
	gd := takeGuard(ctx, e.projectDir, g.Protect, g.Files, nil)
	counts := map[string]testsRun{}
	var names []string
	if len(list) > 0 {
		in := &hooks.Input{HookEventName: hooks.Stop}
		var p proposal
		if lock, ok := e.lockProject(ctx, in, &p); ok {
			for _, c := range list {
				if ctx.Err() != nil {
					break
				}
				lock.Running(c.Name)
				res := e.runOne(ctx, c, e.projectDir, in)
				if n, ok := ranTests(checks.Text(res)); ok && n.n > 0 {
					counts[c.Name] = n
					names = append(names, c.Name)
					e.logger.Info("the goal's start", "check", c.Name, "tests", n.what)
				}
			}
			lock.Release()
		}
	}
	e.mu.Lock()
	g.guard, g.tests, g.testNames = gd, counts, names
	e.mu.Unlock()
}
