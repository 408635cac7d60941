#!/bin/sh
# capture.sh writes corpus/NAME.out: the real output of a tool run against a tiny project with a
# seeded bug, made under /tmp/hooksup-corpus. Run it from this directory; each case needs its
# tool on PATH (JS_BIN names a directory with mocha, vitest, jest, tsc and eslint installed by
# npm; PYTHON one with pytest) and is skipped, saying so, without it. The .want files beside the
# outputs are written by hand.
set -u
here=$(pwd)
root=/tmp/hooksup-corpus
JS_BIN=${JS_BIN:-}
PYTHON=${PYTHON:-python3}
export COLUMNS=200 NO_COLOR=1 CARGO_TERM_COLOR=never

# case NAME DIR COMMAND: runs COMMAND in DIR with sh, its output into corpus/NAME.out.
case_() {
	name=$1 dir=$2; shift 2
	(cd "$dir" && sh -c "$*") > "$here/corpus/$name.out" 2>&1
	echo "$name: exit $?"
}
need() { command -v "$1" >/dev/null 2>&1 || { echo "skipped: no $1"; return 1; }; }
mk() { mkdir -p "$(dirname "$1")"; cat > "$1"; }

rm -rf "$root"; mkdir -p "$root"

if need go; then
	d=$root/gomod
	mk $d/go.mod <<'G'
module example.com/dates

go 1.22
G
	# 40 passing tests, then one failing table test among passing ones.
	{
		echo 'package dates'; echo; echo 'import "testing"'; echo
		i=1; while [ $i -le 40 ]; do printf 'func TestPasses%02d(t *testing.T) { t.Log("checked") }\n' $i; i=$((i+1)); done
	} > $d/pass_test.go
	mk $d/dates.go <<'G'
package dates

import (
	"fmt"
	"time"
)

// Parse reads a date; it should refuse one that does not exist.
func Parse(s string) (time.Time, error) {
	var y, m, d int
	if _, err := fmt.Sscanf(s, "%d-%d-%d", &y, &m, &d); err != nil {
		return time.Time{}, err
	}
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC), nil
}

// DaysIn is the number of days in month m of year y.
func DaysIn(y, m int) int {
	days := []int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	return days[m-1]
}
G
	mk $d/dates_test.go <<'G'
package dates

import "testing"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{{"2024-02-29", true}, {"2023-02-29", false}, {"2024-13-01", false}} {
		t.Run(tc.in, func(t *testing.T) {
			_, err := Parse(tc.in)
			if (err == nil) != tc.ok {
				t.Errorf("Parse(%q) error = %v, want ok = %v", tc.in, err, tc.ok)
			}
		})
	}
}

func TestDaysInLeapFebruary(t *testing.T) {
	if got := DaysIn(2024, 2); got != 29 {
		t.Fatalf("DaysIn(2024, 2) = %d, want 29", got)
	}
}
G
	mk $d/other/other.go <<'G'
package other

func Double(n int) int { return 2 * n }
G
	mk $d/other/other_test.go <<'G'
package other

import "testing"

func TestDouble(t *testing.T) {
	if Double(2) != 4 {
		t.Error("Double(2) != 4")
	}
}
G
	case_ go-test-v $d 'go test -count=1 -v ./...'
	case_ go-test $d 'go test -count=1 ./...'

	d=$root/gopanic
	mk $d/go.mod <<'G'
module example.com/months

go 1.22
G
	mk $d/months.go <<'G'
package months

// Name is the name of month m, counted from 1.
func Name(m int) string {
	names := []string{"January", "February", "March"}
	return names[m]
}

// Counter counts, but not safely.
type Counter struct{ n int }

func (c *Counter) Inc() { c.n++ }
G
	mk $d/months_test.go <<'G'
package months

import "testing"

func TestFirst(t *testing.T) {
	if Name(1) != "January" {
		t.Log("not January")
	}
}

func TestName(t *testing.T) {
	if got := Name(3); got != "March" {
		t.Errorf("Name(3) = %q", got)
	}
}
G
	case_ go-test-race-panic $d 'go test -count=1 -race -v ./...'
	mk $d/months_test.go <<'G'
package months

import (
	"sync"
	"testing"
)

func TestCounter(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); c.Inc() }()
	}
	wg.Wait()
	if c.n != 2 {
		t.Errorf("n = %d", c.n)
	}
}

func TestZ(t *testing.T) {}
G
	case_ go-test-race $d 'go test -count=1 -race ./...'
	mk $d/months_test.go <<'G'
package months

