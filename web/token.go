package web

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hooksup/hooksup/internal/atomicfile"
)

// TokenFile is the access token's file in hooksup's state directory.
const TokenFile = "web-token"

// tokenBytes is the token's length: 256 random bits, written as 64 hex digits.
const tokenBytes = 32

// LoadToken returns the access token kept in stateDir (0600), making one when there is none or
// when renew asks for a new one. The same token serves every restart, so a phone that has the
// page keeps it.
func LoadToken(stateDir string, renew bool) (string, error) {
	path := filepath.Join(stateDir, TokenFile)
	if !renew {
		b, err := os.ReadFile(path)
		if err == nil {
			tok := strings.TrimSpace(string(b))
			if len(tok) == 2*tokenBytes {
				if err := os.Chmod(path, 0o600); err != nil {
					return "", fmt.Errorf("web token: %w", err)
				}
				return tok, nil
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("web token: %w", err)
		}
	}
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("web token: %w", err)
	}
	tok := hex.EncodeToString(b)
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return "", fmt.Errorf("web token: %w", err)
	}
	if err := atomicfile.Write(path, []byte(tok+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("web token: %w", err)
	}
	return tok, nil
}
