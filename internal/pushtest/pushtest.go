// Package pushtest is a Web Push service for tests: an HTTPS server with a certificate of its
// own test CA (which a test makes the system's roots with SSL_CERT_FILE), the browser's side of a
// push subscription (its P-256 key and auth secret), and an implementation of the receiving
// side written apart from the sender's library, on the standard library alone: it verifies the
// VAPID JWT (RFC 8292) and decrypts the aes128gcm payload (RFC 8291, RFC 8188).
package pushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// CA is a certificate authority of a test's own.
type CA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	PEM  []byte
}

// NewCA makes a CA.
func NewCA() (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "hooksup test push CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &CA{cert: cert, key: key, PEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}, nil
}

// WriteRoots writes the CA's certificate to dir/roots.pem, for SSL_CERT_FILE, and returns the
// path. Go reads the system's roots once a process: set SSL_CERT_FILE before the first TLS
// connection that uses them (in TestMain).
func (ca *CA) WriteRoots(dir string) (string, error) {
	p := filepath.Join(dir, "roots.pem")
	return p, os.WriteFile(p, ca.PEM, 0o600)
}

// leaf is a server certificate for 127.0.0.1 and localhost.
func (ca *CA) leaf() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "push.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

// Push is one push the service received.
type Push struct {
	Path    string
	Header  http.Header
	Body    []byte
	Arrived time.Time
}

// Service is a push service: each POST to a path is a push to the subscription at that path,
// answered 201 unless Answer says otherwise.
type Service struct {
	*httptest.Server
	mu     sync.Mutex
	pushes []Push
	answer map[string]int           // path -> status
	hold   map[string]chan struct{} // path -> closed when the request may be answered
	got    chan struct{}
}

// NewService starts a push service whose certificate ca signed (ca is not the client's: the
// sender must trust it through the system's roots).
func NewService(ca *CA) (*Service, error) {
	cert, err := ca.leaf()
	if err != nil {
		return nil, err
	}
	s := &Service{answer: map[string]int{}, hold: map[string]chan struct{}{}, got: make(chan struct{}, 1)}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.Server.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	s.StartTLS()
	return s, nil
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	s.mu.Lock()
	s.pushes = append(s.pushes, Push{Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Arrived: time.Now()})
	status, hold := s.answer[r.URL.Path], s.hold[r.URL.Path]
	s.mu.Unlock()
	select {
	case s.got <- struct{}{}:
	default:
	}
	if hold != nil {
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
	}
	if status == 0 {
		status = http.StatusCreated
	}
	w.WriteHeader(status)
}

// Answer makes the service answer pushes to path with status.
func (s *Service) Answer(path string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answer[path] = status
}

// Hold makes the service answer pushes to path only once release is called (or the sender
// hangs up): a push service that does not answer.
func (s *Service) Hold(path string) (release func()) {
	c := make(chan struct{})
	s.mu.Lock()
	s.hold[path] = c
	s.mu.Unlock()
	return sync.OnceFunc(func() { close(c) })
}

// Pushes are the pushes received so far, to path ("" for every path).
func (s *Service) Pushes(path string) []Push {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Push
	for _, p := range s.pushes {
		if path == "" || p.Path == path {
			out = append(out, p)
		}
	}
	return out
}

// Wait waits until cond holds of the pushes received, or the deadline passes.
func (s *Service) Wait(d time.Duration, cond func([]Push) bool) ([]Push, bool) {
	deadline := time.After(d)
	for {
		if ps := s.Pushes(""); cond(ps) {
			return ps, true
		}
		select {
		case <-s.got:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			return s.Pushes(""), false
		}
	}
}

// Subscriber is the browser's side of one push subscription: its endpoint at a Service, its
// ECDH key and its auth secret.
type Subscriber struct {
	Endpoint string
	key      *ecdh.PrivateKey
	auth     []byte
}

// NewSubscriber makes a subscription at s's path.
func NewSubscriber(s *Service, path string) (*Subscriber, error) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	auth := make([]byte, 16)
	if _, err := rand.Read(auth); err != nil {
		return nil, err
	}
	return &Subscriber{Endpoint: s.URL + path, key: k, auth: auth}, nil
}

// Keys are the subscription's keys as PushSubscription.toJSON() gives them: base64url.
func (sub *Subscriber) Keys() (p256dh, auth string) {
	return base64.RawURLEncoding.EncodeToString(sub.key.PublicKey().Bytes()), base64.RawURLEncoding.EncodeToString(sub.auth)
}

