package present

import (
	"errors"
	"testing"
	"time"

	"github.com/hooksup/hooksup/supervisor"
)

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 950: "950", 12_345: "12.3k", 4_500_000: "4.5M"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCheckFailure(t *testing.T) {
	for _, tc := range []struct {
		r    supervisor.CheckResult
		want string
	}{
		{supervisor.CheckResult{ExitCode: 1}, "exit 1"},
		{supervisor.CheckResult{ExitCode: -1, TimedOut: true, Duration: 120400 * time.Millisecond}, "timed out after 2m0s"},
		{supervisor.CheckResult{ExitCode: -1, Canceled: true}, "interrupted"},
		{supervisor.CheckResult{ExitCode: 127, StartErr: errors.New("sh: nope: not found")}, "could not start: sh: nope: not found"},
	} {
		if got := CheckFailure(tc.r); got != tc.want {
			t.Errorf("CheckFailure(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}
