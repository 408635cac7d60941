package failure

import (
	"strings"
)

var (
	jestHeadRE     = lazy(`^\s*● (.+)$`)
	jestFileRE     = lazy(`^(PASS|FAIL) \S`)
	jestCountsRE   = lazy(`^(Test Suites|Tests|Snapshots|Time|Ran all test suites)\b`)
	jsPassRE       = lazy(`^\s*[✓✔√] `)
	jsAtRE         = lazy(`^\s*at .+:\d+(:\d+)?\)?( \{)?$`)
	jsInternalRE   = lazy(`\(?node:|node_modules/`)
	vitestHeadRE   = lazy(`^\s*FAIL\s+(\S+ > .+)$`)
	vitestSepRE    = lazy(`^\s*⎯+`)
	vitestLocRE    = lazy(`^\s*❯ \S+:\d+:\d+$`)
	vitestFileRE   = lazy(`^\s*[❯✓×] \S+ \(\d+ tests?`)
	vitestCountsRE = lazy(`^\s*(Test Files|Tests|Start at|Duration|Errors)\s\s`)
	mochaCountsRE  = lazy(`^\s+\d+ (passing|failing|pending)\b`)
	mochaHeadRE    = lazy(`^\s+(\d+)\) (.+)$`)
	tapNotOKRE     = lazy(`^(\s*)not ok \d+ - (.+?)(?: # .*)?$`)
	tapOKRE        = lazy(`^\s*ok \d+ - `)
	tapCountsRE    = lazy(`^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) `)
	specFailRE     = lazy(`^(\s*)✖ (.+?)(?: \([\d.]+m?s\))?$`)
	specCountsRE   = lazy(`^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) `)
)

// jsKey marks the key lines of a JS test's message: the first line, the expected and received
// values, the first stack frame in the project.
func jsBody(p *parse, b *block, body []int) {
	first, at := true, false
	for _, j := range body {
		l := strings.TrimSpace(p.lines[j])
		key := false
		switch {
		case first:
			key, first = true, false
		case strings.HasPrefix(l, "Expected:") || strings.HasPrefix(l, "Received:"):
			key = true
		case jsAtRE.MatchString(l):
			if at || jsInternalRE.MatchString(l) {
				p.drop(j)
				continue
			}
			key, at = true, true
		}
		b.add(p, j, key)
	}
}

// jest reads Jest: each "● suite › test" block.
func jest(p *parse) {
	for i := 0; i < len(p.lines); i++ {
		m := jestHeadRE.FindStringSubmatch(p.lines[i])
		if m == nil || strings.HasPrefix(m[1], "Console") || p.used[i] {
			continue
		}
		b := p.begin("jest", m[1], i)
		b.add(p, i, true)
		j := i + 1
		var body []int
		for ; j < len(p.lines); j++ {
			l := p.lines[j]
			if jestHeadRE.MatchString(l) || jestFileRE.MatchString(l) || jestCountsRE.MatchString(l) {
				break
			}
			if blank(l) {
				p.drop(j)
				continue
			}
			body = append(body, j)
		}
		jsBody(p, b, body)
		p.end(b)
		i = j - 1
	}
	for i, l := range p.lines {
		switch {
		case p.used[i]:
		case jestCountsRE.MatchString(l) && (strings.HasPrefix(l, "Tests:") || strings.HasPrefix(l, "Test Suites:")):
			p.saw("jest")
			p.sum(i)
		case jestCountsRE.MatchString(l) && p.seen("jest"), jestFileRE.MatchString(l) && p.seen("jest"):
			p.drop(i)
		}
	}
}

