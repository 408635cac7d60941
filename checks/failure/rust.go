package failure

import (
	"strings"
)

var (
	cargoSectionRE = lazy(`^---- (\S+) std(out|err) ----$`)
	cargoTestRE    = lazy(`^test (\S+) \.\.\. (ok|FAILED|ignored.*|bench:.*)$`)
	cargoResultRE  = lazy(`^test result: (ok|FAILED)\.`)
	cargoNoiseRE   = lazy(`^\s*(Compiling|Finished|Running|Doc-tests|Downloaded|Downloading|Updating|Locking|Checking|Blocking|Fresh) |^running \d+ tests?$|^failures:$|^note: run with .RUST_BACKTRACE`)
	panickedRE     = lazy(`^thread '([^']*)'.* panicked at `)
	nextestStatRE  = lazy(`^\s*(PASS|FAIL|SIGSEGV|SIGABRT|SIGKILL|TIMEOUT|LEAK|SKIP|START|SLOW|TRY \d+ FAIL|RETRY \d+/\d+ FAIL|ABORT)\s+\[\s*[\d.]+s[^\]]*\]\s+(.+)$`)
	nextestSectRE  = lazy(`^\s*(?:---|───+) STD(?:OUT|ERR):\s+(.+?)\s*(?:---)?$`)
	rustDiagRE     = lazy(`^(error|warning)(\[\w+\])?: (.+)$`)
	rustArrowRE    = lazy(`^\s*--> (\S+)$`)
)

// cargoTest reads cargo test (libtest): each "---- test stdout ----" section, whose key lines
// are its name, where it panicked and the panic's message; a test that failed without one is
// its "test … FAILED" line.
func cargoTest(p *parse) {
	sections := map[string]bool{}
	for i := 0; i < len(p.lines); i++ {
		m := cargoSectionRE.FindStringSubmatch(p.lines[i])
		if m == nil {
			continue
		}
		sections[m[1]] = true
		b := p.begin("cargo test", m[1], i)
		b.add(p, i, true)
		j := i + 1
		panicked := -1
		for ; j < len(p.lines); j++ {
			l := p.lines[j]
			if cargoSectionRE.MatchString(l) || l == "failures:" || cargoResultRE.MatchString(l) {
				break
			}
			switch {
			case blank(l) || strings.HasPrefix(l, "note: "):
				p.drop(j)
			case l == "stack backtrace:":
				// Its frames: the ones in the crate (at ./…) are detail.
				p.drop(j)
				for j+1 < len(p.lines) && strings.HasPrefix(p.lines[j+1], " ") {
					j++
					if strings.Contains(p.lines[j], " at ./") {
						b.add(p, j-1, false)
						b.add(p, j, false)
					} else {
						p.drop(j)
					}
				}
			case panickedRE.MatchString(l):
				panicked = j
				b.add(p, j, true)
			default:
				b.add(p, j, panicked >= 0 && j == panicked+1 && strings.HasSuffix(p.lines[panicked], ":"))
			}
		}
		if len(b.f.Lines) == 1 && panicked < 0 {
			b.f.Lines[0] = "---- " + m[1] + " failed ----"
		}
		p.end(b)
		i = j - 1
	}
	for i, l := range p.lines {
		if p.used[i] {
			continue
		}
		if m := cargoTestRE.FindStringSubmatch(l); m != nil {
			p.saw("cargo test")
			if m[2] == "FAILED" && !sections[m[1]] {
				b := p.begin("cargo test", m[1], i)
				b.add(p, i, true)
				p.end(b)
			} else {
				p.drop(i)
			}
			continue
		}
		switch {
		case cargoResultRE.MatchString(l):
			p.saw("cargo test")
			if strings.HasPrefix(l, "test result: FAILED") {
				p.sum(i)
			} else {
				p.drop(i)
			}
		case cargoNoiseRE.MatchString(l):
			p.drop(i)
			if l == "failures:" { // the list of names under the second one
				for j := i + 1; j < len(p.lines) && (strings.HasPrefix(p.lines[j], "    ") || blank(p.lines[j])); j++ {
					p.drop(j)
				}
			}
		case strings.HasPrefix(l, "error: test failed") || strings.HasPrefix(l, "error: could not compile") ||
			strings.HasPrefix(l, "error: aborting due to"):
			p.sum(i)
		}
	}
}

