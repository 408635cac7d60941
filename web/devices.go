package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/hooksup/hooksup/internal/atomicfile"
)

// The files of paired devices and pairing codes, in hooksup's state directory, 0600. They keep
// the devices' public keys and the codes' SHA-256 hashes only: the files give no one a
// credential. Every change is made under an
// advisory lock on LockFile, by the server and by hooksup web pair and revoke alike.
const (
	DevicesFile = "web-devices.json"
	PairingFile = "web-pairing.json"
	LockFile    = "web.lock"
)

// PairingTTL is how long a pairing code may be used, once.
const PairingTTL = 10 * time.Minute

// pairingBytes is a pairing code's length: 128 random bits, in a URL and a QR code.
const pairingBytes = 16

// seenEvery is how often a device's last use is written down at most.
const seenEvery = time.Minute

// Device is a browser paired with hooksup web: the public half of its device key, and the
// origin it was paired on, which its logins must come from.
type Device struct {
	ID   string `json:"id"`
	Name string `json:"name"` // from its user agent: "Chrome on Linux"
	// Key is the device key's public half (login.go); Origin the page's origin at pairing,
	// "http://127.0.0.1:7862".
	Key    string `json:"key,omitempty"`
	Origin string `json:"origin,omitempty"`
	// Server is the address the hooksup web that paired it listened on: another server (another
	// port) does not take its logins, though they share this file.
	Server string `json:"server,omitempty"`
	// Hash is the SHA-256 of the bearer token of a device paired before device keys: such a
	// device logs in no more (web devices says to pair it again).
	Hash     string    `json:"sha256,omitempty"`
	Created  time.Time `json:"created"`
	LastSeen time.Time `json:"last_seen"`
	LastAddr string    `json:"last_addr,omitempty"` // the client address it was last seen from
}

type pairingCode struct {
	Hash    string    `json:"sha256"`
	Expires time.Time `json:"expires"`
}

// Store is the paired devices and the pairing codes of one state directory.
type Store struct {
	dir string

	mu     sync.Mutex // the cache of the devices file
	cached []Device
	stat   os.FileInfo
}

// NewStore is the store in stateDir.
func NewStore(stateDir string) *Store { return &Store{dir: stateDir} }

func (s *Store) path(name string) string { return filepath.Join(s.dir, name) }

// Check refuses the store's files (and the API token's) when others may read or change them.
func (s *Store) Check() error {
	for _, name := range []string{TokenFile, DevicesFile, PairingFile, LockFile, VAPIDFile, PushFile} {
		if err := checkPrivate(s.path(name)); err != nil {
			return err
		}
	}
	return nil
}

