// Package webtest is a browser's device as hooksup web's page is one, for tests: a P-256 device
// key, paired with a pairing code and logged in by signing the server's challenge, over plain
// HTTP with the headers a browser sends.
package webtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// Device is one paired browser.
type Device struct {
	Key *ecdsa.PrivateKey
	// Base is the server's URL ("http://127.0.0.1:PORT/"); Origin what the browser sends as
	// Origin, the base's scheme, host and port by default.
	Base, Origin string
	// Host, when set, is the request's Host instead of the base's (the page reached under
	// another name).
	Host string
	// ID and Name are the device's, once paired; Token the login token, once logged in.
	ID, Name, Token string
	Client          *http.Client
}

// NewDevice is a device with a new key, for the server at base.
func NewDevice(base string) (*Device, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	base = strings.TrimSuffix(base, "/") + "/"
	return &Device{Key: k, Base: base, Origin: strings.TrimSuffix(base, "/"), Client: &http.Client{Timeout: 10 * time.Second}}, nil
}

// PublicKey is the key's public half as the page sends it: the uncompressed point, base64url.
func (d *Device) PublicKey() string {
	b, _ := d.Key.PublicKey.Bytes()
	return base64.RawURLEncoding.EncodeToString(b)
}

// Post sends body as JSON to path with the browser's Origin (and the login token, once there
// is one): the answer's status and body.
func (d *Device) Post(path string, body any) (int, string, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, "", err
	}
	r, err := http.NewRequest("POST", d.Base+strings.TrimPrefix(path, "/"), strings.NewReader(string(b)))
	if err != nil {
		return 0, "", err
	}
	if d.Host != "" {
		r.Host = d.Host
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Origin", d.Origin)
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	r.Header.Set("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36")
	if d.Token != "" {
		r.Header.Set("Authorization", "Bearer "+d.Token)
	}
	resp, err := d.Client.Do(r)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out), nil
}

// Pair pairs the device with code (replacing the device replaces, if not ""): the answer's
// status and body; on 200 the device has its ID and Name.
func (d *Device) Pair(code, replaces string) (int, string, error) {
	status, body, err := d.Post("/api/pair", map[string]string{"code": code, "key": d.PublicKey(), "replaces": replaces})
	if err == nil && status == http.StatusOK {
		var r struct{ ID, Name string }
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			return status, body, err
		}
		d.ID, d.Name = r.ID, r.Name
	}
	return status, body, err
}

// challengeMeta is the page's element that holds its challenge.
var challengeMeta = regexp.MustCompile(`<meta name="hooksup-challenge" content="([0-9a-f]*)">`)

// Challenge loads the page as a browser loads it in a window, and returns the challenge it
// was served with.
func (d *Device) Challenge() (string, error) {
	r, err := http.NewRequest("GET", d.Base, nil)
	if err != nil {
		return "", err
	}
	if d.Host != "" {
		r.Host = d.Host
	}
	r.Header.Set("Sec-Fetch-Mode", "navigate")
	r.Header.Set("Sec-Fetch-Dest", "document")
	r.Header.Set("Sec-Fetch-Site", "none")
	resp, err := d.Client.Do(r)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	m := challengeMeta.FindSubmatch(page)
	if resp.StatusCode != http.StatusOK || m == nil || len(m[1]) == 0 {
		return "", fmt.Errorf("GET %s: %d, no challenge in the page", d.Base, resp.StatusCode)
	}
	return string(m[1]), nil
}

// Sign signs the login of the device at origin with challenge, as the page does: ECDSA P-256
// over SHA-256, r and s of 32 bytes each, base64url.
func (d *Device) Sign(origin, challenge string) string {
	h := sha256.Sum256([]byte("hooksup web login\n" + origin + "\n" + d.ID + "\n" + challenge))
	r, s, err := ecdsa.Sign(rand.Reader, d.Key, h[:])
	if err != nil {
		panic(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return base64.RawURLEncoding.EncodeToString(sig)
}

// LoginBody is the body of POST /api/login.
type LoginBody struct {
	Device    string `json:"device"`
	Challenge string `json:"challenge"`
	Signature string `json:"signature"`
}

// Login asks for a challenge, signs it and logs in: the answer's status and body; on 200 the
// device has its Token.
func (d *Device) Login() (int, string, error) {
	c, err := d.Challenge()
	if err != nil {
		return 0, "", err
	}
	d.Token = ""
	status, body, err := d.Post("/api/login", LoginBody{Device: d.ID, Challenge: c, Signature: d.Sign(d.Origin, c)})
	if err == nil && status == http.StatusOK {
		var r struct{ Token string }
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			return status, body, err
		}
		d.Token = r.Token
	}
	return status, body, err
}
