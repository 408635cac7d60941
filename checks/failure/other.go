package failure

import (
	"strings"
)

var (
	ctestStartRE  = lazy(`^\s+Start\s+\d+: `)
	ctestResultRE = lazy(`^\s*\d+/\d+ Test\s+#\d+: (\S+) \.*\s*(\*\*\*)?(\w[\w ]*?)\s+[\d.]+ sec`)
	ctestCountsRE = lazy(`^\d+% tests passed, \d+ tests? failed out of \d+`)
	rspecHeadRE   = lazy(`^\s+\d+\) (.+)$`)
	rspecCountsRE = lazy(`^\d+ examples?, \d+ failures?`)
	eslintFileRE  = lazy(`^(/|\.|[A-Za-z]:\\|\w)\S*\.\w+$`)
	eslintProbRE  = lazy(`^\s+\d+:\d+\s+(error|warning)\s+`)
	findingRE     = lazy(`^(?:vet: )?((?:[A-Za-z]:)?[^\s:()]*[^\s:()/]\.[A-Za-z0-9]+)(?::(\d+))(?::(\d+))?:? ?(.*)$`)
	tscRE         = lazy(`^(\S+\.\w+)\((\d+),(\d+)\): (error|warning) (.+)$`)
	tscPrettyRE   = lazy(`^(\S+\.\w+):(\d+):(\d+) - (error|warning) (.+)$`)
	goPkgHeadRE   = lazy(`^# \S+`)
	foundRE       = lazy(`^Found \d+ (errors?|problems?|issues?)\b`)
)

// ctest reads CTest: each "N/M Test #N: name ....***Failed" with the output that follows it
// (--output-on-failure); "The following tests FAILED:" and its list are the summary.
func ctest(p *parse) {
	for i := 0; i < len(p.lines); i++ {
		l := p.lines[i]
		switch {
		case ctestStartRE.MatchString(l) || strings.HasPrefix(l, "Test project ") || strings.HasPrefix(l, "Total Test time"):
			p.saw("ctest")
			p.drop(i)
			continue
		case ctestCountsRE.MatchString(l):
			p.saw("ctest")
			p.sum(i)
			continue
		case l == "The following tests FAILED:":
			p.saw("ctest")
			p.sum(i)
			for i+1 < len(p.lines) && strings.HasPrefix(p.lines[i+1], "\t") {
				i++
				p.sum(i)
			}
			continue
		case l == "Errors while running CTest" || strings.HasPrefix(l, "Output from these tests are in:") ||
			strings.HasPrefix(l, `Use "--rerun-failed`):
			if p.seen("ctest") {
				p.drop(i)
			}
			continue
		}
		m := ctestResultRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		p.saw("ctest")
		p.drop(i)
		if m[3] == "Passed" || m[3] == "Not Run" && m[2] == "" {
			continue
		}
		b := p.begin("ctest", m[1], i)
		b.addText(strings.TrimSpace(l), true)
		j := i + 1
		first := true
		for ; j < len(p.lines); j++ {
			s := p.lines[j]
			if ctestStartRE.MatchString(s) || ctestResultRE.MatchString(s) || ctestCountsRE.MatchString(s) {
				break
			}
			if blank(s) {
				p.drop(j)
				continue
			}
			b.add(p, j, first)
			first = false
		}
		p.end(b)
		i = j - 1
	}
}

// rspec reads RSpec: after "Failures:", each "N) description" with its Failure/Error, the
// expected and got values and the location; the counts and the "rspec ./spec/…" lines are the
// summary.
func rspec(p *parse) {
	start := -1
	for i, l := range p.lines {
		if l == "Failures:" {
			start = i
			break
		}
	}
	if start < 0 {
		return
	}
	p.saw("rspec")
	p.drop(start)
	for i := 0; i < start; i++ {
		if strings.Trim(p.lines[i], ".F*E") == "" {
			p.drop(i) // progress
		}
	}
	for i := start + 1; i < len(p.lines); i++ {
		l := p.lines[i]
		switch {
		case strings.HasPrefix(l, "Finished in "), l == "Failed examples:":
			p.drop(i)
			continue
		case rspecCountsRE.MatchString(l), strings.HasPrefix(l, "rspec ./"):
			p.sum(i)
			continue
		}
		m := rspecHeadRE.FindStringSubmatch(l)
		if m == nil || indent(l) != 2 {
			continue
		}
		b := p.begin("rspec", m[1], i)
		b.addText(strings.TrimSpace(l), true)
		p.drop(i)
		j := i + 1
		loc := false
		for ; j < len(p.lines); j++ {
			s := p.lines[j]
			t := strings.TrimSpace(s)
			if rspecHeadRE.MatchString(s) && indent(s) == 2 || strings.HasPrefix(s, "Finished in ") {
				break
			}
			switch {
			case blank(s):
				p.drop(j)
			case strings.HasPrefix(t, "Failure/Error:") || strings.HasPrefix(t, "expected") || strings.HasPrefix(t, "got:"):
				b.add(p, j, true)
			case strings.HasPrefix(t, "# ./") && !loc:
				b.add(p, j, true)
				loc = true
			default:
				b.add(p, j, false)
			}
		}
		p.end(b)
		i = j - 1
	}
}

// eslint reads ESLint's stylish format: a file's path alone on a line, then its problems
// "line:col  error  message  rule"; the "✖ N problems" line is the summary.
func eslint(p *parse) {
	for i := 0; i < len(p.lines); i++ {
		l := p.lines[i]
		if strings.HasPrefix(l, "✖ ") && strings.Contains(l, " problem") {
			p.saw("eslint")
			p.sum(i)
			continue
		}
		if p.used[i] || !eslintFileRE.MatchString(l) || i+1 >= len(p.lines) || !eslintProbRE.MatchString(p.lines[i+1]) {
			continue
		}
		b := p.begin("eslint", l, i)
		b.add(p, i, true)
		j := i + 1
		errs := 0
		for ; j < len(p.lines) && eslintProbRE.MatchString(p.lines[j]); j++ {
			isErr := eslintProbRE.FindStringSubmatch(p.lines[j])[1] == "error"
			b.add(p, j, isErr && errs < 5)
			if isErr {
				errs++
			}
		}
		if errs == 0 {
			b.f.weak = true
			b.f.key[1] = true
		}
		p.end(b)
		i = j - 1
	}
}

// findings reads what is left as the findings of linters and compilers, one a line:
// "file:line:col: message" (go vet, staticcheck, golangci-lint, ruff, mypy, gcc), tsc's
// "file(line,col): error TS…", with the indented lines under each (a snippet, a caret) as
// detail and a "# package" line above as part of it. Warnings are weak.
func findings(p *parse) {
	for i := 0; i < len(p.lines); i++ {
		l := p.lines[i]
		if p.used[i] || indent(l) > 0 {
			continue
		}
		if foundRE.MatchString(l) {
			p.sum(i)
			continue
		}
		var loc, msg string
		if m := tscRE.FindStringSubmatch(l); m != nil {
			loc, msg = m[1]+":"+m[2]+":"+m[3], m[4]+" "+m[5]
			p.saw("tsc")
		} else if m := tscPrettyRE.FindStringSubmatch(l); m != nil {
			loc, msg = m[1]+":"+m[2]+":"+m[3], m[4]+" "+m[5]
			p.saw("tsc")
		} else if m := findingRE.FindStringSubmatch(l); m != nil && strings.TrimSpace(m[4]) != "" && !strings.HasPrefix(m[4], "//") {
			loc, msg = m[1]+":"+m[2], m[4]
			if m[3] != "" {
				loc += ":" + m[3]
			}
		} else {
			continue
		}
		b := p.begin("linter", loc, i)
		low := strings.ToLower(msg)
		// A Python runner's bare "file:line: AssertionError" (the tail of a failure whose heading
		// was cut, --tb=line) names no test: it comes after the failures that do.
		bare := (p.seen("pytest") || p.seen("unittest")) && pyLocRE.MatchString(l)
		b.f.weak = bare || strings.HasPrefix(low, "warning") || strings.HasPrefix(low, "note:")
		if i > 0 && goPkgHeadRE.MatchString(p.lines[i-1]) && !p.used[i-1] {
			b.add(p, i-1, true)
		}
		b.add(p, i, true)
		j := i + 1
		for ; j < len(p.lines) && j <= i+6 && !blank(p.lines[j]) && (indent(p.lines[j]) > 0 || strings.TrimLeft(p.lines[j], "^~ ") == ""); j++ {
			b.add(p, j, false)
		}
		p.end(b)
		i = j - 1
	}
}
