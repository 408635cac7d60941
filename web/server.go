// Package web serves `hooksup web`: a page and a JSON API over every session the hub sees, for
// a browser or a phone (docs/web.md). It talks to the sessions only through hub.Sessions
// (cmd/hooksup hands it a hub.MultiHost), and everything it serves is embedded.
package web

import (
	"bytes"
	"context"
	"crypto/sha512"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/hooksup/hooksup/hooks"
	"github.com/hooksup/hooksup/hub"
	"github.com/hooksup/hooksup/internal/present"
)

// By is where the server's answers say they were given: their verdicts' source is
// "manual (hooksup web)".
const By = "hooksup web"

//go:embed static
var static embed.FS

// Options configure a Server.
type Options struct {
	// Sessions are every host's sessions, answered as By.
	Sessions hub.Sessions
	// Token is the API token (scripts'); Store the paired devices and pairing codes (nil: none).
	Token string
	Store *Store
	// Listen is the address the server listens on ("127.0.0.1:7862"): a device paired with it
	// logs in to a server listening there only.
	Listen string
	// AllowHosts are the host names, besides loopback's, that requests may name (the listen
	// address's, --public-url's, --allow-host's); any other is 421.
	AllowHosts []string
	// LocalAddrs (listening on every interface) also answers requests that name an address of
	// this machine's interfaces, those it has when the request comes.
	LocalAddrs bool
	Logger     *slog.Logger
	// ListEvery is how often the sessions are listed to notice those that start and end (2 s
	// when zero).
	ListEvery time.Duration
}

// Server is the web server over every host's sessions.
type Server struct {
	hub       hub.Sessions
	token     string
	store     *Store
	hosts     map[string]struct{}
	ownAddrs  *localAddrs // the machine's addresses, when it listens on every interface
	logger    *slog.Logger
	listEvery time.Duration
	fails     *failures
	listen    string
	logins    *logins
	events    *broker
	push      *pusher
	streams   streamCount
	mux       *http.ServeMux
}

// New returns a server; Run follows the sessions' events, Handler answers requests.
func New(o Options) *Server {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.ListEvery == 0 {
		o.ListEvery = 2 * time.Second
	}
	s := &Server{hub: o.Sessions, token: o.Token, store: o.Store, hosts: map[string]struct{}{}, logger: o.Logger,
		listEvery: o.ListEvery, fails: newFailures(o.Logger), events: newBroker(), listen: o.Listen, logins: newLogins(), push: newPusher()}
	if o.LocalAddrs {
		s.ownAddrs = newLocalAddrs()
	}
	for _, h := range o.AllowHosts {
		if h = hostName(h); h != "" {
			s.hosts[h] = struct{}{}
		}
	}
	mux := http.NewServeMux()
	page, _ := fs.Sub(static, "static")
	files := http.FileServerFS(page)
	index := indexPage(page)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		// Whatever another holder of this address left in the browser's cache (a page, a
		// script kept for a year) is cleared before the page is read.
		w.Header().Set("Clear-Site-Data", `"cache"`)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		challenge := ""
		if navigation(r) {
			c, err := s.logins.challenge(time.Now())
			if err != nil {
				writeError(w, http.StatusInternalServerError, "random", err.Error())
				return
			}
			challenge = c
		}
		w.Write(bytes.Replace(index, []byte(challengeMeta+`""`), []byte(challengeMeta+`"`+challenge+`"`), 1))
	})
	names, _ := fs.ReadDir(page, ".")
	for _, n := range names {
		switch n.Name() {
		case "index.html":
		case "manifest.webmanifest": // a type Go's table does not know
			mux.HandleFunc("GET /"+n.Name(), func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/manifest+json")
				files.ServeHTTP(w, r)
			})
		default:
			mux.Handle("GET /"+n.Name(), files)
		}
	}
	mux.HandleFunc("POST /api/pair", s.pair)
	mux.HandleFunc("POST /api/login", s.login)
	mux.HandleFunc("GET /api/sessions", s.api(s.sessions))
	mux.HandleFunc("POST /api/sessions/{id}/{action}", s.api(s.act))
	mux.HandleFunc("POST /api/sessions/{id}/goal/resume", s.api(s.resumeGoal))
	mux.HandleFunc("GET /api/events", s.api(s.stream))
	mux.HandleFunc("GET /api/devices", s.api(s.devices))
	mux.HandleFunc("GET /api/push/key", s.api(s.pushKey))
	mux.HandleFunc("POST /api/push", s.api(s.subscribe))
	mux.HandleFunc("DELETE /api/push", s.api(s.unsubscribe))
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such API: "+r.Method+" "+r.URL.Path)
	})
	s.mux = mux
	return s
}

