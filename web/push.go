package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/SherClockHolmes/webpush-go"
	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/session"
)

// Web Push (RFC 8030), with no relay of hooksup's: a browser that asked to be notified gave the
// server its push subscription (its push service's endpoint and the keys to encrypt to); when a
// question starts waiting, the server sends each subscription one push, encrypted (RFC 8291,
// aes128gcm) and signed with its VAPID key (RFC 8292), by webpush-go. The push service sees the
// endpoint and ciphertext only; the payload names the session and the kind of wait, never what
// the agent asks.

// The kinds of wait a push tells of.
const (
	KindQuestion   = "question"   // a stop's question waits for a person
	KindPermission = "permission" // the agent asks permission to run a tool
	KindIdle       = "idle"       // the agent waits for its next prompt
	KindDone       = "done"       // the session ended, or its goal did (PushPayload.Goal)
)

// PushPayload is what a push carries, encrypted: the session (hooksup's id, the API's "id", and
// its host, "" for this machine) and the kind of wait; for a goal's end (KindDone), how it ended
// (Goal: reached, budget, no_progress or paused). No command, reason, message or goal's text.
type PushPayload struct {
	ID   string `json:"id"`
	Host string `json:"host,omitempty"`
	Kind string `json:"kind"`
	Goal string `json:"goal,omitempty"`
}

// Pushes' bounds: a push service that is slow or unreachable holds a sender no longer than
// pushTimeout, and at most pushSenders are sent at once; the others wait their turn in their own
// goroutine, never the server's.
const (
	pushTimeout = 10 * time.Second
	pushSenders = 4
	// pushTTL is how long a push service keeps a push for a device that is offline.
	pushTTL = 3600
	// pushSubscriber is the VAPID JWT's sub: how a push service's operator reaches whoever runs
	// the software that sends.
	pushSubscriber = "https://github.com/hooksup/hooksup"
	// vapidLifetime is the VAPID JWT's lifetime (RFC 8292: at most 24 hours).
	vapidLifetime = 12 * time.Hour
	// typingQuiet is how long after the person's last key at a session's terminal a wait there
	// is told to no device: they are at it.
	typingQuiet = 30 * time.Second
)

// pusher sends the pushes.
type pusher struct {
	client *http.Client
	slots  chan struct{}
	wg     sync.WaitGroup

	mu     sync.Mutex
	pushed map[string]struct{} // host, session and question already pushed, bounded
	order  []string
}

