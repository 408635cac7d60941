package procinfo

import (
	"strings"
	"testing"
)

func TestParseStat(t *testing.T) {
	// The command may hold spaces and parentheses.
	line := "4242 (a) b (c) S 1 4240 4240 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 100 18446744073709551615\n"
	p, zombie, err := parseStat([]byte(line))
	if err != nil || zombie || p.Pgid != 4240 || p.Start != 987654 {
		t.Fatalf("got %+v zombie %v err %v", p, zombie, err)
	}
	if _, zombie, _ := parseStat([]byte(strings.Replace(line, ") S ", ") Z ", 1))); !zombie {
		t.Fatal("a zombie not seen")
	}
	if _, _, err := parseStat([]byte("4242 (a) S 1")); err == nil {
		t.Fatal("a short line parsed")
	}
}
