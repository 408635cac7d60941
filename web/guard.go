package web

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// PlainHTTPFlag is hooksup web's flag that accepts plain HTTP beyond loopback.
const PlainHTTPFlag = "plain-http"

// AllowHostFlag is hooksup web's flag that adds a host name the server answers to.
const AllowHostFlag = "allow-host"

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

// hostName is a Host header's name, without its port, lower case, without a final dot; an IP
// address in its one spelling (fd00::5 for [FD00:0::5]).
func hostName(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(h, "]"), "["), ".")
	if ip := net.ParseIP(h); ip != nil {
		return ip.String()
	}
	return strings.ToLower(h)
}

// hostAllowed reports whether the request names a host the server answers to: loopback, one
// it was told of, or (listening on every interface) an address of this machine. Any other is
// a name someone pointed at this machine (DNS rebinding).
func (s *Server) hostAllowed(r *http.Request) bool {
	h := hostName(r.Host)
	if h == "" {
		return false
	}
	if isLoopback(h) {
		return true
	}
	_, ok := s.hosts[h]
	return ok || (s.ownAddrs != nil && s.ownAddrs.has(h))
}

// Failures are limited so that they cost little and say little: a wrong token draws on its
// client address's budget, a wrong pairing code on one budget for every address (a local user
// can pick any of 127/8's addresses, and a code's 128 bits need no budget of their own to be
// safe from guessing). A budget holds failureBurst and refills one every failureRefill; while
// it is spent, those failures are 429 instead of 401. A valid credential is always served.
const (
	failureBurst  = 10
	failureRefill = time.Second
	// logEvery is how often wrong credentials are logged at most, from every address in all:
	// the first at once, then a line that counts those since.
	logEvery = time.Minute
	// maxClients bounds the addresses remembered; full buckets go first.
	maxClients = 4096
)

// What a failure was: the kinds of refuse.
const (
	wrongToken = "token"
	wrongCode  = "pairing code"
)

type bucket struct {
	left float64
	at   time.Time
}

func (b *bucket) fill(now time.Time) {
	b.left = min(failureBurst, b.left+float64(now.Sub(b.at))/float64(failureRefill))
	b.at = now
}

// take draws one failure and reports how long until the bucket has one again (0: it had one).
func (b *bucket) take(now time.Time) time.Duration {
	b.fill(now)
	if b.left >= 1 {
		b.left--
		return 0
	}
	return time.Duration((1 - b.left) * float64(failureRefill))
}

type failures struct {
	mu    sync.Mutex
	by    map[string]*bucket // wrong tokens, by address
	codes bucket             // wrong pairing codes, from every address
	log   failureLog
}

func newFailures(logger *slog.Logger) *failures {
	return &failures{by: map[string]*bucket{}, codes: bucket{left: failureBurst, at: time.Now()}, log: failureLog{logger: logger, every: logEvery}}
}

// clientAddr is the request's remote IP.
func clientAddr(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// failed counts a failure (wrongToken or wrongCode) of addr and reports how long until
// another may fail without being limited (0: not limited).
func (f *failures) failed(addr, what, path string) time.Duration {
	now := time.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log.note(f, now, addr, what, path)
	if what == wrongCode {
		return f.codes.take(now)
	}
	b, ok := f.by[addr]
	if !ok {
		if len(f.by) >= maxClients {
			for a, o := range f.by {
				if o.fill(now); o.left >= failureBurst {
					delete(f.by, a)
				}
			}
			if len(f.by) >= maxClients {
				clear(f.by)
			}
		}
		b = &bucket{left: failureBurst, at: now}
		f.by[addr] = b
	}
	return b.take(now)
}

// failureLog writes wrong credentials to the log, at most one line every logEvery whatever
// the addresses: the first failure after a quiet logEvery at once, the others counted in a
// line at the end of the logEvery (a timer), with how many addresses they came from.
type failureLog struct {
	logger       *slog.Logger
	every        time.Duration // logEvery
	at           time.Time     // of the last line
	tokens       int           // not yet logged
	codes        int
	addrs        map[string]struct{} // of those, at most maxClients
	last         string              // the address of the latest
	flushPending bool
}

// note counts one failure; f.mu is held.
func (l *failureLog) note(f *failures, now time.Time, addr, what, path string) {
	if !l.flushPending && now.Sub(l.at) >= l.every {
		l.logger.Warn("web: wrong credentials", "remote", addr, "what", what, "path", path)
		l.at = now
		return
	}
	if what == wrongCode {
		l.codes++
	} else {
		l.tokens++
	}
	if l.addrs == nil {
		l.addrs = map[string]struct{}{}
	}
	if len(l.addrs) < maxClients {
		l.addrs[addr] = struct{}{}
	}
	l.last = addr
	if !l.flushPending {
		l.flushPending = true
		time.AfterFunc(l.at.Add(l.every).Sub(now), func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			l.flush(time.Now())
		})
	}
}

