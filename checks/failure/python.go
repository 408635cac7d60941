package failure

import (
	"strings"
)

var (
	pyRuleRE      = lazy(`^=+ ?(.*?) ?=+$`)
	pyHeadRE      = lazy(`^_{3,} (.+?) _{3,}$`)
	pyLocRE       = lazy(`^\S+:\d+: (\w+|in .+)$`)
	pyShortRE     = lazy(`^(FAILED|ERROR) (\S+)(?: - (.*))?$`)
	pyCountsRE    = lazy(`^=* ?(\d+ (failed|passed|error|errors|skipped|xfailed|xpassed|warnings?|deselected)\b.* in [\d.]+s.*?) ?=*$`)
	pyProgressRE  = lazy(`^\S+\.py [.FEsxX]+\s*(\[\s*\d+%\])?$|^[.FEsxX]+\s*(\[\s*\d+%\])?$`)
	unittestSepRE = lazy(`^(=|-){40,}$`)
	unittestHead  = lazy(`^(FAIL|ERROR): (\S+)`)
	unittestVerb  = lazy(`^\S+ \(\S+\)( \.\.\.)? .*\b(ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$`)
	unittestRan   = lazy(`^Ran \d+ tests? in `)
)

// pytest reads pytest's FAILURES and ERRORS sections, one failure a "____ test ____" heading,
// with its first "E" line and where it failed; its short test summary's "FAILED" lines are
// failures of their own when no section told them (--tb=no), and the summary otherwise.
//
// Output whose head was cut (hooksup keeps the end of a long one) may start inside the FAILURES
// section, its rule gone: when the output ends as pytest's does (its short test summary, its
// counts), a "____ test ____" heading before any rule begins the section all the same, so that
// each failure keeps its name rather than its "file:line: AssertionError" line being read as a
// finding that names no test.
func pytest(p *parse) {
	section := ""
	var b *block
	named := map[string]bool{}
	cut := pytestEnds(p.lines) // a heading before any rule is a FAILURES section's
	ruled := false
	flush := func() {
		if b != nil {
			p.end(b)
			b = nil
		}
	}
	for i, l := range p.lines {
		if section != "" && !strings.HasPrefix(l, "=") && pyCountsRE.MatchString(l) { // -q's counts
			flush()
			p.sum(i)
			section = ""
			continue
		}
		if section == "" && cut && !ruled && pyHeadRE.MatchString(l) && !strings.HasPrefix(l, "_ _") {
			p.saw("pytest")
			section = "FAILURES"
		}
		if m := pyRuleRE.FindStringSubmatch(l); m != nil && strings.HasPrefix(l, "===") {
			ruled = true
			flush()
			section = m[1]
			switch {
			case section == "FAILURES" || section == "ERRORS" || section == "short test summary info" ||
				strings.HasPrefix(section, "test session starts") || section == "warnings summary":
				p.saw("pytest")
				p.drop(i)
			case pyCountsRE.MatchString(l):
				p.saw("pytest")
				p.drop(i)
				p.summary = append(p.summary, summaryLine{i, "=== " + section + " ==="})
				section = ""
			default:
				section = ""
			}
			continue
		}
		switch section {
		case "FAILURES", "ERRORS":
			if m := pyHeadRE.FindStringSubmatch(l); m != nil && !strings.HasPrefix(l, "_ _") {
				flush()
				b = p.begin("pytest", m[1], i)
				p.drop(i)
				b.addText("____ "+m[1]+" ____", true) // the rule as wide as the terminal, shortened
				named[m[1]] = true
				continue
			}
			if b == nil || blank(l) || strings.HasPrefix(l, "_ _ _") {
				p.drop(i)
				continue
			}
			key := false
			switch {
			case strings.HasPrefix(l, "E ") && !b.hasKey(2):
				key = true
			case pyLocRE.MatchString(l) && !strings.Contains(l, ": in "):
				key = true
			}
			b.add(p, i, key)
		case "short test summary info":
			m := pyShortRE.FindStringSubmatch(l)
			if m == nil {
				if strings.HasPrefix(l, "!!!") {
					p.sum(i)
				}
				continue
			}
			test := m[2][strings.LastIndex(m[2], "::")+2:]
			cls := strings.Split(m[2], "::")
			if len(cls) >= 3 {
				test = cls[len(cls)-2] + "." + test
			}
			if named[test] || named["ERROR collecting "+m[2]] {
				p.sum(i) // its section told it: the short line closes the report
				continue
			}
			b := p.begin("pytest", m[2], i)
			b.add(p, i, true)
			p.end(b)
		case "warnings summary":
			p.drop(i)
		default:
			if strings.HasPrefix(section, "test session starts") || section == "" && pyProgressRE.MatchString(l) {
				p.drop(i)
			} else if pyCountsRE.MatchString(l) && strings.Contains(l, " in ") {
				p.saw("pytest")
				p.sum(i)
			}
		}
	}
	flush()
}

