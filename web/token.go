package web

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hooksup/hooksup/internal/atomicfile"
)

// TokenFile is the API token's file in hooksup's state directory: the token scripts send as
// Authorization: Bearer (hooksup web token prints it). No browser is given it.
const TokenFile = "web-token"

// tokenBytes is a token's length: 256 random bits, written as 64 hex digits.
const tokenBytes = 32

// newSecret is n random bytes as hex.
func newSecret(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// LoadToken returns the API token kept in stateDir (0600), making one when there is none or
// when renew asks for a new one. A token file that others may read or change, or a symlink, is
// an *UnsafeFileError: it is refused, not repaired.
func LoadToken(stateDir string, renew bool) (string, error) {
	path := filepath.Join(stateDir, TokenFile)
	b, err := readPrivate(path)
	if err != nil {
		return "", fmt.Errorf("web token: %w", err)
	}
	if tok := strings.TrimSpace(string(b)); !renew && len(tok) == 2*tokenBytes {
		return tok, nil
	}
	tok, err := newSecret(tokenBytes)
	if err != nil {
		return "", fmt.Errorf("web token: %w", err)
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return "", fmt.Errorf("web token: %w", err)
	}
	if err := atomicfile.Write(path, []byte(tok+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("web token: %w", err)
	}
	return tok, nil
}