// flush writes the line that counts the failures since the last; f.mu is held.
func (l *failureLog) flush(now time.Time) {
	addrs := strconv.Itoa(len(l.addrs))
	if len(l.addrs) >= maxClients {
		addrs += " or more"
	}
	l.logger.Warn("web: wrong credentials", "tokens", l.tokens, "pairing_codes", l.codes, "addresses", addrs,
		"last_remote", l.last, "since", l.at.Format(time.RFC3339))
	l.at, l.tokens, l.codes, l.last, l.flushPending = now, 0, 0, "", false
	clear(l.addrs)
}

// bearer is the request's Authorization: Bearer credential, the scheme in any case (RFC 9110
// 11.1). Cookies are never read: a browser sends them to every port of a host.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", false
	}
	const scheme = "Bearer "
	if len(h) >= len(scheme) && strings.EqualFold(h[:len(scheme)], scheme) {
		h = h[len(scheme):]
	} // another scheme is a wrong credential
	return strings.TrimSpace(h), true
}

// matchesToken compares with the API token in constant time: the hashes have one length
// whatever was given.
func (s *Server) matchesToken(given string) bool {
	if s.token == "" {
		return false
	}
	a, b := sha256.Sum256([]byte(given)), sha256.Sum256([]byte(s.token))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// valid reports whether given is the API token or a login token of this process's whose device
// is still paired (whose use, from addr, is then written down).
func (s *Server) valid(given, addr string) (bool, error) {
	_, ok, err := s.credential(given, addr)
	return ok, err
}

// credential is valid, with the device given is a login token of ("" for the API token).
func (s *Server) credential(given, addr string) (device string, ok bool, err error) {
	if s.matchesToken(given) {
		return "", true, nil
	}
	if s.store == nil || given == "" {
		return "", false, nil
	}
	who, ok := s.logins.device(given)
	if !ok {
		return "", false, nil
	}
	d, ok, err := s.store.Lookup(who.device)
	if err != nil || !ok || d.Key != who.key {
		return "", false, err
	}
	if err := s.store.Seen(d, addr, time.Now()); err != nil {
		s.logger.Warn("web: write a device's last use", "device", d.ID, "err", err)
	}
	return d.ID, true, nil
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

type credentialKey struct{}

// refuse answers a failed attempt (what: wrongToken or wrongCode): 429 while such failures
// are limited, else 401.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, what, msg string) {
	if wait := s.fails.failed(clientAddr(r), what, r.URL.Path); wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)+1))
		from := "from " + clientAddr(r)
		if what == wrongCode {
			from = "from any address"
		}
		writeError(w, http.StatusTooManyRequests, "rate_limited", "too many wrong "+what+"s "+from+": try again later")
		return
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="hooksup"`)
	writeError(w, http.StatusUnauthorized, "unauthorized", msg)
}

const needsCredential = "this needs a paired browser's login or the API token as Authorization: Bearer TOKEN " +
	"(pair a browser with hooksup web pair; scripts use hooksup web token)"

// api guards an API handler: a write from the page's origin only (403); a paired browser's
// login token or the API token (Bearer) else 401, or 429 while this address's wrong tokens are
// limited. A connection that brings a valid credential is marked credentialed (LimitListener).
func (s *Server) api(f http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		write := r.Method != http.MethodGet && r.Method != http.MethodHead
		if write && !sameOrigin(r) {
			writeError(w, http.StatusForbidden, "origin", "a write from another origin is refused")
			return
		}
		given, has := bearer(r)
		if !has {
			w.Header().Set("WWW-Authenticate", `Bearer realm="hooksup"`)
			writeError(w, http.StatusUnauthorized, "unauthorized", needsCredential)
			return
		}
		ok, err := s.valid(given, clientAddr(r))
		if err != nil {
			s.logger.Error("web: the devices file", "err", err)
			writeError(w, http.StatusInternalServerError, "devices", err.Error())
			return
		}
		if !ok {
			s.refuse(w, r, wrongToken, needsCredential)
			return
		}
		markCredentialed(r.Context())
		f(w, r.WithContext(context.WithValue(r.Context(), credentialKey{}, given)))
	}
}

// maxPairBody bounds a pairing or login request's body.
const maxPairBody = 4 << 10

// decodeSmall reads r's body, at most maxPairBody, into v: false (and the 400 written) when it
// is not one such object.
func decodeSmall(w http.ResponseWriter, r *http.Request, v any, want string) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxPairBody)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil || dec.More() {
		writeError(w, http.StatusBadRequest, "bad_request", "the body is not "+want)
		return false
	}
	return true
}

// browserOrigin is the write's Origin, as a browser sends it, after sameOrigin: "" (and 403
// written) when the request is not a browser page's of this server.
func browserOrigin(w http.ResponseWriter, r *http.Request) string {
	if !sameOrigin(r) {
		writeError(w, http.StatusForbidden, "origin", "a write from another origin is refused")
		return ""
	}
	o := normalOrigin(r.Header.Get("Origin"))
	if o == "" {
		writeError(w, http.StatusBadRequest, "origin", noOrigin)
	}
	return o
}

// pairResult is POST /api/pair's answer: the device paired (its key is the page's own), and a
// challenge for the page to log in with at once.
type pairResult struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Challenge string `json:"challenge"`
}

// pair is POST /api/pair {"code", "key", "replaces"}: a pairing code, used once, pairs the
// page's device key; replaces names the device the page was before (paired again).
func (s *Server) pair(w http.ResponseWriter, r *http.Request) {
	origin := browserOrigin(w, r)
	if origin == "" {
		return
	}
	var body struct {
		Code     string `json:"code"`
		Key      string `json:"key"`
		Replaces string `json:"replaces"`
	}
	if !decodeSmall(w, r, &body, `{"code": "…", "key": "…"}`) {
		return
	}
	if body.Code == "" {
		writeError(w, http.StatusBadRequest, "bad_request", `the body is not {"code": "…", "key": "…"}`)
		return
	}
	if _, err := parseDeviceKey(body.Key); err != nil {
		writeError(w, http.StatusBadRequest, "bad_key", err.Error())
		return
	}
	if s.store == nil {
		s.refuse(w, r, wrongCode, "this server pairs no devices")
		return
	}
	d, ok, err := s.store.Pair(body.Code, DeviceName(r.UserAgent()), body.Key, origin, s.listen, body.Replaces, time.Now())
	if err != nil {
		s.logger.Error("web: pair a device", "err", err)
		writeError(w, http.StatusInternalServerError, "devices", err.Error())
		return
	}
	if !ok {
		s.refuse(w, r, wrongCode, fmt.Sprintf("this pairing code is used, expired (after %v) or wrong: run hooksup web pair for a new one", PairingTTL))
		return
	}
	s.logger.Info("web: paired a device", "device", d.ID, "name", d.Name, "origin", origin, "remote", clientAddr(r))
	c, err := s.logins.challenge(time.Now())
	if err != nil {
		writeError(w, http.StatusInternalServerError, "random", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, pairResult{ID: d.ID, Name: d.Name, Challenge: c})
}

// loginResult is POST /api/login's answer: the login token, for this page's memory only, and
// the device it is.
type loginResult struct {
	Token  string `json:"token"`
	Device struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"device"`
}