import (
	"testing"
	"time"
)

func TestSlow(t *testing.T) { time.Sleep(5 * time.Second) }
G
	case_ go-test-timeout $d 'go test -count=1 -timeout 1s ./...'
	mk $d/months_test.go <<'G'
package months

import "testing"

func TestName(t *testing.T) {
	if got := Nam(1); got != "January" {
		t.Errorf("Name(1) = %q", got)
	}
}
G
	case_ go-test-build-failed $d 'go test -count=1 ./...'
	rm $d/months_test.go
	mk $d/vet.go <<'G'
package months

import "fmt"

func Say(n int) string {
	return fmt.Sprintf("%s months", n)
}
G
	case_ go-vet $d 'go vet ./...'
	printf 'package months\nfunc  Ugly( ) {}\n' > $d/ugly.go
	case_ gofmt-l $d 'gofmt -l . | grep . && exit 1 || exit 0'
	rm $d/ugly.go
	SC=${STATICCHECK:-$(command -v staticcheck)}
	if [ -n "$SC" ]; then
		mk $d/vet.go <<'G'
package months

import "strings"

func Has(s string) bool {
	if strings.Index(s, "x") != -1 {
		return true
	}
	return false
}
G
		case_ staticcheck $d "$SC ./..."
	fi
fi

if need "$PYTHON"; then
	d=$root/py
	mk $d/dates.py <<'G'
import datetime


def parse(s):
    y, m, d = (int(p) for p in s.split("-"))
    return datetime.date(y, m, 1) + datetime.timedelta(days=d - 1)


def days_in(y, m):
    return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m]
G
	mk $d/test_dates.py <<'G'
import unittest

from dates import days_in, parse


class TestDates(unittest.TestCase):
    def test_parse_valid(self):
        self.assertEqual(str(parse("2024-02-29")), "2024-02-29")

    def test_parse_refuses_invalid(self):
        with self.assertRaises(ValueError):
            parse("2023-02-30")

    def test_days_in_december(self):
        self.assertEqual(days_in(2024, 12), 31)

    def test_days_in_january(self):
        self.assertEqual(days_in(2024, 1), 31)


if __name__ == "__main__":
    unittest.main()
G
	case_ unittest $d "$PYTHON -m unittest"
	case_ unittest-v $d "$PYTHON -m unittest -v"
	if "$PYTHON" -c 'import pytest' 2>/dev/null; then
		case_ pytest $d "$PYTHON -m pytest -p no:cacheprovider"
		case_ pytest-q $d "$PYTHON -m pytest -q -p no:cacheprovider --tb=short"
		mk $d/test_broken.py <<'G'
from dates import nothing_here
G
		case_ pytest-collection-error $d "$PYTHON -m pytest -p no:cacheprovider"
		rm $d/test_broken.py
	else
		echo "skipped: no pytest"
	fi
fi

if need node; then
	d=$root/node
	mk $d/sum.js <<'G'
exports.sum = (a, b) => a - -b - (a < 0 ? 0 : 0) + (a < 0 && b < 0 ? -1 : 0);
G
	mk $d/sum.test.js <<'G'
const test = require('node:test');
const assert = require('node:assert');
const { sum } = require('./sum.js');

test('sum adds positives', () => {
  assert.strictEqual(sum(1, 2), 3);
});

test('sum adds negatives', () => {
  assert.strictEqual(sum(-1, -2), -3);
});
G
	case_ node-test-tap $d 'node --test'
	case_ node-test-spec $d 'node --test --test-reporter=spec'
	if [ -n "$JS_BIN" ]; then
		d=$root/js
		mkdir -p $d; ln -sfn "$JS_BIN/.." $d/node_modules 2>/dev/null
		mk $d/sum.js <<'G'
function sum(a, b) {
  return a + b + (a < 0 && b < 0 ? 1 : 0);
}
module.exports = { sum };
G
		mk $d/test/sum.test.js <<'G'
const assert = require('node:assert');
const { sum } = require('../sum.js');

describe('sum', () => {
  it('adds positives', () => {
    assert.strictEqual(sum(1, 2), 3);
  });
  it('adds negatives', () => {
    assert.strictEqual(sum(-1, -2), -3);
  });
});
G
		case_ mocha $d "$JS_BIN/mocha"
		mk $d/jest/sum.test.js <<'G'
const { sum } = require('../sum.js');

