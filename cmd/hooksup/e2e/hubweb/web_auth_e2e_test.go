package hubweb

import (
	"net/http"
	"testing"

	"github.com/hooksup/hooksup/cmd/hooksup/internal/e2e"
)

// The Authorization scheme is case-insensitive (RFC 9110 11.1): bearer and BEARER are Bearer;
// another scheme is a wrong credential.
func TestWebTakesTheBearerSchemeInAnyCase(t *testing.T) {
	t.Parallel()
	s := e2e.NewSandbox(t)
	w := e2e.StartWeb(t, s)
	for auth, want := range map[string]int{
		"Bearer " + w.Token:  http.StatusOK,
		"bearer " + w.Token:  http.StatusOK,
		"BEARER " + w.Token:  http.StatusOK,
		"bEaReR  " + w.Token: http.StatusOK,
		"Basic " + w.Token:   http.StatusUnauthorized,
		"Bearer":             http.StatusUnauthorized,
	} {
		if resp, body := w.Do(t, "GET", "/api/sessions", "", map[string]string{"Authorization": auth}); resp.StatusCode != want {
			t.Fatalf("Authorization: %.12s…: %d %s, want %d", auth, resp.StatusCode, body, want)
		}
	}
}
