package web

import (
	"net/http"
	"testing"
)

// The Authorization scheme is case-insensitive (RFC 9110 11.1); another scheme is a wrong
// credential, and none is no credential.
func TestBearerSchemeInAnyCase(t *testing.T) {
	for h, want := range map[string]string{
		"Bearer tok": "tok", "bearer tok": "tok", "BEARER tok": "tok", "bEaReR   tok ": "tok",
		"Basic tok": "Basic tok", "Bearer": "Bearer", "Bearertok": "Bearertok",
	} {
		r, _ := http.NewRequest("GET", "/", nil)
		r.Header.Set("Authorization", h)
		if got, has := bearer(r); !has || got != want {
			t.Errorf("Authorization: %q: %q %v, want %q", h, got, has, want)
		}
	}
	r, _ := http.NewRequest("GET", "/", nil)
	if got, has := bearer(r); has || got != "" {
		t.Errorf("no Authorization: %q %v", got, has)
	}
}
