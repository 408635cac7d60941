package verdictlog

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Read reads a session's verdict log. A line that does not parse is reported, with its
// number, and skipped.
func Read(r io.Reader) ([]Verdict, []error) {
	var out []Verdict
	var errs []error
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		v, err := Parse(sc.Bytes())
		if err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", n, err))
			continue
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, err)
	}
	return out, errs
}

// Parse reads one line of a verdict log.
func Parse(line []byte) (Verdict, error) {
	var v Verdict
	err := json.Unmarshal(line, &v)
	return v, err
}