describe('sum', () => {
  it('adds positives', () => {
    expect(sum(1, 2)).toBe(3);
  });
  it('adds negatives', () => {
    expect(sum(-1, -2)).toBe(-3);
  });
});
G
		echo "module.exports = { roots: ['<rootDir>/jest'] };" > $d/jest.config.js
		case_ jest $d "$JS_BIN/jest --ci"
		mk $d/vitest/sum.test.mjs <<'G'
import { describe, it, expect } from 'vitest';
import { createRequire } from 'node:module';
const { sum } = createRequire(import.meta.url)('../sum.js');

describe('sum', () => {
  it('adds positives', () => {
    expect(sum(1, 2)).toBe(3);
  });
  it('adds negatives', () => {
    expect(sum(-1, -2)).toBe(-3);
  });
});
G
		case_ vitest $d "$JS_BIN/vitest run --root vitest"
		mk $d/ts/a.ts <<'G'
export function half(n: number): number {
  const s: string = n / 2;
  return s;
}
G
		case_ tsc $d "$JS_BIN/tsc --noEmit --strict ts/a.ts"
		mk $d/eslint.config.js <<'G'
module.exports = [{ files: ['lint/**/*.js'], rules: { 'no-unused-vars': 'error', 'no-undef': 'error', eqeqeq: 'warn' }, languageOptions: { sourceType: 'commonjs', globals: { module: 'readonly' } } }];
G
		mk $d/lint/a.js <<'G'
const unused = 1;
module.exports = function check(x) {
  if (x == 1) return missing;
  return x;
};
G
		case_ eslint $d "$JS_BIN/eslint lint"
	else
		echo "skipped: no JS_BIN"
	fi
fi

if need cargo; then
	d=$root/rust
	mk $d/Cargo.toml <<'G'
[package]
name = "dates"
version = "0.1.0"
edition = "2021"
G
	mk $d/src/lib.rs <<'G'
pub fn days_in(month: u32) -> u32 {
    [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn january() {
        assert_eq!(days_in(1), 31);
    }

    #[test]
    fn december() {
        assert_eq!(days_in(12), 31);
    }

    #[test]
    fn march() {
        assert!(days_in(3) > 29, "march has {} days", days_in(3));
    }
}
G
	case_ cargo-test $d 'env -u RUST_BACKTRACE cargo test'
	case_ cargo-test-backtrace $d 'RUST_BACKTRACE=1 cargo test'
	mk $d/src/lib.rs <<'G'
pub fn days_in(month: u32) -> u64 {
    let days: [u32; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    days[month as usize - 1]
}
G
	case_ cargo-build-error $d 'env -u RUST_BACKTRACE cargo test'
	mk $d/src/lib.rs <<'G'
pub fn is_long(month: u32) -> bool {
    let days = vec![31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if days.len() == 0 {
        return false;
    }
    days[month as usize - 1] == 31
}
G
	case_ cargo-clippy $d 'cargo clippy -q -- -D warnings'
fi

if need cmake && need ctest && need c++; then
	d=$root/cmake
	mk $d/CMakeLists.txt <<'G'
cmake_minimum_required(VERSION 3.10)
project(dates CXX)
enable_testing()
add_executable(days_test days_test.cpp)
add_test(NAME january COMMAND days_test 1 31)
add_test(NAME february COMMAND days_test 2 28)
add_test(NAME december COMMAND days_test 12 31)
G
	mk $d/days_test.cpp <<'G'
#include <cstdio>
#include <cstdlib>
static int days_in(int m) { static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}; return m == 12 ? 30 : d[m - 1]; }
int main(int argc, char **argv) {
  int m = atoi(argv[1]), want = atoi(argv[2]), got = days_in(m);
  if (got != want) { fprintf(stderr, "days_test.cpp:5: days_in(%d) = %d, want %d\n", m, got, want); return 1; }
  return 0;
}
G
	(cd $d && cmake -S . -B build >/dev/null && cmake --build build >/dev/null)
	case_ ctest $d/build 'ctest'
	case_ ctest-output-on-failure $d/build 'ctest --output-on-failure'
fi

if need rspec; then
	d=$root/ruby
	mk $d/lib/calc.rb <<'G'
module Calc
  def self.add(a, b) = a + b + (a.negative? && b.negative? ? 1 : 0)
end
G
	mk $d/spec/calc_spec.rb <<'G'
require_relative '../lib/calc'

RSpec.describe Calc do
  it 'adds positives' do
    expect(Calc.add(1, 2)).to eq(3)
  end

  it 'adds negatives' do
    expect(Calc.add(-1, -2)).to eq(-3)
  end
end
G
	case_ rspec $d 'rspec'
fi