// vitest reads Vitest: each " FAIL  file > suite > test" block of its "Failed Tests", with
// where it failed (" ❯ file:line:col").
func vitest(p *parse) {
	for i := 0; i < len(p.lines); i++ {
		m := vitestHeadRE.FindStringSubmatch(p.lines[i])
		if m == nil || p.used[i] {
			continue
		}
		b := p.begin("vitest", m[1], i)
		b.addText(strings.TrimSpace(p.lines[i]), true)
		p.drop(i)
		j := i + 1
		first, loc := true, false
		for ; j < len(p.lines); j++ {
			l := p.lines[j]
			if vitestHeadRE.MatchString(l) || vitestSepRE.MatchString(l) || vitestCountsRE.MatchString(l) {
				break
			}
			switch {
			case blank(l):
				p.drop(j)
			case first:
				b.add(p, j, true)
				first = false
			case vitestLocRE.MatchString(l) && !loc:
				b.add(p, j, true)
				loc = true
			default:
				b.add(p, j, false)
			}
		}
		p.end(b)
		i = j - 1
	}
	for i, l := range p.lines {
		switch {
		case p.used[i]:
		case vitestCountsRE.MatchString(l):
			if strings.HasPrefix(strings.TrimSpace(l), "Test") {
				p.saw("vitest")
				p.sum(i)
			} else {
				p.drop(i)
			}
		case vitestSepRE.MatchString(l) || vitestFileRE.MatchString(l) || strings.HasPrefix(strings.TrimSpace(l), "RUN  v"):
			p.drop(i)
		case p.seen("vitest") && (jsPassRE.MatchString(l) || strings.HasPrefix(strings.TrimSpace(l), "× ") || strings.HasPrefix(strings.TrimSpace(l), "→ ")):
			p.drop(i)
		}
	}
}

// mocha reads Mocha's spec reporter: after "N failing", each "N) suite test:" block.
func mocha(p *parse) {
	failing := -1
	for i, l := range p.lines {
		if mochaCountsRE.MatchString(l) {
			p.saw("mocha")
			p.sum(i)
			if strings.Contains(l, " failing") {
				failing = i
			}
		}
	}
	if failing < 0 {
		return
	}
	for i := 0; i < failing; i++ { // the listing: passes, and the failures' numbers
		l := p.lines[i]
		if jsPassRE.MatchString(l) || mochaHeadRE.MatchString(l) || !blank(l) && indent(l) > 0 && !p.used[i] {
			p.drop(i)
		}
	}
	for i := failing + 1; i < len(p.lines); i++ {
		m := mochaHeadRE.FindStringSubmatch(p.lines[i])
		if m == nil {
			continue
		}
		// The title runs until a line ending with ':'.
		title := []string{strings.TrimSpace(m[2])}
		j := i
		for !strings.HasSuffix(p.lines[j], ":") && j+1 < len(p.lines) && !blank(p.lines[j+1]) {
			j++
			title = append(title, strings.TrimSpace(p.lines[j]))
		}
		name := strings.TrimSuffix(strings.Join(title, " "), ":")
		b := p.begin("mocha", name, i)
		b.addText(m[1]+") "+strings.Join(title, " "), true)
		for k := i; k <= j; k++ {
			p.drop(k)
		}
		var body []int
		k := j + 1
		for ; k < len(p.lines) && !mochaHeadRE.MatchString(p.lines[k]); k++ {
			if blank(p.lines[k]) {
				p.drop(k)
				continue
			}
			body = append(body, k)
		}
		jsBody(p, b, body)
		p.end(b)
		i = k - 1
	}
}

// nodeTAP reads node --test's TAP: each "not ok N - test" with its YAML block: the error's
// first line, where the test is and the first frame of its stack. A suite that failed only by
// its subtests is left out.
func nodeTAP(p *parse) {
	for i := 0; i < len(p.lines); i++ {
		l := p.lines[i]
		if strings.HasPrefix(l, "TAP version") || strings.HasPrefix(strings.TrimSpace(l), "# Subtest:") || strings.HasPrefix(strings.TrimSpace(l), "1..") {
			p.saw("node --test")
			p.drop(i)
			continue
		}
		if tapCountsRE.MatchString(l) {
			p.saw("node --test")
			if strings.HasPrefix(l, "# fail ") || strings.HasPrefix(l, "# pass ") {
				p.sum(i)
			} else {
				p.drop(i)
			}
			continue
		}
		ok := tapOKRE.MatchString(l)
		m := tapNotOKRE.FindStringSubmatch(l)
		if !ok && m == nil {
			continue
		}
		p.saw("node --test")
		p.drop(i)
		// The YAML block: from "---" to "...", one level deeper.
		var yaml []int
		j := i + 1
		if j < len(p.lines) && strings.TrimSpace(p.lines[j]) == "---" {
			for ; j < len(p.lines); j++ {
				p.drop(j)
				if strings.TrimSpace(p.lines[j]) == "..." {
					break
				}
				yaml = append(yaml, j)
			}
		}
		if ok {
			i = j
			continue
		}
		b := p.begin("node --test", m[2], i)
		b.addText(strings.TrimSpace(l), true)
		subtests := false
		for k := 0; k < len(yaml); k++ {
			s := strings.TrimSpace(p.lines[yaml[k]])
			switch {
			case strings.Contains(s, "failureType: 'subtestsFailed'"):
				subtests = true
			case strings.HasPrefix(s, "location:"):
				b.addText("  "+s, true)
			case strings.HasPrefix(s, "error:"):
				v := strings.TrimSpace(strings.TrimPrefix(s, "error:"))
				if v == "|-" || v == "|" || v == ">-" {
					// The block scalar: the lines deeper than "error:".
					ind := indent(p.lines[yaml[k]])
					first := true
					for k+1 < len(yaml) && (indent(p.lines[yaml[k+1]]) > ind || blank(p.lines[yaml[k+1]])) {
						k++
						if t := strings.TrimSpace(p.lines[yaml[k]]); t != "" {
							b.addText("  "+t, first)
							first = false
						}
					}
				} else {
					b.addText("  "+v, true)
				}
			case strings.HasPrefix(s, "expected:") || strings.HasPrefix(s, "actual:"):
				b.addText("  "+s, false)
			case strings.HasPrefix(s, "stack:"):
				if k+1 < len(yaml) {
					b.addText("  at "+strings.TrimSpace(p.lines[yaml[k+1]]), false)
				}
			}
		}
		if !subtests {
			p.end(b)
		}
		i = j
	}
}

// nodeSpec reads node --test's spec reporter: each "✖ test (time)" with the lines under it
// (the end's "failing tests" repeat them, and are left out).
func nodeSpec(p *parse) {
	for i := 0; i < len(p.lines); i++ {
		l := p.lines[i]
		if specCountsRE.MatchString(l) {
			p.saw("node --test")
			if strings.HasPrefix(l, "ℹ fail ") || strings.HasPrefix(l, "ℹ pass ") {
				p.sum(i)
			} else {
				p.drop(i)
			}
			continue
		}
		if l == "✖ failing tests:" || strings.HasPrefix(l, "test at ") {
			p.drop(i)
			continue
		}
		m := specFailRE.FindStringSubmatch(l)
		if m == nil || p.used[i] {
			if jsPassRE.MatchString(l) && strings.HasSuffix(l, "ms)") {
				p.drop(i)
			}
			continue
		}
		ind := len(m[1])
		j := i + 1
		var body []int
		for ; j < len(p.lines) && (blank(p.lines[j]) || indent(p.lines[j]) > ind) && !specFailRE.MatchString(p.lines[j]); j++ {
			if blank(p.lines[j]) {
				p.drop(j)
				continue
			}
			body = append(body, j)
		}
		if len(body) == 0 { // a suite, failed by its tests
			p.drop(i)
			continue
		}
		b := p.begin("node --test", m[2], i)
		b.addText(strings.TrimSpace(l), true)
		p.drop(i)
		jsBody(p, b, body)
		p.end(b)
		i = j - 1
	}
}
