package failure

import (
	"strings"
)

var (
	goRunRE    = lazy(`^=== (RUN|CONT|NAME|PAUSE)\s+(\S+)`)
	goResultRE = lazy(`^\s*--- (FAIL|PASS|SKIP): (\S+)`)
	goPkgRE    = lazy(`^(ok|FAIL|\?)\s+\S+\s+(\d[\d.]*s|\(cached\)|\[[^\]]+\])`)
	goFrameRE  = lazy(`^\t\S.*:\d+( \+0x[0-9a-f]+)?$`)
)

// goTest reads go test's output, -v or not: each "--- FAIL: TestX" with its messages (printed
// before it under "=== RUN TestX" with -v, indented after it without), a parent test whose only
// failures are its subtests' left out; "FAIL pkg" lines are the summary, what passed is dropped.
func goTest(p *parse) {
	logs := map[string][]int{}
	var fails []*goFail
	var open []*goFail // results whose indented messages may follow
	cur := ""
	seen := false
	for i, l := range p.lines {
		if m := goRunRE.FindStringSubmatch(l); m != nil {
			p.drop(i)
			cur, open, seen = m[2], nil, true
			continue
		}
		if m := goResultRE.FindStringSubmatch(l); m != nil {
			p.drop(i)
			seen = true
			ind := indent(l)
			for len(open) > 0 && open[len(open)-1].ind >= ind {
				open = open[:len(open)-1]
			}
			if m[1] == "FAIL" {
				f := &goFail{at: i, ind: ind, name: m[2]}
				fails = append(fails, f)
				open = append(open, f)
			} else {
				open = append(open, &goFail{ind: ind}) // a passing subtest's lines are its own
			}
			cur = ""
			continue
		}
		switch {
		case goPkgRE.MatchString(l):
			seen = true
			if strings.HasPrefix(l, "FAIL") {
				p.sum(i)
			} else {
				p.drop(i)
			}
			open, cur = nil, ""
			continue
		case l == "PASS" || l == "FAIL" || strings.HasPrefix(l, "coverage: ") || strings.HasPrefix(l, "exit status "):
			if seen {
				p.drop(i)
			}
			open, cur = nil, ""
			continue
		case strings.HasPrefix(l, "panic: ") || l == "==================" || strings.HasPrefix(l, "WARNING: DATA RACE"):
			open, cur = nil, ""
			continue
		}
		if len(open) > 0 && blank(l) {
			p.drop(i)
			continue
		}
		if len(open) > 0 && indent(l) > open[len(open)-1].ind {
			f := open[len(open)-1]
			if f.name != "" {
				f.after = append(f.after, i)
			}
			p.drop(i)
			continue
		}
		open = nil
		if cur != "" && !blank(l) {
			logs[cur] = append(logs[cur], i)
			p.drop(i)
		}
	}
	for _, f := range fails {
		msgs := append(append([]int(nil), logs[f.name]...), f.after...)
		if len(msgs) == 0 && (hasSubtestFailure(fails, f.name) ||
			f.at+1 < len(p.lines) && strings.HasPrefix(p.lines[f.at+1], "panic: ")) { // goPanic's
			continue
		}
		b := p.begin("go test", f.name, f.at)
		b.addText(strings.TrimSpace(p.lines[f.at]), true)
		first := true
		for _, i := range msgs {
			b.addText("    "+strings.TrimSpace(p.lines[i]), first)
			first = false
		}
		p.end(b)
	}
}

// goFail is a "--- FAIL" result of go test.
type goFail struct {
	at, ind int
	name    string
	after   []int // indented lines after the result (without -v)
}

func hasSubtestFailure(fails []*goFail, name string) bool {
	for _, f := range fails {
		if strings.HasPrefix(f.name, name+"/") {
			return true
		}
	}
	return false
}

// goPanic reads a Go panic: its message and the lines under it, and of its goroutine's stack the
// first frame outside the runtime and testing, which says where it happened. A panic that
// follows a failed test's "--- FAIL" is that test's.
func goPanic(p *parse) {
	for i := 0; i < len(p.lines); i++ {
		l := p.lines[i]
		if !strings.HasPrefix(l, "panic: ") || p.used[i] {
			continue
		}
		name, start := l, i
		// The test it belongs to: a "--- FAIL" just before.
		if i > 0 {
			if m := goResultRE.FindStringSubmatch(p.lines[i-1]); m != nil && m[1] == "FAIL" {
				name, start = m[2], i-1
			}
		}
		b := p.begin("go test", name, start)
		if name != l {
			b.addText("--- FAIL: "+name, true)
		}
		b.add(p, i, true)
		j := i + 1
		for ; j < len(p.lines) && (strings.HasPrefix(p.lines[j], "\t") || strings.HasPrefix(p.lines[j], "[signal ")); j++ {
			b.add(p, j, true)
		}
		// The goroutine dumps, up to the package's result: the first frame of the program.
		frames := 0
		for ; j < len(p.lines); j++ {
			s := p.lines[j]
			if goPkgRE.MatchString(s) || s == "FAIL" || strings.HasPrefix(s, "exit status") {
				break
			}
			p.drop(j)
			if frames == 2 || j+1 >= len(p.lines) || !goFrameRE.MatchString(p.lines[j+1]) || s == "" || strings.HasPrefix(s, "\t") {
				continue
			}
			if strings.HasPrefix(s, "runtime.") || strings.HasPrefix(s, "testing.") || strings.HasPrefix(s, "panic(") ||
				strings.HasPrefix(s, "created by ") || strings.HasPrefix(s, "time.") || strings.HasPrefix(s, "main.main") ||
				strings.HasPrefix(s, "sync.") {
				continue
			}
			frames++
			b.addText("    "+s, frames == 1)
			b.addText("    "+strings.TrimSpace(p.lines[j+1]), frames == 1)
		}
		p.end(b)
		i = j - 1
	}
}

var goRaceAccessRE = lazy(`^(Read|Write|Previous read|Previous write|Goroutine \d+) .*:$`)

// goRace reads the race detector's report: the accesses and, for each, its first frame.
func goRace(p *parse) {
	for i := 0; i < len(p.lines); i++ {
		if p.lines[i] != "WARNING: DATA RACE" {
			continue
		}
		b := p.begin("go test", "DATA RACE", i)
		b.add(p, i, true)
		if i > 0 && p.lines[i-1] == "==================" {
			p.drop(i - 1)
		}
		j := i + 1
		for ; j < len(p.lines) && p.lines[j] != "=================="; j++ {
			p.drop(j)
			if goRaceAccessRE.MatchString(p.lines[j]) && !strings.HasPrefix(p.lines[j], "Goroutine") && j+2 < len(p.lines) {
				key := !b.hasKey(3)
				b.addText(p.lines[j], key)
				b.addText(p.lines[j+1], key)
				b.addText(p.lines[j+2], key)
			}
		}
		if j < len(p.lines) {
			p.drop(j)
		}
		p.end(b)
		i = j
	}
}
