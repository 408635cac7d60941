package failure

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on its first use, not as the package is initialised:
// every program that links this package (the hook client among them, which decides most stops
// without reading a check's output) would otherwise compile all of them at start-up.
type lazyRE struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// lazy returns expr, to be compiled when first used; like regexp.MustCompile, it panics then if
// expr does not compile (TestExpressionsCompile compiles every one).
func lazy(expr string) *lazyRE {
	l := &lazyRE{expr: expr}
	expressions = append(expressions, l)
	return l
}

// expressions is every lazyRE of the package, for its test.
var expressions []*lazyRE

func (l *lazyRE) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

func (l *lazyRE) MatchString(s string) bool { return l.get().MatchString(s) }

func (l *lazyRE) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }
