package failure

import (
	"regexp"
	"testing"
)

// TestExpressionsCompile compiles every expression the package compiles on first use, so that
// none panics the first time an unusual output reaches it.
func TestExpressionsCompile(t *testing.T) {
	if len(expressions) < 50 {
		t.Fatalf("only %d expressions registered", len(expressions))
	}
	for _, l := range expressions {
		if _, err := regexp.Compile(l.expr); err != nil {
			t.Errorf("%q: %v", l.expr, err)
		}
	}
}