// nextest reads cargo nextest: each "FAIL [time] test" line with the panic of its STDERR (or
// STDOUT) section; the Summary line and the error closing the run are the summary.
func nextest(p *parse) {
	sections := map[string][]int{}
	for i := 0; i < len(p.lines); i++ {
		m := nextestSectRE.FindStringSubmatch(p.lines[i])
		if m == nil {
			continue
		}
		p.saw("nextest")
		p.drop(i)
		name := m[1]
		j := i + 1
		for ; j < len(p.lines); j++ {
			l := p.lines[j]
			if nextestSectRE.MatchString(l) || nextestStatRE.MatchString(l) || strings.HasPrefix(l, "------------") ||
				strings.HasPrefix(strings.TrimSpace(l), "Summary [") {
				break
			}
			p.drop(j)
			if !blank(l) {
				sections[name] = append(sections[name], j)
			}
		}
		i = j - 1
	}
	for i, l := range p.lines {
		m := nextestStatRE.FindStringSubmatch(l)
		if m == nil || p.used[i] {
			if strings.HasPrefix(strings.TrimSpace(l), "Summary [") || strings.HasPrefix(l, "error: test run failed") {
				p.saw("nextest")
				p.sum(i)
			}
			continue
		}
		p.saw("nextest")
		switch m[1] {
		case "PASS", "SKIP", "START", "SLOW":
			p.drop(i)
			continue
		}
		// The binary's id, then the test: "crate tests::name"; sections name it the same way.
		b := p.begin("nextest", m[2], i)
		b.add(p, i, true)
		panicked := -1
		for _, j := range sections[m[2]] {
			s := p.lines[j]
			switch {
			case panickedRE.MatchString(s):
				panicked = j
				b.addText(s, true)
			case panicked >= 0 && j == panicked+1:
				b.addText(s, true)
			case panicked >= 0 && !strings.HasPrefix(s, "note: "):
				b.addText(s, false)
			}
		}
		p.end(b)
	}
}

// rustDiagnostics reads rustc's and clippy's diagnostics: "error[E…]: message" or "warning: …"
// with its "--> file:line:col", then the snippet and its notes as detail. Warnings are weak.
func rustDiagnostics(p *parse) {
	for i := 0; i < len(p.lines); i++ {
		m := rustDiagRE.FindStringSubmatch(p.lines[i])
		if m == nil || p.used[i] || i+1 >= len(p.lines) {
			continue
		}
		arrow := -1
		for j := i + 1; j < len(p.lines) && j <= i+2; j++ {
			if rustArrowRE.MatchString(p.lines[j]) {
				arrow = j
			}
		}
		if arrow < 0 {
			if m[1] == "warning" && strings.Contains(m[3], "generated ") {
				p.drop(i)
			}
			continue
		}
		loc := rustArrowRE.FindStringSubmatch(p.lines[arrow])[1]
		b := p.begin("rustc", loc+": "+m[3], i)
		b.f.weak = m[1] == "warning"
		for j := i; j <= arrow; j++ {
			b.add(p, j, true)
		}
		j := arrow + 1
		for ; j < len(p.lines) && !blank(p.lines[j]) && !rustDiagRE.MatchString(p.lines[j]); j++ {
			b.add(p, j, false)
		}
		p.end(b)
		i = j - 1
	}
	for i, l := range p.lines {
		if !p.used[i] && (strings.HasPrefix(l, "For more information about this error") || strings.HasPrefix(l, "warning: build failed, waiting")) {
			p.drop(i)
		}
	}
}