// pytestEnds reports whether the output ends as pytest's does: a rule naming its short test
// summary, or its closing counts in a rule.
func pytestEnds(lines []string) bool {
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if !strings.HasPrefix(l, "===") {
			continue
		}
		if m := pyRuleRE.FindStringSubmatch(l); m != nil && (m[1] == "short test summary info" || pyCountsRE.MatchString(l)) {
			return true
		}
	}
	return false
}

// unittest reads Python's unittest: each "FAIL: test (…)" or "ERROR: test (…)" block, whose
// key lines are its name, where it failed (the last "File" line) and the exception.
func unittest(p *parse) {
	for i := 0; i < len(p.lines); i++ {
		m := unittestHead.FindStringSubmatch(p.lines[i])
		if m == nil || i == 0 || !unittestSepRE.MatchString(p.lines[i-1]) || p.used[i] {
			continue
		}
		p.drop(i - 1)
		b := p.begin("unittest", strings.TrimPrefix(strings.TrimPrefix(p.lines[i], "FAIL: "), "ERROR: "), i)
		b.add(p, i, true)
		j := i + 1
		lastFile, exc := -1, -1
		var body []int
		for ; j < len(p.lines); j++ {
			l := p.lines[j]
			if unittestSepRE.MatchString(l) && (strings.HasPrefix(l, "=") || j+1 < len(p.lines) && unittestRan.MatchString(p.lines[j+1])) {
				break
			}
			if unittestSepRE.MatchString(l) || blank(l) || l == "Traceback (most recent call last):" {
				p.drop(j)
				continue
			}
			body = append(body, j)
			if strings.HasPrefix(l, `  File "`) {
				lastFile = j
			}
			if exc < 0 && lastFile >= 0 && indent(l) == 0 && j > lastFile && !strings.HasPrefix(l, "Traceback") {
				exc = j
			}
		}
		for _, k := range body {
			b.add(p, k, k == lastFile || k == exc)
		}
		p.end(b)
		i = j - 1
	}
	for i, l := range p.lines {
		if p.used[i] {
			continue
		}
		switch {
		case unittestRan.MatchString(l) || strings.HasPrefix(l, "FAILED (") && strings.HasSuffix(l, ")"):
			p.saw("unittest")
			p.sum(i)
		case unittestVerb.MatchString(l):
			p.drop(i)
		}
	}
}

// pythonTraceback reads a traceback no test runner framed: where it happened (the last "File"
// line) and the exception.
func pythonTraceback(p *parse) {
	for i := 0; i < len(p.lines); i++ {
		if p.used[i] || p.lines[i] != "Traceback (most recent call last):" {
			continue
		}
		j := i + 1
		lastFile := -1
		for ; j < len(p.lines) && (strings.HasPrefix(p.lines[j], " ") || blank(p.lines[j])); j++ {
			if strings.HasPrefix(p.lines[j], `  File "`) {
				lastFile = j
			}
		}
		if j >= len(p.lines) || lastFile < 0 {
			continue
		}
		b := p.begin("python", p.lines[j], i)
		b.add(p, j, true)
		for k := i; k < j; k++ {
			p.drop(k)
		}
		b.addText(strings.TrimSpace(p.lines[lastFile]), true)
		if lastFile+1 < j && !blank(p.lines[lastFile+1]) {
			b.addText(strings.TrimSpace(p.lines[lastFile+1]), false)
		}
		p.end(b)
		i = j
	}
}
