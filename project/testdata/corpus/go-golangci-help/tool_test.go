package tool

import "testing"

func TestTitle(t *testing.T) {
	if got := Title(Name); got != "Tool" {
		t.Errorf("Title(%q) = %q, want %q", Name, got, "Tool")
	}
	if got := Title(""); got != "" {
		t.Errorf("Title(\"\") = %q", got)
	}
}