func newPusher() *pusher {
	return &pusher{
		// The default transport's TLS: the system's roots verify every push service.
		client: &http.Client{
			Timeout: pushTimeout,
			// A push service answers where it was asked; a redirect is not followed.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		slots:  make(chan struct{}, pushSenders),
		pushed: map[string]struct{}{},
	}
}

// once reports whether k is pushed for the first time (a session's stream replays a question
// still pending when it is followed again).
func (p *pusher) once(k string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.pushed[k]; ok {
		return false
	}
	if len(p.order) >= 4096 {
		delete(p.pushed, p.order[0])
		p.order = p.order[1:]
	}
	p.pushed[k] = struct{}{}
	p.order = append(p.order, k)
	return true
}

// pushKey is GET /api/push/key: the VAPID public key a page subscribes with
// (PushManager.subscribe's applicationServerKey).
func (s *Server) pushKey(w http.ResponseWriter, r *http.Request) {
	if s.store == nil {
		writeError(w, http.StatusNotFound, "no_push", "this server keeps no push subscriptions")
		return
	}
	k, err := s.store.vapid()
	if err != nil {
		s.logger.Error("web: the VAPID key", "err", err)
		writeError(w, http.StatusInternalServerError, "push", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"key": k.Public})
}

// subscribe is POST /api/push with PushSubscription.toJSON(): 201, the subscription kept for the
// device asking (or the API token).
func (s *Server) subscribe(w http.ResponseWriter, r *http.Request) {
	if s.store == nil {
		writeError(w, http.StatusNotFound, "no_push", "this server keeps no push subscriptions")
		return
	}
	var body struct {
		Subscription
		ExpirationTime *float64 `json:"expirationTime"`
	}
	const want = `PushSubscription.toJSON(): {"endpoint": "https://…", "keys": {"p256dh": "…", "auth": "…"}}`
	if !decodeSmall(w, r, &body, want) {
		return
	}
	sub := Subscription{Endpoint: body.Endpoint, Keys: body.Keys, Created: time.Now()}
	if err := checkSubscription(sub); err != nil {
		writeError(w, http.StatusBadRequest, "bad_subscription", err.Error())
		return
	}
	given, _ := r.Context().Value(credentialKey{}).(string)
	who, _ := s.logins.device(given) // none for the API token
	sub.Device = who.device
	if err := s.store.Subscribe(sub); err != nil {
		s.logger.Error("web: keep a push subscription", "err", err)
		writeError(w, http.StatusInternalServerError, "push", err.Error())
		return
	}
	s.logger.Info("web: a push subscription", "device", sub.Device, "push_service", endpointHost(sub.Endpoint))
	writeJSON(w, http.StatusCreated, actionResult{Message: "this device is notified when a question waits"})
}

// unsubscribe is DELETE /api/push {"endpoint": "…"}: that subscription is dropped.
func (s *Server) unsubscribe(w http.ResponseWriter, r *http.Request) {
	if s.store == nil {
		writeError(w, http.StatusNotFound, "no_push", "this server keeps no push subscriptions")
		return
	}
	var body struct {
		Endpoint string `json:"endpoint"`
	}
	if !decodeSmall(w, r, &body, `{"endpoint": "…"}`) {
		return
	}
	n, err := s.store.Unsubscribe(func(sub Subscription) bool { return sub.Endpoint == body.Endpoint })
	if err != nil {
		writeError(w, http.StatusInternalServerError, "push", err.Error())
		return
	}
	if n == 0 {
		writeError(w, http.StatusNotFound, "no_subscription", "no push subscription has this endpoint")
		return
	}
	writeJSON(w, http.StatusOK, actionResult{Message: "this device is no longer notified"})
}

// endpointHost is what the log says of an endpoint: its host (the rest is the subscription's
// capability).
func endpointHost(endpoint string) string {
	if u, err := url.Parse(endpoint); err == nil {
		return u.Host
	}
	return ""
}

// questionAsked pushes a question that starts waiting, once per question.
func (s *Server) questionAsked(host, id string, ev hub.Event) {
	e, err := hub.DecodeEvent(ev)
	if err != nil {
		return
	}
	q, ok := e.(session.QuestionAsked)
	if !ok {
		return
	}
	if !s.push.once(fmt.Sprintf("%s\x00%s\x00%d", host, id, q.Question.ID)) {
		s.logger.Debug("web: no push: the question was pushed before", "host", host, "session", id, "question", q.Question.ID)
		return
	}
	kind := KindQuestion
	if q.Question.Event == hooks.PermissionRequest {
		kind = KindPermission
	}
	s.Waiting(host, id, kind)
}

// Waiting tells every push subscription that the session id of host ("" for this machine) waits
// for the person (kind: KindQuestion, KindPermission, …), unless the person is typing at its
// terminal. It returns at once; the pushes are sent in the background.
func (s *Server) Waiting(host, id, kind string) {
	if s.store == nil {
		return
	}
	s.push.wg.Go(func() { s.pushAll(host, id, PushPayload{ID: id, Host: host, Kind: kind}) })
}

// pushAll sends p to every push subscription, unless the person is typing at the session's
// terminal.
func (s *Server) pushAll(host, id string, p PushPayload) {
	if s.store == nil {
		return
	}
	if s.typing(host, id) {
		s.logger.Debug("web: no push: the person is typing at the session", "host", host, "session", id, "kind", p.Kind)
		return
	}
	subs, err := s.store.Subscriptions()
	if err != nil || len(subs) == 0 {
		if err != nil {
			s.logger.Error("web: the push subscriptions", "err", err)
		}
		return
	}
	keys, err := s.store.vapid()
	if err != nil {
		s.logger.Error("web: the VAPID key", "err", err)
		return
	}
	payload, _ := json.Marshal(p)
	topic := sha256.Sum256([]byte(host + "\x00" + id))
	for _, sub := range subs {
		s.push.wg.Go(func() { s.send(sub, keys, payload, base64.RawURLEncoding.EncodeToString(topic[:16])) })
	}
}

// typing reports whether the person pressed a key at the session's terminal in the last
// typingQuiet.
func (s *Server) typing(host, id string) bool {
	live, err := s.hub.ListHost(host)
	if err != nil {
		return false
	}
	for _, l := range live {
		if l.Entry.ID == id || l.Snapshot.ID == id {
			k := l.Snapshot.LastKey
			return !k.IsZero() && time.Since(k) < typingQuiet
		}
	}
	return false
}

// send sends one push; a subscription its push service says is gone (404, 410) is dropped.
func (s *Server) send(sub Subscription, keys vapidKeys, payload []byte, topic string) {
	s.push.slots <- struct{}{}
	defer func() { <-s.push.slots }()
	ctx, cancel := context.WithTimeout(context.Background(), pushTimeout)
	defer cancel()
	// webpush-go appends the padding to the message it is given: each send has its own.
	payload = bytes.Clone(payload)
	ws := &webpush.Subscription{Endpoint: sub.Endpoint, Keys: webpush.Keys{P256dh: sub.Keys.P256dh, Auth: sub.Keys.Auth}}
	resp, err := webpush.SendNotificationWithContext(ctx, payload, ws, &webpush.Options{
		HTTPClient: s.push.client, Subscriber: pushSubscriber, TTL: pushTTL, Urgency: webpush.UrgencyHigh, Topic: topic,
		VAPIDPublicKey: keys.Public, VAPIDPrivateKey: keys.Private, VapidExpiration: time.Now().Add(vapidLifetime),
	})
	where := endpointHost(sub.Endpoint)
	if err != nil {
		s.logger.Warn("web: a push failed", "push_service", where, "device", sub.Device, "err", err)
		return
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		if _, err := s.store.Unsubscribe(func(o Subscription) bool { return o.Endpoint == sub.Endpoint }); err != nil {
			s.logger.Error("web: drop a push subscription", "err", err)
		}
		s.logger.Info("web: a push subscription is gone: dropped", "push_service", where, "device", sub.Device, "status", resp.StatusCode)
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		s.logger.Warn("web: a push was refused", "push_service", where, "device", sub.Device, "status", resp.StatusCode,
			"answer", string(msg))
	default:
		s.logger.Debug("web: pushed", "push_service", where, "device", sub.Device)
	}
}
