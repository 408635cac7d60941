// Package failure reads what failed out of a check's output: the failing tests of go test,
// pytest, unittest, cargo test and nextest, jest, vitest, mocha, node --test, ctest and RSpec,
// with their messages, and the findings of linters and compilers (file:line: lines, rustc's
// and clippy's diagnostics, tsc, eslint), leaving out what passed. The reason a failed check
// gives the agent quotes it (Report.Lines), within a budget that keeps every failure's name and
// first message before any other detail.
package failure

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Report is what failed, as read from a check's output.
type Report struct {
	// Runners names the tools whose output was recognised, in the order first seen.
	Runners  []string
	Failures []Failure
	// Summary is the runners' closing counts and lists ("FAIL pkg", "3 failed, 1 passed").
	Summary []string
}

// Failure is one failing test, or one finding of a linter or compiler.
type Failure struct {
	Runner string
	Name   string   // the test, or the location of a finding
	Lines  []string // its lines: Lines[0] names it, then its messages
	key    []bool   // the lines always kept: the name and the first message
	weak   bool     // a warning: shown after every failure's key lines
	start  int      // where it begins in the output
}

// Found reports whether any failure was read.
func (r Report) Found() bool { return len(r.Failures) > 0 }

// Budget bounds what Lines returns.
type Budget struct {
	Lines int
	Bytes int
}

// DefaultBudget is the bound of a reason's quote: about 60 lines, 4 kB.
var DefaultBudget = Budget{Lines: 60, Bytes: 4096}

// maxLine is how much of one line is quoted.
const maxLine = 400

// Read reads the failures in output, plain text (no terminal controls).
func Read(output string) Report {
	p := newParse(output)
	for _, f := range parsers {
		f(p)
	}
	return p.report()
}

// Lines is the report as the lines to quote, within b: first the name and first message of
// every failure (the warnings' after the failures'), then the runners' summary, then the
// failures' other lines in order, as long as they fit; each failure's lines in the order
// printed, the warnings (and what names no test) after the failures, the summary last. Failures that do not fit even by name are counted in a last line.
func (r Report) Lines(b Budget) []string {
	if b.Lines <= 0 || b.Bytes <= 0 {
		b = DefaultBudget
	}
	keep := make([][]bool, len(r.Failures))
	for i, f := range r.Failures {
		keep[i] = make([]bool, len(f.Lines))
	}
	lines, size := 0, 0
	fits := func(s string) bool { return lines+1 <= b.Lines-1 && size+len(s)+1 <= b.Bytes-40 }
	take := func(s string) { lines++; size += len(s) + 1 }
	omitted := 0
	pass := func(weak bool) {
		for i, f := range r.Failures {
			if f.weak != weak {
				continue
			}
			// The whole of its key lines, else its name alone, else nothing.
			need, n := 0, 0
			for j, k := range f.key {
				if k {
					need += len(clipLine(f.Lines[j])) + 1
					n++
				}
			}
			switch {
			case lines+n <= b.Lines-1 && size+need <= b.Bytes-40:
				for j, k := range f.key {
					if k {
						keep[i][j] = true
						take(clipLine(f.Lines[j]))
					}
				}
			case fits(clipLine(f.Lines[0])):
				keep[i][0] = true
				take(clipLine(f.Lines[0]))
			default:
				omitted++
			}
		}
	}
	pass(false)
	summary := make([]bool, len(r.Summary))
	for i, s := range r.Summary {
		if fits(clipLine(s)) {
			summary[i] = true
			take(clipLine(s))
		}
	}
	pass(true)
	for i, f := range r.Failures {
		if !keep[i][0] {
			continue
		}
		for j, l := range f.Lines {
			if !keep[i][j] && fits(clipLine(l)) {
				keep[i][j] = true
				take(clipLine(l))
			}
		}
	}
	var out []string
	for _, weak := range []bool{false, true} {
		for i, f := range r.Failures {
			if f.weak != weak {
				continue
			}
			for j, l := range f.Lines {
				if keep[i][j] {
					out = append(out, clipLine(l))
				}
			}
		}
	}
	if omitted > 0 {
		out = append(out, "… and "+strconv.Itoa(omitted)+" more failures")
	}
	for i, s := range r.Summary {
		if summary[i] {
			out = append(out, clipLine(s))
		}
	}
	return out
}

