package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hooksup/hooksup/checks"
	"github.com/hooksup/hooksup/checks/testcount"
	"github.com/hooksup/hooksup/config"
	"github.com/hooksup/hooksup/internal/present"
	"github.com/hooksup/hooksup/internal/termsafe"
	"github.com/hooksup/hooksup/internal/treesnap"
	"github.com/hooksup/hooksup/project"
)

// proveChecks proves each check init proposes on the untouched tree, and has the ones it cannot
// prove written commented out, with why:
//   - its program is missing: it would fail at every stop (without run, it is kept, and the
//     file says so above it);
//   - it fails: a gate the pristine tree fails would make the agent's first stop demand fixes
//     of what it did not break;
//   - it changes the project's files (git's tracked and untracked ones, compared before and
//     after): a check the agent's every stop runs must leave the tree as it found it.
//
// A test check must also run a test, by its runner's own summary (checks/testcount): one that
// passes and runs none, or whose output holds no summary hooksup knows, is kept, as a check
// that passes, but is no proof that the tests run.
// A check still running when its time is up is written commented out too, saying so: kept on,
// a suite init could not finish would run beside the one that stands in for it.
// Where no check proven runs the tests (in its directory or one above), or where all the checks
// of a role fell, init tries the project's own that the others stood in for (`go test ./...`
// in place of the CI's) and turns on the first it proves. A check that cannot start stays as
// it is. A file a check created that was not there before init (a coverage report) is removed
// again, and init says so; the person's files are never touched.
func proveChecks(ctx context.Context, det project.Detection, dir string, timeout time.Duration, run bool, w io.Writer) {
	var had []project.Proposal
	for _, p := range det.Proposals() {
		if p.Off == "" {
			had = append(had, p)
		}
	}
	if !run {
		for _, p := range had {
			if m := checks.Missing(p.Check, dir); m != "" {
				det.Note(p.Check.Name, missingWhy(m)+" (hooksup init --no-run kept it): it fails at every stop until it is")
			}
		}
		return
	}
	if len(had) == 0 || ctx.Err() != nil {
		return
	}
	fmt.Fprintf(w, "proving %s on the untouched tree: each must pass, leave the files as it found them, and a test check run tests (at most %s each; --no-run skips this):\n",
		checkCount(len(had)), timeout)
	var try []project.Proposal
	for _, p := range had {
		if m := checks.Missing(p.Check, dir); m != "" {
			why := missingWhy(m)
			fmt.Fprintf(w, "  ✗ %s: %s, commented out\n", termsafe.String(p.Check.Name), termsafe.String(why))
			det.TurnOff(p.Check.Name, why+": install it, then uncomment")
			continue
		}
		try = append(try, p)
	}
	pv := &prover{ctx: ctx, det: det, dir: dir, timeout: timeout, w: w}
	pv.snap, pv.snapErr = treesnap.Take(ctx, dir, nil)
	if pv.snapErr != nil {
		fmt.Fprintf(w, "  · cannot compare the files before and after each check: %s\n", termsafe.String(pv.snapErr.Error()))
	} else {
		pv.orig, pv.origDirs = pv.snap, dirsOf(dir)
	}
	defer pv.sayRemoved()
	for _, p := range try {
		if ctx.Err() != nil {
			return
		}
		pv.prove(p, "")
	}
	pv.standIn(had)
	if len(pv.changed) > 0 {
		see := ""
		if pv.snap.Git() {
			see = " (git status and git diff show what changed)"
		}
		fmt.Fprintf(w, "the tree is not as init found it: %s; init restores nothing%s\n",
			termsafe.String(strings.Join(pv.changed, "; ")), see)
	}
}

// firstRunLockfiles are the lockfiles a build writes when there is none: cargo's.
var firstRunLockfiles = map[string]bool{"Cargo.lock": true}

// missingWhy says that a check's program m is not installed.
func missingWhy(m string) string {
	if strings.Contains(m, "/") {
		return fmt.Sprintf("its program `%s` is not there", m)
	}
	return fmt.Sprintf("its program `%s` is not installed here", m)
}

// prover runs the checks init proves, one after the other, on the tree as each left it.
type prover struct {
	ctx     context.Context
	det     project.Detection
	dir     string
	timeout time.Duration
	w       io.Writer
	snap    *treesnap.Snapshot // the tree as the last check left it
	snapErr error
	// orig is the tree as init found it, origDirs its directories: what a check created
	// beside them is init's to remove.
	orig     *treesnap.Snapshot
	origDirs map[string]bool
	removed  []string // the files init removed, as it names them
	changed  []string // "automd changed README.md"
	tests    []string // the cwds of the checks proven to run tests ("" for the root)
}

// proof is what proving a check came to.
type proof int

const (
	proven    proof = iota // it passed, changed nothing, and (a test check) ran tests
	noTests                // it passed and changed nothing, but ran no tests
	kept                   // it could not be proven either way: out of time, not started
	turnedOff              // it failed or changed files: written commented out
)

