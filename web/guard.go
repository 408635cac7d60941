package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// CookieName is the cookie the page trades the token for (POST /api/login).
const CookieName = "hooksup"

// CSRFHeader is the header the page sends with every write: a write authenticated by the
// cookie needs it, which no other origin can send without the server's leave (CORS), which it
// never gives.
const CSRFHeader = "X-Hooksup-Web"

// PlainHTTPFlag is hooksup web's flag that accepts plain HTTP beyond loopback.
const PlainHTTPFlag = "plain-http"

// contentSecurityPolicy: the page's own script and style only, nothing inline, no other
// origin, never in a frame.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// secure sets the headers every response carries.
func secure(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}

// Failed attempts (a wrong token or cookie) draw on a bucket of failureBurst that refills one
// every failureRefill; while it is empty, every request that needs the token is 429, the right
// one too, so that a guess learns nothing.
const (
	failureBurst  = 10
	failureRefill = time.Second
)

type limiter struct {
	mu     sync.Mutex
	burst  float64
	refill time.Duration
	left   float64
	at     time.Time
}

func newLimiter(burst int, refill time.Duration) *limiter {
	return &limiter{burst: float64(burst), refill: refill, left: float64(burst), at: time.Now()}
}

func (l *limiter) fill(now time.Time) {
	l.left = min(l.burst, l.left+float64(now.Sub(l.at))/float64(l.refill))
	l.at = now
}

// open reports whether an attempt may be checked now, else how long until one may.
func (l *limiter) open() (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.fill(time.Now())
	if l.left >= 1 {
		return true, 0
	}
	return false, time.Duration((1 - l.left) * float64(l.refill))
}

// failed draws a failure from the bucket.
func (l *limiter) failed() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.fill(time.Now())
	l.left = max(0, l.left-1)
}

// how a request was authenticated
type credential int

const (
	noCredential credential = iota
	byBearer
	byCookie
)

// authenticate checks the request's token (Bearer) or cookie; ok false with a credential is a
// wrong one.
func (s *Server) authenticate(r *http.Request) (credential, bool) {
	var given string
	cred := noCredential
	if h := r.Header.Get("Authorization"); h != "" {
		given, _ = strings.CutPrefix(h, "Bearer ")
		cred = byBearer
	} else if c, err := r.Cookie(CookieName); err == nil {
		given, cred = c.Value, byCookie
	}
	if cred == noCredential {
		return cred, false
	}
	return cred, s.matches(given)
}

// matches compares in constant time: the hashes have one length whatever was given.
func (s *Server) matches(given string) bool {
	a, b := sha256.Sum256([]byte(given)), sha256.Sum256([]byte(s.token))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// sameOrigin reports whether a write comes from the page's own origin, as the browser says
// (Sec-Fetch-Site, Origin); a client that says neither (curl) is not a browser's cross-site
// request.
func sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) {
			return false
		}
	}
	return true
}

// api guards an API handler: the token or the cookie (401, 429 while failures are limited);
// a write from the page's origin only (403), and one on the cookie with CSRFHeader (403).
func (s *Server) api(f http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		write := r.Method != http.MethodGet && r.Method != http.MethodHead
		if write && !sameOrigin(r) {
			writeError(w, http.StatusForbidden, "origin", "a write from another origin is refused")
			return
		}
		if ok, wait := s.limit.open(); !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)+1))
			writeError(w, http.StatusTooManyRequests, "rate_limited", "too many wrong tokens: try again later")
			return
		}
		cred, ok := s.authenticate(r)
		if !ok {
			if cred != noCredential {
				s.limit.failed()
				s.logger.Warn("web: a wrong token", "remote", r.RemoteAddr, "path", r.URL.Path)
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="hooksup"`)
			writeError(w, http.StatusUnauthorized, "unauthorized",
				"this needs the token: Authorization: Bearer TOKEN, or the page's cookie (open the URL hooksup web printed)")
			return
		}
		if write && cred == byCookie && r.Header.Get(CSRFHeader) == "" {
			writeError(w, http.StatusForbidden, "csrf", "a write on the page's cookie needs the "+CSRFHeader+" header")
			return
		}
		f(w, r)
	}
}

// login is POST /api/login with the token: it sets the cookie the page uses from then on.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: s.token, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil, MaxAge: 400 * 24 * 60 * 60})
	writeJSON(w, http.StatusOK, struct{}{})
}

// CheckListen refuses plain HTTP beyond loopback: addr must be a loopback address, or tls be
// on, or plain say the person accepts plain HTTP on that network.
func CheckListen(addr string, tls, plain bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %q: %w", addr, err)
	}
	if tls || plain || isLoopback(host) {
		return nil
	}
	return fmt.Errorf("--listen %s is beyond loopback: give --tls-cert and --tls-key, or --%s to accept plain HTTP on that network "+
		"(or keep the default and reach it through tailscale serve or ssh -L)", addr, PlainHTTPFlag)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
