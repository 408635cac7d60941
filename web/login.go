package web

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"sync"
	"time"
)

// A paired browser holds a device key, never a secret it could be made to give away: at pairing
// the page makes an ECDSA P-256 key pair with WebCrypto, keeps its private half in IndexedDB,
// not extractable (its script can use it, nothing can read it out), and gives the server the
// public half, which the devices file keeps with the origin the page was paired on. To use the
// API, the page signs the challenge it was served with (one per load of the page in a window,
// in a meta element), its origin and its device's id (POST /api/login), and is given a login
// token that lives in the page's memory and in this server process's only. Whoever holds the port while hooksup web is down sees login
// tokens of a process that is gone and signatures of challenges it never issued again: nothing
// of it opens the API later.
const (
	// ChallengeTTL is how long the challenge a page was served with may be signed, once.
	ChallengeTTL = 2 * time.Minute
	// maxChallenges bounds the challenges outstanding; the oldest go first.
	maxChallenges = 1024
	// maxLogins bounds the login tokens of one server process; the oldest go first (a page
	// whose token went logs in again).
	maxLogins = 4096
	// challengeBytes and loginBytes are a challenge's and a login token's random bytes.
	challengeBytes = 32
	loginBytes     = 32
)

// loginMessage is what a device signs to log in: a fixed label, the origin the page runs on,
// its device's id and the server's challenge, one a line. The origin binds the signature to one
// server's address: a signature made for another (a page on another port) logs in nowhere else.
func loginMessage(origin, device, challenge string) []byte {
	return []byte("hooksup web login\n" + origin + "\n" + device + "\n" + challenge)
}

// parseDeviceKey reads a device's public key as the page sends it: the uncompressed P-256 point
// (WebCrypto's "raw" export), base64url without padding.
func parseDeviceKey(s string) (*ecdsa.PublicKey, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("the device key is not base64url: %w", err)
	}
	k, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), b)
	if err != nil {
		return nil, fmt.Errorf("the device key is not a P-256 public key: %w", err)
	}
	return k, nil
}

// verifyLogin reports whether sig (WebCrypto's ECDSA signature: r and s, 32 bytes each,
// base64url) signs msg with the device key key.
func verifyLogin(key string, msg []byte, sig string) bool {
	pub, err := parseDeviceKey(key)
	if err != nil {
		return false
	}
	b, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || len(b) != 64 {
		return false
	}
	h := sha256.Sum256(msg)
	r, s := new(big.Int).SetBytes(b[:32]), new(big.Int).SetBytes(b[32:])
	return ecdsa.Verify(pub, h[:], r, s)
}

// normalOrigin is an origin as a browser sends it in Origin: scheme://host[:port], lower case,
// the default port left out; "" for anything else.
func normalOrigin(o string) string {
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return ""
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return u.Scheme + "://" + host
}

// logins are the challenges this server process issued and the login tokens it gave, in memory
// only: they die with the process.
type logins struct {
	mu         sync.Mutex
	challenges map[string]time.Time // challenge -> expiry
	order      []string             // challenges, oldest first
	tokens     map[[sha256.Size]byte]loggedIn
	tokenOrder [][sha256.Size]byte
}

func newLogins() *logins {
	return &logins{challenges: map[string]time.Time{}, tokens: map[[sha256.Size]byte]loggedIn{}}
}

// loggedIn is whom a login token was given to: a device, and the key it signed with (a device
// paired again since has another, and the token is void).
type loggedIn struct{ device, key string }

// challenge issues a new challenge.
func (l *logins) challenge(now time.Time) (string, error) {
	c, err := newSecret(challengeBytes)
	if err != nil {
		return "", err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.order) > 0 && (len(l.order) >= maxChallenges || !now.Before(l.challenges[l.order[0]])) {
		delete(l.challenges, l.order[0])
		l.order = l.order[1:]
	}
	l.challenges[c] = now.Add(ChallengeTTL)
	l.order = append(l.order, c)
	return c, nil
}

// use spends challenge c: true when this process issued it, it has not expired and was not
// spent before.
func (l *logins) use(c string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	exp, ok := l.challenges[c]
	if !ok {
		return false
	}
	delete(l.challenges, c)
	return now.Before(exp)
}

// login gives a new login token to device, which signed with key.
func (l *logins) login(device, key string) (string, error) {
	tok, err := newSecret(loginBytes)
	if err != nil {
		return "", err
	}
	k := sha256.Sum256([]byte(tok))
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.tokenOrder) >= maxLogins {
		delete(l.tokens, l.tokenOrder[0])
		l.tokenOrder = l.tokenOrder[1:]
	}
	l.tokens[k] = loggedIn{device, key}
	l.tokenOrder = append(l.tokenOrder, k)
	return tok, nil
}

// device is whom login token tok was given to.
func (l *logins) device(tok string) (loggedIn, bool) {
	k := sha256.Sum256([]byte(tok))
	l.mu.Lock()
	defer l.mu.Unlock()
	d, ok := l.tokens[k]
	return d, ok
}

// noOrigin is the error of a pairing or login without the Origin a browser sends.
const noOrigin = "no Origin: pairing and logging in are a browser page's (scripts use the API token, hooksup web token)"