// prove runs one check on the tree and says what it proved; stand is the reason a standby
// check is tried ("" for a proposal), with which it is turned on when proven.
func (pv *prover) prove(p project.Proposal, stand string) proof {
	c := p.Check
	c.Timeout = config.Duration{D: min(c.TimeoutOrDefault(), pv.timeout)}
	r := checks.Run(pv.ctx, nil, c, pv.dir, nil, nil)
	took := r.Duration.Round(time.Millisecond)
	name := termsafe.String(c.Name)
	var changes []treesnap.Change
	if pv.snapErr == nil && !r.Canceled {
		if after, err := treesnap.Take(pv.ctx, pv.dir, pv.snap); err == nil {
			changes, pv.snap = treesnap.Diff(pv.snap, after), after
		}
		// The lockfile a build writes on its first run, and leaves alone after, is no change a
		// check makes at every stop.
		changes = slices.DeleteFunc(changes, func(ch treesnap.Change) bool {
			return ch.What == "created" && firstRunLockfiles[path.Base(ch.Path)]
		})
	}
	// What it created, init removes again: the verdict stands (the check would create it at
	// every stop), but init leaves the tree as it found it.
	left := changes
	if gone := pv.removeCreated(changes); len(gone) > 0 {
		left = slices.DeleteFunc(slices.Clone(changes), func(ch treesnap.Change) bool { return slices.Contains(gone, ch.Path) })
	}
	off := func(why string) proof {
		if stand != "" {
			pv.det.TurnOn(c.Name, stand)
		}
		pv.det.TurnOff(c.Name, why)
		return turnedOff
	}
	switch {
	case r.Canceled:
		fmt.Fprintf(pv.w, "  · %s: interrupted, kept\n", name)
		return kept
	case len(changes) > 0:
		what := treesnap.Summary(changes, 5)
		if len(left) > 0 {
			pv.changed = append(pv.changed, fmt.Sprintf("%s changed %s", c.Name, treesnap.Summary(left, 5)))
		}
		fmt.Fprintf(pv.w, "  ✗ %s: changed %s (%s), commented out\n", name, termsafe.String(what), took)
		return off(fmt.Sprintf("it changes files: run once on the untouched tree, it changed %s\n"+
			"(a check runs at every stop of the agent, and must leave the files as it found them)", what))
	case r.TimedOut:
		// Kept on, it would run at every stop beside the check that stands in for it, and
		// likely run out of time there too.
		fmt.Fprintf(pv.w, "  ✗ %s: timed out after %s, commented out\n", name, c.Timeout.D)
		return off(fmt.Sprintf("it timed out: hooksup init ran it on the untouched tree for %s, and it was still running\n"+
			"(a check runs at every stop of the agent; raise its timeout and uncomment it, if it should)", c.Timeout.D))
	case r.StartErr != nil:
		fmt.Fprintf(pv.w, "  ✗ %s: %s, kept: fix the command\n", name, present.CheckFailure(r))
		return kept
	case !r.Passed():
		fmt.Fprintf(pv.w, "  ✗ %s: %s (%s), commented out\n", name, present.CheckFailure(r), took)
		why := fmt.Sprintf("it fails on the untouched tree (%s)\nso the agent would be made to fix what it did not break; its output:", present.CheckFailure(r))
		for _, l := range quoteOutput(checks.Text(r)) {
			why += "\n  " + l
		}
		return off(why)
	case p.Role != "test":
		fmt.Fprintf(pv.w, "  ✓ %s (%s%s)\n", name, took, present.CheckLeftRunning(r.LeftRunning))
		if stand != "" {
			pv.det.TurnOn(c.Name, stand)
		}
		return proven
	}
	n := testcount.Read(checks.Text(r))
	if !n.Ran() {
		// What it says of the tests: none ran, by the runner's own summary; or hooksup cannot
		// tell, its output holding no summary it knows.
		says := "hooksup cannot tell that it runs tests (its output holds no test runner's summary hooksup knows)"
		if n.Known() {
			says = fmt.Sprintf("runs no tests (%s says so)", strings.Join(n.Runners, " and "))
		}
		if stand != "" {
			fmt.Fprintf(pv.w, "  · %s (%s): passes, but %s: left out\n", name, took, says)
			return noTests
		}
		fmt.Fprintf(pv.w, "  · %s (%s): passes, but %s: kept as a check that passes, not as the tests\n", name, took, says)
		pv.det.Note(c.Name, "hooksup init ran it on the untouched tree: it passes, but "+says)
		return noTests
	}
	fmt.Fprintf(pv.w, "  ✓ %s (%s, %s%s)\n", name, took, n, present.CheckLeftRunning(r.LeftRunning))
	if stand != "" {
		pv.det.TurnOn(c.Name, stand)
	}
	pv.tests = append(pv.tests, c.Cwd)
	return proven
}

