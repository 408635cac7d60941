package web

import (
	"crypto/ecdh"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/SherClockHolmes/webpush-go"
	"github.com/hooksup/hooksup/internal/atomicfile"
)

// The files of Web Push, in hooksup's state directory, 0600 like the devices': the server's
// VAPID key pair (RFC 8292), which signs every push it sends, and the browsers' push
// subscriptions (RFC 8030 endpoints, with the keys a push is encrypted to, RFC 8291).
const (
	VAPIDFile = "web-vapid.json"
	PushFile  = "web-push.json"
)

// maxSubscriptions bounds the subscriptions kept; the oldest go first.
const maxSubscriptions = 64

// maxEndpoint bounds a push endpoint's length (push services' are a few hundred bytes).
const maxEndpoint = 2048

// vapidKeys is the server's VAPID key pair, each base64url as webpush-go reads them: the private
// scalar, and the public key as an uncompressed P-256 point (what GET /api/push/key gives).
type vapidKeys struct {
	Private string    `json:"private"`
	Public  string    `json:"public"`
	Created time.Time `json:"created"`
}

// Subscription is one browser's push subscription (PushSubscription.toJSON()), and who made it:
// a paired device (revoking it drops the subscription) or the API token (Device "").
type Subscription struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
	Device  string    `json:"device,omitempty"`
	Created time.Time `json:"created"`
}

// decodeKey reads a subscription's key, base64url with or without padding.
func decodeKey(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// checkSubscription refuses a subscription a push could not be sent to: its endpoint must be
// an https URL (a push service's, reached with the system's roots), its p256dh key a P-256 public
// key and its auth secret 16 bytes (RFC 8291).
func checkSubscription(sub Subscription) error {
	if sub.Endpoint == "" {
		return errors.New(`the subscription has no "endpoint" (send PushSubscription.toJSON())`)
	}
	if len(sub.Endpoint) > maxEndpoint {
		return fmt.Errorf("the endpoint is over %d bytes", maxEndpoint)
	}
	u, err := url.Parse(sub.Endpoint)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.Fragment != "" {
		return fmt.Errorf("the endpoint %q is not an https URL: hooksup web sends pushes to a push service over https only", sub.Endpoint)
	}
	p, err := decodeKey(sub.Keys.P256dh)
	if err == nil {
		_, err = ecdh.P256().NewPublicKey(p)
	}
	if err != nil {
		return errors.New(`keys.p256dh is not a P-256 public key (base64url, uncompressed)`)
	}
	if a, err := decodeKey(sub.Keys.Auth); err != nil || len(a) != 16 {
		return errors.New(`keys.auth is not 16 bytes (base64url)`)
	}
	return nil
}

// VAPID is the server's VAPID key pair, made (and kept, 0600) the first time it is asked for.
func (s *Store) vapid() (vapidKeys, error) {
	var k vapidKeys
	err := s.locked(func() error {
		path := s.path(VAPIDFile)
		b, err := readPrivate(path)
		if err != nil {
			return err
		}
		if len(b) > 0 {
			if err := json.Unmarshal(b, &k); err != nil {
				return fmt.Errorf("read %s: %w", path, err)
			}
			if k.Private != "" && k.Public != "" {
				return nil
			}
		}
		priv, pub, err := webpush.GenerateVAPIDKeys()
		if err != nil {
			return fmt.Errorf("make the VAPID key: %w", err)
		}
		k = vapidKeys{Private: priv, Public: pub, Created: time.Now()}
		b, err = json.MarshalIndent(k, "", "  ")
		if err != nil {
			return err
		}
		return atomicfile.Write(path, append(b, '\n'), 0o600)
	})
	return k, err
}

// Subscriptions are the push subscriptions, oldest first.
func (s *Store) Subscriptions() ([]Subscription, error) {
	return readJSON[Subscription](s.path(PushFile))
}

// Subscribe keeps sub (one already kept under its endpoint is replaced); past
// maxSubscriptions, the oldest go.
func (s *Store) Subscribe(sub Subscription) error {
	return s.locked(func() error {
		subs, err := s.Subscriptions()
		if err != nil {
			return err
		}
		subs = slices.DeleteFunc(subs, func(o Subscription) bool { return o.Endpoint == sub.Endpoint })
		subs = append(subs, sub)
		if len(subs) > maxSubscriptions {
			subs = subs[len(subs)-maxSubscriptions:]
		}
		return writeList(s.path(PushFile), subs)
	})
}

// Unsubscribe drops the subscriptions that drop says, and reports how many went.
func (s *Store) Unsubscribe(drop func(Subscription) bool) (int, error) {
	n := 0
	err := s.locked(func() error {
		subs, err := s.Subscriptions()
		if err != nil || len(subs) == 0 {
			return err
		}
		kept := slices.DeleteFunc(slices.Clone(subs), drop)
		if n = len(subs) - len(kept); n == 0 {
			return nil
		}
		return writeList(s.path(PushFile), kept)
	})
	return n, err
}

// dropSubscriptionsOf drops the subscriptions of the devices gone (every device's when all),
// the lock held.
func (s *Store) dropSubscriptionsOf(gone []Device, all bool) error {
	subs, err := s.Subscriptions()
	if err != nil || len(subs) == 0 {
		return err
	}
	kept := slices.DeleteFunc(slices.Clone(subs), func(sub Subscription) bool {
		return all || slices.ContainsFunc(gone, func(d Device) bool { return d.ID == sub.Device })
	})
	if len(kept) == len(subs) {
		return nil
	}
	return writeList(s.path(PushFile), kept)
}