// login is POST /api/login {"device", "challenge", "signature"}: the device's key signed
// loginMessage of this request's origin and a challenge of this process's (the one its page was
// served with, or its pairing's); it gives a login token. The origin must be the one the device was paired on, at this server's address.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	origin := browserOrigin(w, r)
	if origin == "" {
		return
	}
	var body struct {
		Device    string `json:"device"`
		Challenge string `json:"challenge"`
		Signature string `json:"signature"`
	}
	if !decodeSmall(w, r, &body, `{"device": "…", "challenge": "…", "signature": "…"}`) {
		return
	}
	const refused = "this browser's login is refused: its device is not paired (revoked, or paired with another hooksup web), " +
		"or the challenge is not this server's: run hooksup web pair and open the URL it prints here"
	if s.store == nil || !s.logins.use(body.Challenge, time.Now()) {
		s.refuse(w, r, wrongToken, refused)
		return
	}
	d, ok, err := s.store.Lookup(body.Device)
	if err != nil {
		s.logger.Error("web: the devices file", "err", err)
		writeError(w, http.StatusInternalServerError, "devices", err.Error())
		return
	}
	if !ok || d.Origin != origin || (d.Server != "" && d.Server != s.listen) ||
		!verifyLogin(d.Key, loginMessage(origin, d.ID, body.Challenge), body.Signature) {
		s.refuse(w, r, wrongToken, refused)
		return
	}
	tok, err := s.logins.login(d.ID, d.Key)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "random", err.Error())
		return
	}
	if err := s.store.Seen(d, clientAddr(r), time.Now()); err != nil {
		s.logger.Warn("web: write a device's last use", "device", d.ID, "err", err)
	}
	var res loginResult
	res.Token, res.Device.ID, res.Device.Name = tok, d.ID, d.Name
	writeJSON(w, http.StatusOK, res)
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