// Handler answers every request, with the security headers; a request naming a host the
// server does not answer to is 421; a browser's fetch of a service worker's script is given the
// worker that removes itself, whatever its path but one: hooksup's push worker's, PushWorkerPath,
// exactly (docs/security.md says what a holder of the port can and cannot do with it).
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secure(w.Header())
		if r.Header.Get("Service-Worker") == "script" {
			if r.Method == http.MethodGet && r.URL.Path == PushWorkerPath && r.URL.RawQuery == "" && s.hostAllowed(r) {
				w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
				// A worker another holder of the port registered at this path for a wider scope
				// is checked for an update against this response: without the wider scope
				// allowed here, the browser refuses the update and keeps theirs. Given this
				// script, it runs hooksup's, which removes a registration not for /push/.
				w.Header().Set("Service-Worker-Allowed", "/")
				w.Write(pushWorker)
				return
			}
			removeWorker(w)
			return
		}
		if !s.hostAllowed(r) {
			h := hostName(r.Host)
			writeError(w, http.StatusMisdirectedRequest, "host", fmt.Sprintf(
				"hooksup web does not answer to the host %q: if that is how you reach it, start hooksup web with --%s %s (or --public-url)",
				h, AllowHostFlag, h))
			return
		}
		s.mux.ServeHTTP(w, r)
	})
}

// challengeMeta is where the page's index.html carries the challenge its login signs.
const challengeMeta = `<meta name="hooksup-challenge" content=`

// navigation reports whether r is a browser's load of a page in its window (Sec-Fetch-Mode
// navigate, Sec-Fetch-Dest document), which no script can make: only such a load is given a
// challenge to log in with, so a script another holder of this address left running (a page
// from the browser's cache) cannot fetch one. A client that sends neither header (an older
// browser) is taken at its word.
func navigation(r *http.Request) bool {
	mode, dest := r.Header.Get("Sec-Fetch-Mode"), r.Header.Get("Sec-Fetch-Dest")
	return (mode == "" || mode == "navigate") && (dest == "" || dest == "document")
}

// indexPage is the page's index.html with the integrity of its script and style sheet
// (Subresource Integrity): a script or style that another holder of this address left in the
// browser's cache under those names is refused, not run.
func indexPage(page fs.FS) []byte {
	b, _ := fs.ReadFile(page, "index.html")
	for _, name := range []string{"app.js", "app.css"} {
		f, _ := fs.ReadFile(page, name)
		sum := sha512.Sum384(f)
		ref := `="/` + name + `"`
		b = bytes.Replace(b, []byte(ref), []byte(ref+` integrity="sha384-`+base64.StdEncoding.EncodeToString(sum[:])+`"`), 1)
	}
	return b
}

// PushWorkerPath is where hooksup's push worker is registered from, with the scope /push/ (its
// folder, which holds no page): the one path whose worker script is not the worker remover.
const PushWorkerPath = "/push/worker.js"

// pushWorker is the push worker's script, served as a worker's script only (never a page's).
//
//go:embed pushworker.js
var pushWorker []byte

// workerRemover is what hooksup web answers for any service worker's script but its push
// worker's. A worker registered on this address at any other path was another program's, one that held
// the port while hooksup web did not (a worker outlives its server and answers the page's
// requests itself). When the browser checks that worker for an update, it is given this one,
// which unregisters itself and reloads the pages it held, from hooksup web.
const workerRemover = `// hooksup web registers no service worker here: this one removes the worker another program
// left on this address, and reloads the pages it held.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (e) => e.waitUntil((async () => {
  await self.clients.claim();
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  await Promise.all(pages.map((c) => c.navigate(c.url).catch(() => {})));
  await self.registration.unregister();
})()));
`

// removeWorker answers a service worker script's fetch with workerRemover. A worker hooksup
// did not register means another program had this origin: what it stored is cleared with it,
// the device key too (a key it may have planted; the browser is paired again).
func removeWorker(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Clear-Site-Data", `"cache", "storage"`)
	io.WriteString(w, workerRemover)
}

// apiError is every error's body.
type apiError struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	if status == http.StatusUnauthorized {
		// A page that asks without a credential it should have may be one that another holder
		// of this address left in the browser's cache: the cache is cleared, so that the next
		// load of the page is hooksup's.
		w.Header().Set("Clear-Site-Data", `"cache"`)
	}
	writeJSON(w, status, apiError{Error: msg, Code: code})
}

// list is the live sessions.
func (s *Server) list() ([]hub.Live, error) {
	live, err := s.hub.List()
	if err != nil {
		return nil, fmt.Errorf("list the sessions: %w", err)
	}
	return live, nil
}

func (s *Server) sessions(w http.ResponseWriter, r *http.Request) {
	live, err := s.list()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "hub", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, Sessions(live))
}

// maxBody bounds an action's body: a reason, not a file.
const maxBody = 64 << 10