func hashOf(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

func sameHash(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// locked runs f holding the store's lock.
func (s *Store) locked(f func() error) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("web: %w", err)
	}
	path := s.path(LockFile)
	if err := checkPrivate(path); err != nil {
		return err
	}
	l, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return fmt.Errorf("web: lock %s: %w", path, err)
	}
	defer l.Close()
	if err := syscall.Flock(int(l.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("web: lock %s: %w", path, err)
	}
	defer syscall.Flock(int(l.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing unlocks too
	return f()
}

func readJSON[T any](path string) ([]T, error) {
	b, err := readPrivate(path)
	if err != nil || len(b) == 0 {
		return nil, err
	}
	var v []T
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return v, nil
}

func writeList[T any](path string, v []T) error {
	if err := checkPrivate(path); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicfile.Write(path, append(b, '\n'), 0o600)
}

// Devices are the paired devices, oldest first.
func (s *Store) Devices() ([]Device, error) {
	return readJSON[Device](s.path(DevicesFile))
}

// devices is Devices through a cache that lasts while the file is the same (every change is
// a new file renamed into place): the server looks at every request, so a revoke counts at once.
func (s *Store) devices() ([]Device, error) {
	path := s.path(DevicesFile)
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stat != nil && os.SameFile(s.stat, fi) && s.stat.ModTime().Equal(fi.ModTime()) && s.stat.Size() == fi.Size() {
		return s.cached, nil
	}
	ds, err := s.Devices()
	if err != nil {
		return nil, err
	}
	s.cached, s.stat = ds, fi
	return ds, nil
}

// Lookup returns the paired device id, if it has a device key.
func (s *Store) Lookup(id string) (Device, bool, error) {
	ds, err := s.devices()
	if err != nil {
		return Device{}, false, err
	}
	for _, d := range ds {
		if d.ID == id && d.Key != "" {
			return d, true, nil
		}
	}
	return Device{}, false, nil
}

// Seen writes down that device id was used now from addr, at most every minute unless from
// another address.
func (s *Store) Seen(d Device, addr string, now time.Time) error {
	if now.Sub(d.LastSeen) < seenEvery && d.LastAddr == addr {
		return nil
	}
	return s.locked(func() error {
		ds, err := s.Devices()
		if err != nil {
			return err
		}
		for i := range ds {
			if ds[i].ID == d.ID {
				ds[i].LastSeen, ds[i].LastAddr = now, addr
				return writeList(s.path(DevicesFile), ds)
			}
		}
		return nil
	})
}

// Revoke ends the device id ("" for every device) and returns those it ended, with their push
// subscriptions (every subscription when all end, the API token's too); an id that is no device
// is an error.
func (s *Store) Revoke(id string) ([]Device, error) {
	var gone []Device
	err := s.locked(func() error {
		ds, err := s.Devices()
		if err != nil {
			return err
		}
		var kept []Device
		for _, d := range ds {
			if id == "" || d.ID == id {
				gone = append(gone, d)
			} else {
				kept = append(kept, d)
			}
		}
		if id != "" && len(gone) == 0 {
			return fmt.Errorf("no paired device %q (hooksup web devices lists them)", id)
		}
		if kept == nil {
			kept = []Device{}
		}
		if err := s.dropSubscriptionsOf(gone, id == ""); err != nil {
			return err
		}
		return writeList(s.path(DevicesFile), kept)
	})
	return gone, err
}

// NewPairingCode makes a code that pairs one device, once, until it expires; the code itself
// is kept nowhere.
func (s *Store) NewPairingCode(now time.Time) (string, time.Time, error) {
	code, err := newSecret(pairingBytes)
	if err != nil {
		return "", time.Time{}, err
	}
	expires := now.Add(PairingTTL)
	err = s.locked(func() error {
		cs, err := readJSON[pairingCode](s.path(PairingFile))
		if err != nil {
			return err
		}
		cs = live(cs, now)
		cs = append(cs, pairingCode{Hash: hashOf(code), Expires: expires})
		return writeList(s.path(PairingFile), cs)
	})
	if err != nil {
		return "", time.Time{}, err
	}
	return code, expires, nil
}

func live(cs []pairingCode, now time.Time) []pairingCode {
	kept := []pairingCode{}
	for _, c := range cs {
		if now.Before(c.Expires) {
			kept = append(kept, c)
		}
	}
	return kept
}

// Pair trades a pairing code for a paired device: the code is used up, and a code that is
// unknown, used or expired pairs nothing (ok false). The device is key's (a public device key,
// login.go), paired on origin with the server listening on server. replaces, when it names a paired device, is the browser's
// device before: it is paired again with the new key (its old key logs in no more), keeping
// its id.
func (s *Store) Pair(code, name, key, origin, server, replaces string, now time.Time) (d Device, ok bool, err error) {
	if _, err := parseDeviceKey(key); err != nil {
		return Device{}, false, err
	}
	err = s.locked(func() error {
		cs, err := readJSON[pairingCode](s.path(PairingFile))
		if err != nil {
			return err
		}
		h := hashOf(code)
		found := -1
		for i, c := range cs {
			if sameHash(c.Hash, h) && now.Before(c.Expires) {
				found = i
			}
		}
		if found < 0 {
			return nil
		}
		if err := writeList(s.path(PairingFile), live(append(cs[:found:found], cs[found+1:]...), now)); err != nil {
			return err
		}
		ds, err := s.Devices()
		if err != nil {
			return err
		}
		ok = true
		if i := slices.IndexFunc(ds, func(d Device) bool { return replaces != "" && d.ID == replaces }); i >= 0 {
			ds[i].Name, ds[i].Key, ds[i].Origin, ds[i].Server, ds[i].Hash, ds[i].LastSeen = name, key, origin, server, "", now
			d = ds[i]
			return writeList(s.path(DevicesFile), ds)
		}
		id, err := newSecret(4)
		if err != nil {
			return err
		}
		d = Device{ID: id, Name: name, Key: key, Origin: origin, Server: server, Created: now, LastSeen: now}
		return writeList(s.path(DevicesFile), append(ds, d))
	})
	if err != nil || !ok {
		return Device{}, false, err
	}
	return d, true, nil
}
