package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hooksup/hooksup/verdictlog"
)

// Verdicts reads the verdict log of every session under hooksup's state directory stateDir
// ($XDG_STATE_HOME/hooksup).
func Verdicts(stateDir string) ([]verdictlog.Verdict, error) {
	var all []verdictlog.Verdict
	paths, _ := filepath.Glob(filepath.Join(verdictlog.SessionsDir(stateDir), "*", "verdicts.jsonl"))
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		vs, errs := verdictlog.Read(f)
		f.Close()
		if len(errs) > 0 {
			return nil, fmt.Errorf("verdict log %s: %v", p, errs)
		}
		all = append(all, vs...)
	}
	return all, nil
}

// Decisions is each verdict as EVENT:DECISION/SOURCE, in order, space-separated: what the
// verdict log says of a session at a glance.
func Decisions(vs []verdictlog.Verdict) string {
	var d []string
	for _, v := range vs {
		d = append(d, v.Event+":"+string(v.Decision)+"/"+string(v.Source))
	}
	return strings.Join(d, " ")
}