// actionBody is an action's optional body. Question is the id of the question the person saw
// (the page always sends it): an answer to one that is no longer pending is refused (409), never
// given to whatever is pending by then. A script that leaves it out answers the oldest.
type actionBody struct {
	Reason   string `json:"reason"`
	Question *int   `json:"question"`
}

// staleError is the 409 of an answer to a question that is no longer pending: Current is the
// session's oldest pending question now, if any, for the page to show instead.
type staleError struct {
	apiError
	Current *Question `json:"current"`
}

// actionResult is an action's answer.
type actionResult struct {
	Message string `json:"message"`
}

func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	id, action, host := r.PathValue("id"), r.PathValue("action"), r.URL.Query().Get("host")
	decision, _, isAnswer := present.Answer(action)
	if !isAnswer && action != "interrupt" && action != "always" {
		writeError(w, http.StatusNotFound, "unknown_action",
			fmt.Sprintf("unknown action %q: approve, deny, halt, always or interrupt", action))
		return
	}
	var body actionBody
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil && !errors.Is(err, io.EOF) {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			writeError(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("the body is over %d bytes", maxBody))
			return
		}
		writeError(w, http.StatusBadRequest, "bad_request", "the body is not {\"reason\": \"…\"}: "+err.Error())
		return
	}
	if dec.More() {
		writeError(w, http.StatusBadRequest, "bad_request", "the body is not one JSON object")
		return
	}
	if action == "interrupt" && body.Reason != "" {
		writeError(w, http.StatusBadRequest, "bad_request", "interrupt takes no reason")
		return
	}
	found, name, ok := s.find(w, id, host)
	if !ok {
		return
	}
	target, snap := &found, found.Snapshot
	if action == "interrupt" {
		if err := s.hub.Interrupt(*target); err != nil {
			writeError(w, http.StatusBadGateway, "session", fmt.Sprintf("%s: %v", name, err))
			return
		}
		writeJSON(w, http.StatusOK, actionResult{Message: "interrupt: sent Escape to " + name})
		return
	}
	current := SessionOf(*target).Pending
	stale := func(msg string) {
		e := staleError{apiError: apiError{Error: msg, Code: "stale"}}
		if len(current) > 0 {
			e.Current = &current[0]
		}
		writeJSON(w, http.StatusConflict, e)
	}
	if len(snap.Pending) == 0 {
		if body.Question != nil {
			stale(fmt.Sprintf("question %d in %s was already answered; it has no pending question now", *body.Question, name))
			return
		}
		writeError(w, http.StatusConflict, "no_question", name+" has no pending question")
		return
	}
	q := snap.Pending[0]
	if body.Question != nil {
		i := slices.IndexFunc(snap.Pending, func(p hub.Question) bool { return p.ID == *body.Question })
		if i < 0 {
			stale(fmt.Sprintf("question %d in %s is no longer pending: question %d is (%s)", *body.Question, name, q.ID, q.Event))
			return
		}
		q = snap.Pending[i]
	}
	if p := q.Permission; p != nil {
		// The agent's permission dialog: approve allows it once, always from now on by the rule
		// the question shows, deny refuses it (the reason is what the agent is told).
		verb, always := action, action == "always"
		if always {
			verb = "approve"
		}
		d, ok := present.PermissionDecision(verb, always)
		switch {
		case !ok:
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("%s waits on a permission: approve, always or deny answer it, not %s", name, action))
			return
		case d == "always" && p.Always == "":
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("%s offers no rule to allow %s always: approve allows it once", name, p.Tool))
			return
		case d != "deny" && body.Reason != "":
			writeError(w, http.StatusBadRequest, "bad_request", "a permission allowed takes no reason: the agent is told nothing when its tool runs")
			return
		case body.Reason != "" && !p.DenyReason:
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("%s's dialog in %s takes no reason: deny refuses %s without one (Escape, which cancels the call)",
				present.AgentName(snap.Agent), name, p.Tool))
			return
		}
		err := s.resolvePermission(r, *target, q.ID, d, body.Reason)
		if errors.Is(err, hub.ErrAnswered) {
			current = current[min(1, len(current)):]
			stale("the permission in " + name + " was already answered")
			return
		}
		if err != nil {
			writeError(w, http.StatusBadGateway, "session", fmt.Sprintf("%s: %v", name, err))
			return
		}
		writeJSON(w, http.StatusOK, actionResult{Message: action + ": " + present.PermissionAnswered(d, p.Tool, p.Command, p.Always, name, body.Reason)})
		return
	}
	switch {
	case action == "always":
		writeError(w, http.StatusBadRequest, "bad_request", "always answers a permission, and "+name+" waits on a stop")
		return
	case action == "deny" && body.Reason != "":
		writeError(w, http.StatusBadRequest, "bad_request",
			"deny takes no reason: the agent is let stop (approve with a reason replaces the continuation's reason, halt's says why the turn ends)")
		return
	}
	err := s.hub.Resolve(*target, q.ID, decision, body.Reason)
	if errors.Is(err, hub.ErrAnswered) {
		current = current[min(1, len(current)):] // the one answered is gone
		stale("the question in " + name + " was already answered")
		return
	}
	if err != nil {
		writeError(w, http.StatusBadGateway, "session", fmt.Sprintf("%s: %v", name, err))
		return
	}
	msg := present.Answered(action, q.Event, q.AgentID, name, body.Reason, q.Reason)
	writeJSON(w, http.StatusOK, actionResult{Message: msg})
}