func clipLine(s string) string {
	if len(s) <= maxLine {
		return s
	}
	s = s[:maxLine]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// parse is the state of one Read: the output's lines, which of them a parser took (passing
// noise included), and what was found.
type parse struct {
	lines    []string
	used     []bool
	failures []Failure
	summary  []summaryLine
	runners  []string
}

type summaryLine struct {
	at   int
	text string
}

func newParse(output string) *parse {
	lines := strings.Split(strings.ReplaceAll(output, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return &parse{lines: lines, used: make([]bool, len(lines))}
}

// saw records that runner's output was recognised.
func (p *parse) saw(runner string) {
	if !p.seen(runner) {
		p.runners = append(p.runners, runner)
	}
}

// seen reports whether runner's output was recognised already.
func (p *parse) seen(runner string) bool { return slices.Contains(p.runners, runner) }

// block is a failure being built.
type block struct {
	f Failure
}

func (p *parse) begin(runner, name string, at int) *block {
	p.saw(runner)
	b := &block{f: Failure{Runner: runner, Name: name, start: at}}
	return b
}

// add appends line i (taking it) to b, as a key line or not.
func (b *block) add(p *parse, i int, key bool) {
	p.used[i] = true
	b.addText(p.lines[i], key)
}

func (b *block) addText(s string, key bool) {
	b.f.Lines = append(b.f.Lines, strings.TrimRight(s, " \t"))
	b.f.key = append(b.f.key, key)
}

func (b *block) hasKey(n int) bool {
	c := 0
	for _, k := range b.f.key {
		if k {
			c++
		}
	}
	return c >= n
}

func (p *parse) end(b *block) {
	if len(b.f.Lines) == 0 {
		return
	}
	b.f.key[0] = true
	p.failures = append(p.failures, b.f)
}

func (p *parse) sum(i int) {
	p.used[i] = true
	p.summary = append(p.summary, summaryLine{i, strings.TrimRight(p.lines[i], " \t")})
}

// drop takes line i as noise.
func (p *parse) drop(i int) { p.used[i] = true }

func (p *parse) report() Report {
	// In the order printed; of two failures with the same runner and name (a runner that
	// repeats its failures at the end) the first.
	slices.SortStableFunc(p.failures, func(a, b Failure) int { return cmp.Compare(a.start, b.start) })
	seen := map[string]bool{}
	var fs []Failure
	for _, f := range p.failures {
		k := f.Runner + "\x00" + f.Name
		if seen[k] {
			continue
		}
		seen[k] = true
		fs = append(fs, f)
	}
	slices.SortStableFunc(p.summary, func(a, b summaryLine) int { return cmp.Compare(a.at, b.at) })
	var sum []string
	for _, s := range p.summary {
		sum = append(sum, s.text)
	}
	return Report{Runners: p.runners, Failures: fs, Summary: sum}
}

// indent is the width of l's leading white space, a tab counting as 4.
func indent(l string) int {
	n := 0
	for _, c := range l {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

func blank(l string) bool { return strings.TrimSpace(l) == "" }

// parsers run in this order: a runner's parser takes its lines, passing noise included, before
// the generic findings' parser reads what is left.
var parsers = []func(*parse){
	goTest, goRace, goPanic,
	pytest, unittest,
	cargoTest, nextest, rustDiagnostics,
	jest, vitest, mocha, nodeTAP, nodeSpec,
	ctest, rspec,
	pythonTraceback, eslint, findings,
}
