package vt

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Every simple rune is a cluster of its own beside any other (and itself): the segmenter puts a
// boundary between them, and FirstGraphemeCluster's width for it alone is the one it gives it
// there. The pairs are every simple rune with each of a sample of others (every 7th) and with
// itself; every simple rune against every other would take minutes under the race detector, and
// what could join two of them is a property of one of the two (Extend, ZWJ, SpacingMark,
// Prepend), which the sample's printable ASCII exposes, or of both (regional indicators, Hangul
// jamo), which the pair with itself exposes.
func TestSimpleRunesNeverJoin(t *testing.T) {
	var simple, sample []rune
	for r := rune(0); r < 0x3000; r++ {
		if simpleRune(r) {
			simple = append(simple, r)
			if len(simple)%7 == 0 || r < 0x7f {
				sample = append(sample, r)
			}
		}
	}
	if len(simple) < 2800 {
		t.Fatalf("only %d simple runes", len(simple))
	}
	for _, a := range simple {
		_, wa := ansi.FirstGraphemeCluster([]byte(string(a)), ansi.GraphemeWidth)
		for _, b := range append(sample, a) {
			pair := []byte(string(a) + string(b))
			first, w := ansi.FirstGraphemeCluster(pair, ansi.GraphemeWidth)
			if string(first) != string(a) || w != wa {
				t.Fatalf("%U %U: first cluster %q width %d, want %q width %d", a, b, first, w, string(a), wa)
			}
			second, _ := ansi.FirstGraphemeCluster(pair[len(first):], ansi.GraphemeWidth)
			if string(second) != string(b) {
				t.Fatalf("%U %U: second cluster %q", a, b, second)
			}
			first, _ = ansi.FirstGraphemeCluster([]byte(string(b)+string(a)), ansi.GraphemeWidth)
			if string(first) != string(b) {
				t.Fatalf("%U %U: first cluster %q, want %q", b, a, first, string(b))
			}
		}
	}
}

// The emulator's cells are the same with the shortcut and without (upstream's code), for text
// mixing simple runes with ones that join them (combining marks, ZWJ, flags, Hangul).
func TestSimpleClustersMatchSegmenter(t *testing.T) {
	texts := []string{
		"──╌╌│●✻⎿ done", "─\u0301─", "a\u200d─", "✻\ufe0f✻", "🇫🇷─🇫🇷", "한─글", "·×÷é\u0301",
		"─👍🏽─", "❯ ls\r\n╭──╮\r\n│ok│\r\n╰──╯", "\u00ad─\u00ad", "—…‹›€™←↓✳", "─\u20dd─",
	}
	for _, text := range texts {
		fast, slow := NewEmulator(20, 5), NewEmulator(20, 5)
		for i := range slow.scrs {
			slow.scrs[i].upstream = true
		}
		write(fast, text)
		write(slow, text)
		if f, s := stateOf(fast), stateOf(slow); !sameState(&f, &s) {
			t.Errorf("%q: with the shortcut\n%s\nwithout\n%s", text, dump(f), dump(s))
		}
	}
}