// find is the live session id of host ("" for this machine) and its name for people, or false
// with the error written: no such session (404), or one that cannot be answered (502).
func (s *Server) find(w http.ResponseWriter, id, host string) (hub.Live, string, bool) {
	live, err := s.hub.ListHost(host)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "hub", "list the sessions: "+err.Error())
		return hub.Live{}, "", false
	}
	var target *hub.Live
	for i, l := range live {
		if id != "" && l.Host == host && (l.Snapshot.SessionID == id || l.Snapshot.ID == id) {
			target = &live[i]
			break
		}
	}
	if target == nil {
		where := ""
		if host != "" {
			where = " on " + host
		}
		writeError(w, http.StatusNotFound, "no_session", fmt.Sprintf("no session %q%s (it may have ended)", id, where))
		return hub.Live{}, "", false
	}
	snap := target.Snapshot
	name := fmt.Sprintf("session %s (%s)", snap.ShortID(), present.HomeTilde(snap.Cwd))
	if host != "" {
		name = fmt.Sprintf("session %s:%s (%s)", host, snap.ShortID(), snap.Cwd)
	}
	if target.Err != nil {
		writeError(w, http.StatusBadGateway, "version", fmt.Sprintf("%s: %v", name, target.Err))
		return hub.Live{}, "", false
	}
	return *target, name, true
}

// resolvePermission answers a permission question; the verdict log names the paired browser
// that answered ("manual (hooksup web device 3f9c2a1e)"), or hooksup web for the API token.
func (s *Server) resolvePermission(r *http.Request, l hub.Live, id int, d hooks.Decision, reason string) error {
	as, ok := s.hub.(interface {
		ResolveAs(l hub.Live, id int, d hooks.Decision, reason, by string) error
	})
	given, _ := r.Context().Value(credentialKey{}).(string)
	who, _ := s.logins.device(given) // none for the API token
	if !ok || who.device == "" {
		return s.hub.Resolve(l, id, d, reason)
	}
	return as.ResolveAs(l, id, d, reason, By+" device "+who.device)
}

// sessionKey tells sessions apart across hosts: one machine reached under two names lists
// the same ids twice.
func sessionKey(host, id string) string { return host + "\x00" + id }

// Run follows the sessions until ctx ends: it lists them every ListEvery, streams each one's
// events to the page's event streams (another host's through its connection), and says when
// one starts or ends.
func (s *Server) Run(ctx context.Context) {
	var mu sync.Mutex
	following := map[string]bool{}
	tick := time.NewTicker(s.listEvery)
	defer tick.Stop()
	for {
		live, err := s.hub.List()
		if err != nil {
			s.logger.Warn("list the sessions", "err", err)
		}
		seen := map[string]bool{}
		for _, l := range live {
			if l.Err != nil {
				continue
			}
			id, host := l.Entry.ID, l.Host
			key := sessionKey(host, id)
			seen[key] = true
			mu.Lock()
			started := !following[key]
			following[key] = true
			mu.Unlock()
			if !started {
				continue
			}
			s.events.publish(key, pageEvent{Type: EventSessionStarted, Host: host, Session: id, Time: time.Now()})
			go func() {
				err := s.hub.Events(l, func(ev hub.Event) bool {
					s.events.publish(key, pageEventOf(host, id, ev))
					switch ev.Type {
					case hub.EventQuestionAsked:
						s.questionAsked(host, id, ev)
					case hub.EventVerdictDecided:
						s.goalEnded(host, id, ev)
					}
					return ctx.Err() == nil
				})
				if err != nil {
					s.logger.Debug("event stream ended", "host", host, "session", id, "err", err)
				}
				mu.Lock()
				delete(following, key)
				mu.Unlock()
				s.events.publish(key, pageEvent{Type: EventSessionEnded, Host: host, Session: id, Time: time.Now()})
			}()
		}
		// A session's stream owns its place in following until it ends: a session missing from
		// one list (its snapshot was late, its host is down) is still followed, not twice.
		s.events.forgetExcept(seen)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