// standIn tries the standby checks where no check proven runs the tests, and where all the
// checks of a role fell; had are the checks proposed enabled, before any was proven.
func (pv *prover) standIn(had []project.Proposal) {
	fell := func(role, cwd string) bool {
		proposed := slices.ContainsFunc(had, func(p project.Proposal) bool { return p.Role == role && p.Check.Cwd == cwd })
		has := slices.ContainsFunc(pv.det.Proposals(), func(p project.Proposal) bool {
			return p.Off == "" && p.Role == role && p.Check.Cwd == cwd
		})
		return proposed && !has
	}
	tested := func(cwd string) bool {
		return slices.ContainsFunc(pv.tests, func(t string) bool { return t == "" || t == cwd || strings.HasPrefix(cwd, t+"/") })
	}
	header := false
	done := map[string]bool{} // role and cwd of a standby check turned on
	for _, s := range pv.det.Standby() {
		key := s.Role + "\x00" + s.Check.Cwd
		if done[key] || pv.ctx.Err() != nil || checks.Missing(s.Check, pv.dir) != "" {
			continue
		}
		// The same command in the same place was proven already, as the check it stood in for.
		if slices.ContainsFunc(had, func(p project.Proposal) bool {
			return project.SameCommand(p.Check.Command, s.Check.Command) && p.Check.Cwd == s.Check.Cwd
		}) {
			continue
		}
		var stand string
		where := ""
		if s.Check.Cwd != "" {
			where = " in " + s.Check.Cwd
		}
		switch {
		case s.Role == "test" && !tested(s.Check.Cwd):
			stand = "hooksup init turned this on: no other check proven to run the tests" + where
		case s.Role != "test" && fell(s.Role, s.Check.Cwd):
			stand = fmt.Sprintf("hooksup init turned this on: the other %s checks%s fell", s.Role, where)
		default:
			continue
		}
		if !header {
			fmt.Fprintln(pv.w, "trying the project's own checks where those fell or run no tests:")
			header = true
		}
		if pv.prove(s, stand) == proven {
			done[key] = true
		}
	}
}

// Of the output of a check that failed when tried, the file quotes the first quoteHead lines,
// where many tools say what went wrong (rustup's "error: toolchain … is not installed", then a
// backtrace), and the last quoteTail, where test runners sum up; each line at most quoteWidth
// bytes.
const (
	quoteHead  = 3
	quoteTail  = 8
	quoteWidth = 200
)

// quoteOutput is the lines of a check's output that init quotes: all of them when they are few,
// else the first and the last with how many lie between; each terminal-safe and bounded.
func quoteOutput(text string) []string {
	lines := strings.Split(text, "\n")
	if len(lines) > quoteHead+quoteTail+1 {
		skipped := len(lines) - quoteHead - quoteTail
		lines = slices.Concat(lines[:quoteHead], []string{fmt.Sprintf("… (%d lines)", skipped)}, lines[len(lines)-quoteTail:])
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		l = termsafe.String(l)
		if len(l) > quoteWidth {
			cut := quoteWidth
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			l = l[:cut] + "…"
		}
		out[i] = l
	}
	return out
}

// dirsOf lists the directories under dir, as slash-separated paths relative to it ("" for dir
// itself), but for git's own and those of dependencies: the directories a check may put files in
// that init must not remove.
func dirsOf(dir string) map[string]bool {
	out := map[string]bool{"": true}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if n := d.Name(); p != dir && (n == ".git" || n == "node_modules" || len(out) >= treesnap.MaxFiles) {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			rel = ""
		}
		out[filepath.ToSlash(rel)] = true
		return nil
	})
	return out
}

// removeCreated removes the files a check created that were not there when init started, and
// the directories it made for them; it returns their paths. A file that was there, or one in a
// directory that was there and that holds anything else, is left alone.
func (pv *prover) removeCreated(changes []treesnap.Change) []string {
	if pv.orig == nil {
		return nil
	}
	var gone []string
	for _, ch := range changes {
		if ch.What != "created" || pv.orig.Has(ch.Path) {
			continue
		}
		full := filepath.Join(pv.dir, filepath.FromSlash(ch.Path))
		if fi, err := os.Lstat(full); err != nil || fi.IsDir() || os.Remove(full) != nil {
			continue
		}
		gone = append(gone, ch.Path)
		pv.removed = append(pv.removed, ch.Path)
		// The directories it made, emptied: os.Remove leaves one that holds anything.
		for d := path.Dir(ch.Path); d != "." && !pv.origDirs[d]; d = path.Dir(d) {
			if os.Remove(filepath.Join(pv.dir, filepath.FromSlash(d))) != nil {
				break
			}
		}
	}
	if len(gone) > 0 {
		if after, err := treesnap.Take(pv.ctx, pv.dir, pv.snap); err == nil {
			pv.snap = after
		}
	}
	return gone
}

// sayRemoved tells the person which files the checks created that init removed.
func (pv *prover) sayRemoved() {
	if len(pv.removed) > 0 {
		fmt.Fprintf(pv.w, "init removed what the checks created: %s\n", termsafe.String(strings.Join(pv.removed, ", ")))
	}
}

// checkCount is "1 check" or "3 checks".
func checkCount(n int) string {
	if n == 1 {
		return "1 check"
	}
	return fmt.Sprintf("%d checks", n)
}