// JSON is PushSubscription.toJSON() of the subscription.
func (sub *Subscriber) JSON() string {
	p, a := sub.Keys()
	b, _ := json.Marshal(map[string]any{"endpoint": sub.Endpoint, "expirationTime": nil, "keys": map[string]string{"p256dh": p, "auth": a}})
	return string(b)
}

// VAPID is what a push's Authorization says (RFC 8292), once verified.
type VAPID struct {
	Key string // k: the sender's public key, base64url
	Aud string
	Sub string
	Exp time.Time
}

// VerifyVAPID reads `Authorization: vapid t=JWT, k=KEY` and verifies the JWT: ES256, signed by
// k's key, not expired.
func VerifyVAPID(authorization string) (VAPID, error) {
	rest, ok := strings.CutPrefix(authorization, "vapid ")
	if !ok {
		return VAPID{}, fmt.Errorf("the Authorization is not vapid: %q", authorization)
	}
	params := map[string]string{}
	for p := range strings.SplitSeq(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		params[k] = v
	}
	t, k := params["t"], params["k"]
	if t == "" || k == "" {
		return VAPID{}, fmt.Errorf("the Authorization has no t= or k=: %q", authorization)
	}
	kb, err := base64.RawURLEncoding.DecodeString(k)
	if err != nil {
		return VAPID{}, fmt.Errorf("k: %w", err)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), kb)
	if err != nil {
		return VAPID{}, fmt.Errorf("k is not a P-256 key: %w", err)
	}
	parts := strings.Split(t, ".")
	if len(parts) != 3 {
		return VAPID{}, fmt.Errorf("the JWT has %d parts", len(parts))
	}
	var header struct{ Alg, Typ string }
	if err := decodeJSON(parts[0], &header); err != nil || header.Alg != "ES256" {
		return VAPID{}, fmt.Errorf("the JWT's header: %+v %v", header, err)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return VAPID{}, fmt.Errorf("the JWT's signature is not ES256's 64 bytes: %v", err)
	}
	h := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, h[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return VAPID{}, errors.New("the JWT's signature does not verify with k")
	}
	var claims struct {
		Aud string `json:"aud"`
		Sub string `json:"sub"`
		Exp int64  `json:"exp"`
	}
	if err := decodeJSON(parts[1], &claims); err != nil {
		return VAPID{}, fmt.Errorf("the JWT's claims: %w", err)
	}
	v := VAPID{Key: k, Aud: claims.Aud, Sub: claims.Sub, Exp: time.Unix(claims.Exp, 0)}
	if !v.Exp.After(time.Now()) {
		return v, fmt.Errorf("the JWT expired at %v", v.Exp)
	}
	return v, nil
}

func decodeJSON(part string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// Decrypt decrypts an aes128gcm push body sent to the subscription (RFC 8291 section 3.4, RFC
// 8188): the header's salt, record size and the sender's one-time public key, then records,
// each ending with its padding delimiter.
func (sub *Subscriber) Decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("the body is shorter than its header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idlen || rs < 18 {
		return nil, errors.New("the header is cut short")
	}
	asPublic := body[21 : 21+idlen]
	ciphertext := body[21+idlen:]
	as, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		return nil, fmt.Errorf("the key id is not the sender's P-256 key: %w", err)
	}
	secret, err := sub.key.ECDH(as)
	if err != nil {
		return nil, err
	}
	// IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" || 0x00 || ua_public || as_public, 32)
	info := append(append([]byte("WebPush: info\x00"), sub.key.PublicKey().Bytes()...), asPublic...)
	ikm, err := hkdf.Key(sha256.New, secret, sub.auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	var out []byte
	for seq := uint64(0); len(ciphertext) > 0; seq++ {
		n := min(int(rs), len(ciphertext))
		iv := bytes.Clone(nonce)
		for i := range 8 { // the record's sequence number, XORed into the nonce's last bytes
			iv[11-i] ^= byte(seq >> (8 * i))
		}
		plain, err := gcm.Open(nil, iv, ciphertext[:n], nil)
		if err != nil {
			return nil, fmt.Errorf("record %d does not decrypt: %w", seq, err)
		}
		ciphertext = ciphertext[n:]
		plain = bytes.TrimRight(plain, "\x00")
		last := len(ciphertext) == 0
		switch {
		case len(plain) == 0:
			return nil, fmt.Errorf("record %d has no padding delimiter", seq)
		case last && plain[len(plain)-1] != 2, !last && plain[len(plain)-1] != 1:
			return nil, fmt.Errorf("record %d's delimiter is %d", seq, plain[len(plain)-1])
		}
		out = append(out, plain[:len(plain)-1]...)
	}
	return out, nil
}
