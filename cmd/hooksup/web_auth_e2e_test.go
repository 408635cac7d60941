package main

import (
	"net/http"
	"testing"
)

// The Authorization scheme is case-insensitive (RFC 9110 11.1): bearer and BEARER are Bearer;
// another scheme is a wrong credential.
func TestWebTakesTheBearerSchemeInAnyCase(t *testing.T) {
	s := newSandbox(t)
	w := startWeb(t, s)
	for auth, want := range map[string]int{
		"Bearer " + w.token:  http.StatusOK,
		"bearer " + w.token:  http.StatusOK,
		"BEARER " + w.token:  http.StatusOK,
		"bEaReR  " + w.token: http.StatusOK,
		"Basic " + w.token:   http.StatusUnauthorized,
		"Bearer":             http.StatusUnauthorized,
	} {
		if resp, body := w.do(t, "GET", "/api/sessions", "", map[string]string{"Authorization": auth}); resp.StatusCode != want {
			t.Fatalf("Authorization: %.12s…: %d %s, want %d", auth, resp.StatusCode, body, want)
		}
	}
}
