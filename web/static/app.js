// hooksup web's page. Everything that comes from a session (project paths, reasons, check
// output, messages) is put in the page as text, never as markup: textContent only.
"use strict";

// This browser's device: a key pair made at pairing with WebCrypto, its private half not
// extractable, kept in IndexedDB (the page can sign with it; no script can read it out), and
// the id the server gave it. To use the API, the page signs a challenge of the server's with its
// origin and gets a login token, which lives in this page's memory only and dies with the
// server process: nothing the browser keeps or sends is worth anything to whoever holds the
// port later. No cookie carries a credential; nothing is in localStorage.
const OLD_TOKEN = "hooksup-device"; // the bearer token pages kept before device keys: removed
const PAIR_HELP = "This browser is not paired with hooksup web. On the machine it runs on, run hooksup web pair and open the URL it prints here (or scan its QR code).";
const INSECURE = "This page is not a secure context (plain HTTP beyond loopback), so the browser gives it no WebCrypto and it cannot keep a device key. Reach hooksup web over HTTPS (--tls-cert and --tls-key, or tailscale serve) or through ssh -L on loopback.";
const state = {
  sessions: [],
  verdicts: new Map(), // session key -> latest verdicts, oldest first
  selected: null, // session key
  // session key -> the reason being edited: { question: the id of the question it answers,
  // text, stale: that question was answered elsewhere (the text is kept, to copy), start, end,
  // dir, scroll: its caret and scroll, kept across renders }
  editing: new Map(),
  busy: new Set(), // session keys with an action on the way
  reasonScroll: new Map(), // session key/question id -> how far from its end a reason was scrolled
  expanded: new Set(), // session keys whose last message is shown whole
  always: new Map(), // session key -> the permission question whose "always" rule is shown, to confirm
  resume: new Map(), // session key -> the larger budget being typed for its goal: { max_turns, max_time, max_tokens }
  loggedIn: false,
  push: false, // this device is subscribed to pushes (notify this device)
};
const $ = (id) => document.getElementById(id);

// A session's key tells it apart across hosts: its host ("" for this machine) and its id.
const key = (s) => (s.host || "") + " " + s.id;
const eventKey = (ev) => (ev.host || "") + " " + ev.session;

// shown is text as hooksup shows it on a terminal (internal/termsafe): its line breaks and tabs
// kept, every other control, and the bidi controls that would reorder what follows them, shown
// as visible text, never acted on.
const shownNames = { "\x1b": "\\e", "\r": "\\r", "\x07": "\\a", "\b": "\\b", "\f": "\\f", "\v": "\\v" };
function shown(text) {
  return String(text).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const n = c.charCodeAt(0);
    if (shownNames[c]) return shownNames[c];
    if (n < 0x80) return "\\x" + n.toString(16).padStart(2, "0");
    return "<U+" + n.toString(16).toUpperCase().padStart(4, "0") + ">";
  });
}

// showAll makes every text under root shown (text appended as strings as well as el's).
function showAll(root) {
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const t = shown(n.data);
    if (t !== n.data) n.data = t;
  }
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = String(text);
  return e;
}

function notice(text) {
  const n = $("notice");
  n.textContent = shown(text || "");
  n.hidden = !text;
}

function connection(up, text) {
  const c = $("conn");
  c.textContent = text;
  c.classList.toggle("down", !up);
}

// The device's record in IndexedDB: {id, name, key (the private CryptoKey)}.
function db() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("hooksup", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("device");
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

async function deviceRecord(put) {
  const d = await db();
  try {
    return await new Promise((resolve, reject) => {
      const tx = d.transaction("device", put === undefined ? "readonly" : "readwrite");
      const req = put === undefined ? tx.objectStore("device").get("device") : tx.objectStore("device").put(put, "device");
      tx.oncomplete = () => resolve(put === undefined ? req.result : put);
      tx.onerror = () => reject(tx.error);
    });
  } finally {
    d.close();
  }
}

// The challenge this load of the page was served with (a meta element), to sign once; a page
// that needs another (its server was restarted) is loaded again, once.
const challengeMeta = document.querySelector('meta[name="hooksup-challenge"]');
const session = { token: null, device: null, login: null, challenge: challengeMeta ? challengeMeta.content : "" };
if (challengeMeta) challengeMeta.content = "";
const RELOADED = "hooksup-reloaded";
let reloadedForLogin = false;
try {
  reloadedForLogin = Date.now() - Number(sessionStorage.getItem(RELOADED) || 0) < 30000;
  sessionStorage.removeItem(RELOADED);
} catch (e) { /* storage refused */ }

function b64url(buf) {
  let s = "";
  for (const b of new Uint8Array(buf)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// login signs the challenge this page was served with (or its pairing's) with this device's key
// for a login token, once at a time: every request that needs one waits for the same login. A
// page whose challenge is spent (its server was restarted since) is loaded again for a new one.
// It is null when this browser is not paired (here, or any longer).
function login() {
  if (!session.login) session.login = (async () => {
    try {
      if (!window.crypto || !crypto.subtle || !window.indexedDB) return null;
      const dev = await deviceRecord();
      if (!dev || !dev.key) return null;
      const challenge = session.challenge;
      session.challenge = "";
      if (!challenge) {
        if (reloadedForLogin) return null;
        try { sessionStorage.setItem(RELOADED, String(Date.now())); } catch (e) { /* then it may load twice */ }
        location.reload();
        return new Promise(() => {}); // the page is going
      }
      const post = (path, body) => fetch(path, { method: "POST", credentials: "omit", cache: "no-store",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const msg = new TextEncoder().encode("hooksup web login\n" + location.origin + "\n" + dev.id + "\n" + challenge);
      const sig = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, dev.key, msg);
      const r = await post("/api/login", { device: dev.id, challenge, signature: b64url(sig) });
      if (r.status === 401) {
        // Refused: this browser is not paired here, or this load of the page was not the
        // server's own (a copy another holder of the address left in the browser's cache,
        // which the refusal cleared). Loaded again, once, it is the server's.
        if (reloadedForLogin) return null;
        try { sessionStorage.setItem(RELOADED, String(Date.now())); } catch (e) { /* then it may load twice */ }
        location.reload();
        return new Promise(() => {});
      }
      if (!r.ok) throw new Error("login: " + (await errorText(r)));
      const j = await r.json();
      session.token = j.token;
      session.device = j.device;
      showDevice();
      return j.token;
    } finally {
      session.login = null;
    }
  })();
  return session.login;
}

function showDevice() {
  const d = $("device");
  if (!d) return;
  d.textContent = session.device ? "this browser: " + session.device.name + " · " + session.device.id : "";
  d.hidden = !session.device;
}

// api is fetch with this page's login token, logging in first when it has none; a 401 (the
// server was restarted: its login tokens died with it) logs in again, once. A browser that
// cannot log in is not (or no longer) paired: the page says how to pair.
async function api(path, init) {
  init = Object.assign({ credentials: "omit", cache: "no-store" }, init || {});
  const headers = init.headers || {};
  for (let attempt = 0; ; attempt++) {
    const tok = session.token || (await login());
    if (!tok) { signedOut(); throw new Error("not paired"); }
    init.headers = Object.assign({}, headers, { Authorization: "Bearer " + tok });
    const r = await fetch(path, init);
    if (r.status !== 401) return r;
    if (session.token === tok) session.token = null;
    if (attempt > 0) { signedOut(); throw new Error("not paired"); }
  }
}

function signedOut() {
  session.token = null;
  session.device = null;
  showDevice();
  state.loggedIn = false;
  showNotify();
  state.sessions = [];
  if (stream) { stream.abort(); stream = null; }
  connection(false, "not paired");
  render();
  notice(window.crypto && crypto.subtle ? PAIR_HELP : INSECURE);
}

// pair trades the URL's one-time code for this browser's pairing: a new device key, whose
// public half the server keeps. The code leaves the address bar and the history before
// anything else. A browser paired before is paired again, its old key replaced.
async function pair() {
  const m = /(?:^|[#&])pair=([0-9a-fA-F]+)/.exec(location.hash);
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  if (!m) return false;
  if (!window.crypto || !crypto.subtle || !window.indexedDB) { notice(INSECURE); return false; }
  const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  const pub = await crypto.subtle.exportKey("raw", keys.publicKey);
  const before = await deviceRecord().catch(() => null);
  const r = await fetch("/api/pair", { method: "POST", credentials: "omit", cache: "no-store",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code: m[1], key: b64url(pub), replaces: (before && before.id) || "" }) });
  if (r.ok) {
    const j = await r.json();
    await deviceRecord({ id: j.id, name: j.name, key: keys.privateKey });
    session.token = null;
    session.challenge = j.challenge;
    notice("");
    return true;
  }
  if (session.token || (await login().catch(() => null))) {
    notice("This pairing link was used already or has expired; this browser stays paired as it was.");
    return false;
  }
  notice(r.status === 401 ? "This pairing link was used already or has expired. " + PAIR_HELP : "hooksup web: " + (await errorText(r)));
  return false;
}

// The page registers one service worker, hooksup's push worker, from PUSH_WORKER for the scope
// /push/, which holds no page: it never controls the page. Any other worker on this address was
// left by whatever held the port while hooksup web did not: it is removed, and the page loaded
// again without it. The push worker is checked for an update at once: a script of that name
// another program left is replaced by hooksup's, which the server gives there.
const PUSH_WORKER = "/push/worker.js";
const PUSH_SCOPE = "/push/";
function isPushWorker(r) {
  const w = r.active || r.waiting || r.installing;
  return r.scope === location.origin + PUSH_SCOPE && !!w && w.scriptURL === location.origin + PUSH_WORKER;
}

async function removeWorkers() {
  if (!("serviceWorker" in navigator)) return false;
  const regs = await navigator.serviceWorker.getRegistrations();
  await Promise.all(regs.map((r) => (isPushWorker(r) ? r.update().catch(() => {}) : r.unregister())));
  return !!navigator.serviceWorker.controller;
}

// The card a notification opened the page at: "#session=ID&host=HOST" (the fragment is cleared
// before anything else, with pair's).
function cardOfHash() {
  const m = /(?:^|[#&])session=([^&]*)(?:&host=([^&]*))?/.exec(location.hash);
  try { return m ? decodeURIComponent(m[2] || "") + " " + decodeURIComponent(m[1]) : null; } catch (e) { return null; }
}
let wantedCard = cardOfHash();

let refreshing = null;
function refreshSoon() {
  if (refreshing) return;
  refreshing = setTimeout(() => { refreshing = null; refresh(); }, 50);
}

async function refresh() {
  if (!session.token && !state.loggedIn) return;
  let r;
  try {
    r = await api("/api/sessions");
  } catch (e) {
    if (e.message !== "not paired") connection(false, "disconnected — reconnecting…");
    return;
  }
  if (!r.ok) {
    notice("hooksup web: " + (await errorText(r)));
    return;
  }
  state.loggedIn = true;
  // Sessions waiting on the person first, the longest waiting at the top; then the others as
  // the hub lists them.
  const waitedSince = (s) => (s.pending && s.pending.length ? Date.parse(s.pending[0].asked) || 0 : Infinity);
  state.sessions = (await r.json()).map((s, i) => [s, i])
    .sort((a, b) => waitedSince(a[0]) - waitedSince(b[0]) || a[1] - b[1]).map((p) => p[0]);
  // A session's verdicts stay as long as its card: a stream that ended (the agent exited, the
  // session still listed) takes none of them away.
  for (const k of [...state.verdicts.keys()]) {
    if (!state.sessions.some((s) => key(s) === k)) state.verdicts.delete(k);
  }
  if (!state.sessions.some((s) => key(s) === state.selected)) {
    state.selected = state.sessions.length ? key(state.sessions[0]) : null;
  }
  const opened = wantedCard && state.sessions.some((s) => key(s) === wantedCard) ? wantedCard : null;
  if (opened) { state.selected = opened; wantedCard = null; }
  render();
  if (opened) {
    const c = document.querySelector('.card[data-key="' + CSS.escape(opened) + '"]');
    if (c) { c.focus(); c.scrollIntoView({ block: "center" }); }
  }
}

// staleEdits closes each editor whose question is no longer the one pending: its text is kept
// on the card, to copy, and is never sent to the question asked since. An editor of a session
// that is gone goes with it.
function staleEdits() {
  for (const [k, ed] of state.editing) {
    const s = state.sessions.find((x) => key(x) === k);
    if (!s) { state.editing.delete(k); continue; }
    const q = (s.pending || [])[0];
    if (!q || q.id !== ed.question) ed.stale = true;
  }
}

async function errorText(r) {
  try {
    const j = await r.json();
    return j.error || r.statusText;
  } catch (e) {
    return r.status + " " + r.statusText;
  }
}

// act answers q, the question the card showed (none for interrupt): the server refuses an
// answer to a question no longer pending (409, "stale") and says which is pending now, which
// the card then shows instead; nothing is answered that the person did not see.
async function act(s, action, reason, q) {
  if (s.error || state.busy.has(key(s))) return;
  state.busy.add(key(s));
  render();
  const init = { method: "POST", headers: { "Content-Type": "application/json" } };
  const body = {};
  if (reason !== undefined) body.reason = reason;
  if (q) body.question = q.id;
  init.body = JSON.stringify(body);
  try {
    const host = s.host ? "?host=" + encodeURIComponent(s.host) : "";
    const r = await api("/api/sessions/" + encodeURIComponent(s.id) + "/" + action + host, init);
    let stale = null;
    if (r.status === 409) stale = await r.clone().json().catch(() => null);
    if (r.ok) {
      const j = await r.json();
      notice(j.message);
      const ed = state.editing.get(key(s));
      if (ed && !ed.stale) state.editing.delete(key(s)); // text kept to copy stays until dismissed
    } else if (stale && stale.code === "stale") {
      s.pending = stale.current ? [stale.current] : [];
      staleEdits(); // an edit sent to it is kept on the card
      notice(stale.error + (stale.current ? ": the card shows it now" : ""));
    } else {
      notice(await errorText(r));
    }
  } catch (e) {
    if (e.message !== "not paired") notice("disconnected: nothing was answered");
  } finally {
    state.busy.delete(key(s));
    refresh();
  }
}

function project(cwd) {
  const parts = String(cwd || "").split("/").filter(Boolean);
  return parts.length ? parts[parts.length - 1] : String(cwd || "");
}

function age(ms) {
  if (!(ms >= 0)) return "-";
  const s = Math.floor(ms / 1000);
  if (s < 60) return s + "s";
  if (s < 3600) return Math.floor(s / 60) + "m" + String(s % 60).padStart(2, "0") + "s";
  return Math.floor(s / 3600) + "h" + String(Math.floor((s % 3600) / 60)).padStart(2, "0") + "m";
}

function count(n) {
  if (n >= 1e6) return (n / 1e6).toFixed(1) + "M";
  if (n >= 1e3) return (n / 1e3).toFixed(1) + "k";
  return String(n);
}

function shortID(s) {
  return (s.session_id || s.id).slice(0, 8);
}

function card(s) {
  const k = key(s);
  const c = el("section", "card");
  c.tabIndex = 0;
  c.dataset.key = k;
  c.dataset.id = s.id;
  if (s.host) c.dataset.host = s.host;
  c.classList.toggle("selected", k === state.selected);
  c.addEventListener("focusin", () => { state.selected = k; markSelected(); });
  const h = el("h2");
  if (s.host) h.append(el("span", "host", s.host));
  if (s.error) { // a host that cannot be reached or dropped, or a session that cannot be answered
    c.classList.add("down");
    if (s.cwd) h.append(el("span", "project", project(s.cwd)), el("span", "id", s.agent + " · " + shortID(s)));
    else if (!s.host) h.append(el("span", "id", shortID(s)));
    c.append(h, el("div", "error", s.error));
    return c;
  }
  h.append(el("span", "project", project(s.cwd)), el("span", "id", s.agent + " · " + shortID(s)));
  c.append(h);
  const meta = el("div", "meta");
  const st = el("span", "state", s.state || "-");
  const since = el("span", "since");
  since.dataset.since = s.state_since;
  meta.append(st, " for ", since, " · continued " + s.continuations + " · " + count(s.tokens) + " tokens · " + s.mode);
  c.append(meta);
  c.append(el("div", "meta cwd", s.cwd));
  if (s.goal_words) c.append(goalBox(s));
  const pq = (s.pending || [])[0];
  if (s.permission && s.state === "needs permission" && !(pq && pq.permission)) {
    // What it asks to run: the agent's text, shown as text (showAll), the command whole.
    const p = el("div", "permission");
    p.append(el("strong", "", "⚠ asks to run " + s.permission.tool));
    if (s.permission.command) p.append(el("pre", "command", s.permission.command));
    c.append(p);
  }
  if (s.last_message) c.append(said(s));
  const q = (s.pending || [])[0];
  if (q && q.permission) c.append(permissionQuestion(s, q));
  else if (q) c.append(question(s, q));
  const ed = state.editing.get(k);
  if (ed && ed.stale) c.append(kept(s, q, ed));
  const actions = el("div", "actions");
  const busy = state.busy.has(k);
  if (q) {
    // Each button in the TUI's words for it (q.answers): its key hint, its help, and the
    // verdict it records as hooksup log says it ("Stop → block: continued …").
    const answer = (action, cls, keyName, f) => {
      const w = (q.answers || []).find((a) => a.action === action) || { label: action, help: "" };
      const b = button(w.label, cls, w.help + " (" + keyName + ")" + (w.decision ? " → " + w.decision : ""), busy, f);
      b.dataset.action = action;
      if (w.decision) b.dataset.decision = w.decision;
      return b;
    };
    if (q.permission) {
      // The agent's own permission dialog: Allow once · Always… (the rule it writes is shown
      // first, to confirm) · Deny · Deny… (where the reason reaches the model: it is typed
      // first). The first answer wins, here, at the terminal or elsewhere.
      if (ed && !ed.stale && ed.deny) {
        actions.append(button("send", "deny", "refuse it, and tell " + s.agent + " what is typed (Enter)", busy, () => send(s)),
          button("cancel", "", "keep the question (Esc)", busy, () => { state.editing.delete(k); render(); }));
      } else if (state.always.get(k) === q.id) {
        actions.append(answer("always", "approve", "allows what is shown from now on", () => { state.always.delete(k); act(s, "always", undefined, q); }),
          button("cancel", "", "keep the question", busy, () => { state.always.delete(k); render(); }));
      } else {
        actions.append(answer("allow", "approve", "a", () => act(s, "approve", undefined, q)));
        if (q.permission.always) actions.append(answer("always", "", "shows the rule first", () => { state.always.set(k, q.id); render(); }));
        actions.append(answer("deny", "deny", "d", () => act(s, "deny", undefined, q)));
        if (q.permission.deny_reason) actions.append(answer("reason", "", "e", () => denyWhy(s, q)));
      }
    } else if (ed && !ed.stale) {
      actions.append(answer("send", "approve", "Ctrl+Enter", () => send(s)),
        answer("cancel", "", "Esc", () => { state.editing.delete(k); render(); }));
    } else {
      actions.append(answer("approve", "approve", "a", () => act(s, "approve", undefined, q)),
        answer("deny", "deny", "d", () => act(s, "deny", undefined, q)),
        answer("edit", "", "e", () => edit(s, q)),
        answer("halt", "halt", "x", () => act(s, "halt", undefined, q)));
    }
  }
  actions.append(button("interrupt", "", "Escape, as in the session (Esc)", busy, () => act(s, "interrupt")));
  c.append(actions);
  const vs = state.verdicts.get(k) || [];
  if (vs.length) {
    const ul = el("ul", "verdicts");
    for (const v of vs.slice().reverse()) {
      const li = el("li");
      const t = new Date(v.time);
      // A verdict as the TUI's verdicts pane says it, what it did and who or what decided it
      // ("continued by you (hooksup web)"), the decision hooksup log records in its title, as
      // the server words them (never the log's raw values).
      const w = v.words || { decision: "", source: "" };
      const did = el("span", "d-" + v.decision, w.source || w.decision);
      if (w.decision) did.title = "logged " + w.decision;
      li.append(el("span", "", isNaN(t) ? "" : t.toLocaleTimeString() + " "), did, v.reason ? " · " + firstLine(v.reason) : "");
      ul.append(li);
    }
    c.append(ul);
  }
  return c;
}

// goalBox is the session's goal in the words of the TUI's header and hooksup watch's card
// (s.goal_words, worded by the server): its turn against its budget or how it ended, its text
// (the person's), time and tokens against their budgets, what failed last. A goal out of budget,
// paused or without progress is resumed here with a larger budget.
function goalBox(s) {
  const w = s.goal_words;
  const box = el("div", "goal");
  if (s.goal && s.goal.end) box.dataset.end = s.goal.end;
  const line = el("div", "goal-line");
  line.append(el("strong", w.end ? "goal-end" : "goal-turn", w.end || w.turn), " ", el("q", "goal-text", w.text));
  if (w.time) line.append(" · ", el("span", "goal-time", w.time));
  if (w.tokens) line.append(" · ", el("span", "goal-tokens", w.tokens));
  box.append(line);
  if (w.failed) box.append(el("div", "goal-failed", "✗ " + w.failed));
  if (w.resumable) box.append(resumeForm(s));
  return box;
}

// resumeForm is the larger budget to resume a goal with: its turns (twice its budget to start
// with), and its time and tokens where it has such a budget. What is typed is kept across the
// card's updates.
function resumeForm(s) {
  const k = key(s);
  const g = s.goal || {};
  const v = state.resume.get(k) || { max_turns: String(Math.max(g.max_turns || 0, g.turn || 0) * 2 || 20), max_time: "", max_tokens: "" };
  state.resume.set(k, v);
  const f = el("div", "goal-resume");
  const field = (name, label, type, placeholder) => {
    const l = el("label", "", label + " ");
    const i = el("input");
    i.name = name;
    i.type = type;
    i.value = v[name];
    i.placeholder = placeholder;
    i.dataset.resume = k;
    if (type === "number") { i.min = "1"; i.inputMode = "numeric"; }
    i.addEventListener("input", () => { v[name] = i.value; });
    i.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); resume(s); }
      e.stopPropagation(); // what is typed here is the budget, never a shortcut
    });
    l.append(i);
    return l;
  };
  f.append(el("span", "", "resume with "), field("max_turns", "turns", "number", String(g.max_turns || "")));
  if (g.max_time_ms) f.append(field("max_time", "time", "text", "e.g. 2h"));
  if (g.max_tokens) f.append(field("max_tokens", "tokens", "number", String(g.max_tokens)));
  f.append(button("resume", "resume", "resume the goal with this budget: hooksup types its next turn into the agent's prompt", state.busy.has(k), () => resume(s)));
  return f;
}

// resume resumes the session's goal with the budget typed on its card.
async function resume(s) {
  const k = key(s);
  if (s.error || state.busy.has(k)) return;
  const v = state.resume.get(k) || {};
  const body = {};
  const given = (x) => String(x || "").trim();
  if (given(v.max_turns)) body.max_turns = Number(given(v.max_turns));
  if (given(v.max_time)) body.max_time = given(v.max_time);
  if (given(v.max_tokens)) body.max_tokens = Number(given(v.max_tokens));
  state.busy.add(k);
  render();
  try {
    const host = s.host ? "?host=" + encodeURIComponent(s.host) : "";
    const r = await api("/api/sessions/" + encodeURIComponent(s.id) + "/goal/resume" + host,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    if (r.ok) {
      notice((await r.json()).message);
      state.resume.delete(k);
    } else {
      notice(await errorText(r));
    }
  } catch (e) {
    if (e.message !== "not paired") notice("disconnected: the goal was not resumed");
  } finally {
    state.busy.delete(k);
    refresh();
  }
}

// said is the agent's last message: its first lines, the whole of it a tap away ("show all"),
// which stays open across updates until "show less".
function said(s) {
  const k = key(s);
  const box = el("div", "said");
  const pre = el("pre", "message" + (state.expanded.has(k) ? " open" : ""), s.last_message);
  pre.setAttribute("aria-label", s.agent + "'s last message");
  const more = button(state.expanded.has(k) ? "show less" : "show all", "more", "the whole of the last message", false, () => {
    if (state.expanded.has(k)) state.expanded.delete(k); else state.expanded.add(k);
    render();
  });
  box.append(pre, more);
  return box;
}

function firstLine(s) {
  return String(s).trim().split("\n")[0];
}

// permissionQuestion is the agent's permission dialog as a question of the card: what it asks
// to run (the agent's text, shown as text), and, while "Always…" waits to be confirmed, the
// rule it writes.
function permissionQuestion(s, q) {
  const box = el("div", "question permission");
  box.dataset.question = q.id;
  box.dataset.asked = q.asked;
  box.append(el("strong", "", "⚠ asks to run " + q.permission.tool));
  if (q.agent_id) box.append(" (subagent " + q.agent_id + ")");
  if (q.permission.command) box.append(el("pre", "command", q.permission.command));
  if (state.always.get(key(s)) === q.id) box.append(el("div", "rule", "Always: " + q.permission.always));
  const ed = state.editing.get(key(s));
  if (ed && !ed.stale && ed.deny && ed.question === q.id) box.append(reasonArea(s, ed, "why it is refused, as " + s.agent + " will read it", true));
  return box;
}

function question(s, q) {
  const box = el("div", "question");
  box.dataset.question = q.id;
  box.dataset.asked = q.asked;
  const title = el("div");
  // The proposal in the TUI's and the log's words, as the server words it (q.says).
  title.append(el("strong", "", "⚑ " + s.agent + " wants to stop"), " (" + q.event + (q.agent_id ? " of subagent " + q.agent_id : "") + ") · ",
    el("span", "proposal " + q.proposal, q.says || q.proposal));
  box.append(title);
  const left = el("div", "left");
  left.dataset.deadline = q.deadline;
  box.append(left);
  const ed = state.editing.get(key(s));
  if (ed && !ed.stale && !ed.deny && ed.question === q.id) {
    box.append(reasonArea(s, ed, "the reason " + s.agent + " will read", false));
  } else {
    // A long reason shows its end first, where test runners say what failed; where the person
    // scrolled it to is kept across renders.
    const pre = el("pre", "reason", q.reason || "(no reason)");
    pre.dataset.scrollKey = key(s) + "/" + q.id;
    pre.addEventListener("scroll", () => state.reasonScroll.set(pre.dataset.scrollKey, pre.scrollHeight - pre.scrollTop));
    box.append(pre);
  }
  return box;
}

// reasonArea is the editor of a reason: a stop's continuation (Ctrl+Enter sends it, Enter is a
// new line) or a permission's refusal (one line: Enter sends it).
function reasonArea(s, ed, label, oneLine) {
  const ta = el("textarea");
  ta.dataset.key = key(s);
  ta.value = ed.text;
  ta.setAttribute("aria-label", label);
  if (oneLine) ta.rows = 2;
  ta.addEventListener("input", () => { ed.text = ta.value; });
  // A phone's return key is a new line in a continuation (Send sends it), and sends a refusal.
  ta.setAttribute("enterkeyhint", oneLine ? "send" : "enter");
  // The key that opened the editor (e) is not its first character, where the browser
  // delivers that key's character apart from the key itself (the focus moved in between).
  ta.addEventListener("keypress", (e) => { if (ta.swallowNext) e.preventDefault(); ta.swallowNext = false; });
  ta.addEventListener("keydown", (e) => {
    ta.swallowNext = false;
    if (e.key === "Enter" && (oneLine || e.ctrlKey || e.metaKey)) { e.preventDefault(); send(s); }
    if (e.key === "Escape") { e.preventDefault(); state.editing.delete(key(s)); render(); }
    e.stopPropagation();
  });
  return ta;
}

// kept is what is left of an edit whose question was answered elsewhere: why it closed, and its
// text, read-only, to copy; nothing of it is sent. Its textarea takes what is typed (as text,
// never as a shortcut) while it has the focus.
function kept(s, q, ed) {
  const k = key(s);
  const box = el("div", "kept");
  box.append(el("p", "why", "question " + ed.question + " was answered elsewhere; " +
    (q ? s.agent + " asks again" : "nothing is pending now") + " — your text is kept below to copy"));
  const ta = el("textarea");
  ta.dataset.key = k;
  ta.readOnly = true;
  ta.value = ed.text;
  ta.setAttribute("aria-label", "your text, kept to copy; it was not sent");
  ta.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { e.preventDefault(); const c = ta.closest(".card"); if (c) c.focus(); }
    else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) e.preventDefault(); // sends nothing
    e.stopPropagation();
  });
  box.append(ta, button("dismiss", "", "forget the kept text", false, () => { state.editing.delete(k); render(); }));
  return box;
}

function button(label, cls, title, disabled, f) {
  const b = el("button", cls, label);
  b.type = "button";
  b.title = title;
  b.disabled = disabled;
  b.addEventListener("click", f);
  return b;
}

// edit opens the reason editor on q's reason, the cursor on a line of its own below it: what
// is typed is never glued to the reason's last word. The editor has the focus at once, and is
// bound to q: the edit answers q or nothing.
function edit(s, q, byKey) {
  const reason = shown(String(q.reason || "")).replace(/\s+$/, "");
  state.editing.set(key(s), { question: q.id, text: reason ? reason + "\n" : "", stale: false });
  state.selected = key(s);
  state.editStarted = byKey ? "key" : "click";
  render();
}

// denyWhy opens the editor of a permission's refusal: what is typed is what the agent is told
// (q.permission.deny_reason: its hook passes it on, or hooksup types it into its dialog's field).
function denyWhy(s, q, byKey) {
  state.editing.set(key(s), { question: q.id, text: "", stale: false, deny: true });
  state.selected = key(s);
  state.editStarted = byKey ? "key" : "click";
  render();
}

// send answers the question the editor was opened on with its text: never another one (the
// server refuses it, 409, once that question is answered). A refusal's editor denies it.
function send(s) {
  const ed = state.editing.get(key(s));
  if (!ed || ed.stale) return;
  if (ed.deny) {
    if (!ed.text.trim()) { notice("type why it is refused first, or Deny refuses it without a reason"); return; }
    act(s, "deny", ed.text.trim(), { id: ed.question });
    return;
  }
  act(s, "approve", ed.text.trim(), { id: ed.question });
}

function render() {
  const main = $("sessions");
  const focused = document.activeElement;
  // Each textarea's caret, selection and scroll are kept across renders, and its focus.
  let focusedText = null, swallow = false;
  for (const ta of main.querySelectorAll("textarea[data-key]")) {
    const ed = state.editing.get(ta.dataset.key);
    if (ed) Object.assign(ed, { start: ta.selectionStart, end: ta.selectionEnd, dir: ta.selectionDirection, scroll: ta.scrollTop });
    if (ta === focused) { focusedText = ta.dataset.key; swallow = !!ta.swallowNext; }
  }
  const refocus = focused && focused.classList && focused.classList.contains("card") ? focused.dataset.key : null;
  // A budget being typed keeps its focus and caret.
  const budget = focused && focused.dataset && focused.dataset.resume !== undefined ? { key: focused.dataset.resume, name: focused.name } : null;
  staleEdits();
  const cards = state.sessions.map(card);
  for (const c of cards) showAll(c);
  main.replaceChildren(...cards);
  for (const pre of main.querySelectorAll("pre.reason")) {
    const fromEnd = state.reasonScroll.get(pre.dataset.scrollKey);
    pre.scrollTop = fromEnd === undefined ? pre.scrollHeight : pre.scrollHeight - fromEnd;
  }
  // "show all" only where the message is longer than its first lines.
  for (const b of main.querySelectorAll(".said")) {
    const pre = b.querySelector("pre.message");
    b.querySelector("button.more").hidden = !pre.classList.contains("open") && pre.scrollHeight <= pre.clientHeight + 1;
  }
  if (!state.sessions.length) main.append(el("p", "empty", state.loggedIn ? "No hooksup session is running." : ""));
  tick();
  const textOf = (k) => main.querySelector('textarea[data-key="' + CSS.escape(k || "") + '"]');
  if (state.editStarted && textOf(state.selected)) {
    // A new editor: the focus, the cursor at the end, on its line of its own.
    const ta = textOf(state.selected);
    ta.focus();
    ta.setSelectionRange(ta.value.length, ta.value.length);
    ta.swallowNext = state.editStarted === "key";
  } else if (focusedText && textOf(focusedText)) {
    // The editor drawn anew still swallows the character of the e that opened it, should the
    // browser deliver it only now.
    textOf(focusedText).swallowNext = swallow;
    textOf(focusedText).focus({ preventScroll: true });
  } else if (budget) {
    const i = main.querySelector('input[data-resume="' + CSS.escape(budget.key) + '"][name="' + CSS.escape(budget.name) + '"]');
    if (i) i.focus({ preventScroll: true });
  } else if (refocus) {
    const c = main.querySelector('.card[data-key="' + CSS.escape(refocus) + '"]');
    if (c) c.focus({ preventScroll: true });
  }
  for (const ta of main.querySelectorAll("textarea[data-key]")) {
    const ed = state.editing.get(ta.dataset.key);
    if (!ed || ed.start === undefined || (state.editStarted && ta.dataset.key === state.selected)) continue;
    ta.setSelectionRange(Math.min(ed.start, ta.value.length), Math.min(ed.end, ta.value.length), ed.dir);
    ta.scrollTop = ed.scroll;
  }
  state.editStarted = false;
}

function markSelected() {
  for (const c of document.querySelectorAll(".card")) c.classList.toggle("selected", c.dataset.key === state.selected);
}

function tick() {
  const now = Date.now();
  for (const e of document.querySelectorAll("[data-since]")) e.textContent = age(now - Date.parse(e.dataset.since));
  for (const e of document.querySelectorAll("[data-deadline]")) {
    const left = Date.parse(e.dataset.deadline) - now;
    e.textContent = left > 0 ? age(left) + " left" : "timing out";
  }
}

function keys(e) {
  if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT" || e.altKey || e.metaKey || e.ctrlKey) return;
  // While the selected card's editor is open, what is typed is its text, never a shortcut,
  // wherever the focus is: the editor takes the focus, and the key.
  const ed = state.editing.get(state.selected);
  if (ed && !ed.stale) {
    const ta = document.querySelector('textarea[data-key="' + CSS.escape(state.selected) + '"]');
    if (ta) ta.focus();
    if (e.key === "Escape") { e.preventDefault(); state.editing.delete(state.selected); render(); }
    return;
  }
  const i = state.sessions.findIndex((s) => key(s) === state.selected);
  const s = state.sessions[i];
  const move = (d) => {
    if (!state.sessions.length) return;
    const n = state.sessions[Math.min(state.sessions.length - 1, Math.max(0, i + d))];
    state.selected = key(n);
    const c = document.querySelector('.card[data-key="' + CSS.escape(key(n)) + '"]');
    if (c) c.focus();
  };
  const pending = s && (s.pending || [])[0];
  switch (e.key) {
    case "ArrowUp": case "k": move(-1); break;
    case "ArrowDown": case "j": move(1); break;
    case "a": if (pending) act(s, "approve", undefined, pending); break;
    case "d": if (pending) act(s, "deny", undefined, pending); break;
    case "e":
      // Its character is never typed into the editor it opens, whatever the opening does.
      e.preventDefault();
      if (pending && pending.permission) {
        // A permission's editor is its refusal's reason, where the reason reaches the model.
        if (pending.permission.deny_reason) denyWhy(s, pending, true);
        else notice(s.agent + "'s dialog takes no reason: d denies it");
      } else if (pending) edit(s, pending, true);
      break;
    case "x": if (pending) act(s, "halt", undefined, pending); break;
    case "Escape":
      // Escape interrupts only the card that has the focus, never whatever was selected last.
      if (!s || s.error || !(e.target.classList && e.target.classList.contains("card")) || key(s) !== e.target.dataset.key) return;
      act(s, "interrupt");
      break;
    default: return;
  }
  e.preventDefault();
}

// "notify this device": Web Push, through the browser's push service, to this device even
// with the page closed. The page subscribes with the server's VAPID key and gives the server the
// subscription; the server sends each one a push, encrypted to it, when a question starts
// waiting, and hooksup's push worker shows it. Where the browser has no push (plain HTTP beyond
// loopback; iPhone and iPad until the page is added to the Home Screen) the page notifies while
// it is open. Browsers ask for the permission only after a click.
const pushable = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window && window.isSecureContext;
const appleMobile = () => /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);

function fromB64url(s) {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

// pushWorker is the push worker's registration, active.
async function pushWorker() {
  const reg = await navigator.serviceWorker.register(PUSH_WORKER, { scope: PUSH_SCOPE, updateViaCache: "none" });
  const w = reg.installing || reg.waiting;
  if (w && !reg.active) {
    await new Promise((resolve) => w.addEventListener("statechange", () => { if (w.state === "activated" || w.state === "redundant") resolve(); }));
  }
  return reg;
}

// pushOn subscribes this device (again: a subscription to another key is replaced) and gives
// the server the subscription.
async function pushOn() {
  const r = await api("/api/push/key");
  if (!r.ok) throw new Error(await errorText(r));
  const key = (await r.json()).key;
  const reg = await pushWorker();
  let sub = await reg.pushManager.getSubscription();
  if (sub && (!sub.options.applicationServerKey || b64url(sub.options.applicationServerKey) !== key)) {
    await sub.unsubscribe();
    sub = null;
  }
  if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromB64url(key) });
  const p = await api("/api/push", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(sub.toJSON()) });
  if (p.status !== 201) throw new Error(await errorText(p));
  state.push = true;
}

async function pushOff() {
  const reg = await navigator.serviceWorker.getRegistration(PUSH_SCOPE);
  const sub = reg && isPushWorker(reg) ? await reg.pushManager.getSubscription() : null;
  if (sub) {
    await api("/api/push", { method: "DELETE", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ endpoint: sub.endpoint }) });
    await sub.unsubscribe();
  }
  state.push = false;
}

function showNotify() {
  const b = $("notify");
  if (pushable()) {
    b.textContent = state.push ? "notifications on · turn off" : "notify this device";
    b.title = state.push ? "this device is notified when a question waits, even with the page closed" : "a notification on this device when a question waits, even with the page closed";
    b.hidden = !state.loggedIn;
  } else {
    b.textContent = "notify me of questions";
    b.title = appleMobile() ? "to be notified with the page closed, add this page to the Home Screen (Share, Add to Home Screen) and open it from there" : "while this page is open";
    b.hidden = !("Notification" in window) || Notification.permission !== "default";
  }
}

function notifications() {
  const b = $("notify");
  b.addEventListener("click", async () => {
    if (!("Notification" in window)) return;
    b.disabled = true;
    try {
      if (!pushable()) { await Notification.requestPermission(); return; }
      if (state.push) { await pushOff(); return; }
      if ((await Notification.requestPermission()) !== "granted") { notice("Notifications are blocked for this page in the browser's settings."); return; }
      await pushOn();
      notice("");
    } catch (e) {
      if (e.message !== "not paired") notice("notify this device: " + e.message);
    } finally {
      b.disabled = false;
      showNotify();
    }
  });
  showNotify();
}

// pushAgain gives the server this device's subscription again once signed in (a server whose
// files were reset has lost it), when the person turned notifications on before.
async function pushAgain() {
  if (!pushable() || Notification.permission !== "granted") return;
  try {
    const reg = await navigator.serviceWorker.getRegistration(PUSH_SCOPE);
    if (reg && isPushWorker(reg) && (await reg.pushManager.getSubscription())) await pushOn();
  } catch (e) { /* the button says it is off */ }
  showNotify();
}

function notifyQuestion(ev) {
  if (state.push) return; // the push worker tells of it
  if (!("Notification" in window) || Notification.permission !== "granted" || !document.hidden) return;
  const s = state.sessions.find((x) => key(x) === eventKey(ev));
  const q = (ev.data && ev.data.question) || {};
  const where = s ? project(s.cwd) : "a session";
  // Text only: a notification's title and body are never markup.
  new Notification(shown("hooksup: " + where + " wants to stop"), { body: shown(firstLine(q.reason || "")), tag: eventKey(ev) + "/" + q.id, icon: "/icon.svg" });
}

const refreshOn = new Set(["QuestionAsked", "QuestionResolved", "VerdictDecided", "StateChanged", "Interrupted",
  "AgentExited", "SessionStarted", "SessionEnded", "TranscriptUpdated", "GoalTurnTyped"]);

// The event stream is read with fetch, so that it carries the device's token as a header
// (EventSource sends only cookies): Server-Sent Events, parsed here.
let stream = null;
async function listen() {
  const ctl = new AbortController();
  stream = ctl;
  let r;
  try {
    r = await api("/api/events", { signal: ctl.signal, headers: { Accept: "text/event-stream" } });
  } catch (e) {
    return e.message === "not paired" ? undefined : retry(ctl);
  }
  if (!r.ok || !r.body) return retry(ctl);
  state.verdicts.clear(); // the stream replays the latest verdicts
  connection(true, "live");
  refresh();
  const reader = r.body.getReader();
  const text = new TextDecoder();
  let buf = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += text.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const data = block.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n");
        if (data) message(data);
      }
    }
  } catch (e) { /* the connection dropped, or was aborted */ }
  retry(ctl);
}

// retry listens again after a second, unless this stream was replaced or the device signed out.
function retry(ctl) {
  if (stream !== ctl) return;
  stream = null;
  connection(false, "disconnected — reconnecting…");
  setTimeout(() => { if (!stream) listen(); }, 1000);
}

function message(data) {
  let ev;
  try { ev = JSON.parse(data); } catch (e) { return; }
  if (ev.type === "VerdictDecided" && ev.data && ev.data.verdict) {
    const vs = state.verdicts.get(eventKey(ev)) || [];
    vs.push(Object.assign({}, ev.data.verdict, { words: ev.words }));
    state.verdicts.set(eventKey(ev), vs.slice(-5));
  }
  if (ev.type === "QuestionAsked") notifyQuestion(ev);
  if (refreshOn.has(ev.type)) refreshSoon();
}

// signIn pairs with the URL's code if it has one, then logs in and follows the sessions.
async function signIn() {
  try { await pair(); } catch (e) { notice("hooksup web is not reachable"); }
  let tok = null;
  try { tok = session.token || (await login()); } catch (e) { connection(false, "disconnected — reconnecting…"); setTimeout(signIn, 1000); return; }
  if (!tok) {
    if ($("notice").hidden) signedOut();
    else connection(false, "not paired");
    return;
  }
  state.loggedIn = true;
  await refresh();
  if (!stream) listen();
  pushAgain();
}

async function start() {
  try { localStorage.removeItem(OLD_TOKEN); } catch (e) { /* storage refused: nothing kept */ }
  try {
    if (await removeWorkers()) { location.reload(); return; }
  } catch (e) { /* no service workers here */ }
  document.addEventListener("keydown", keys);
  // A new pairing URL pasted into this tab changes its fragment only: it pairs this tab.
  window.addEventListener("hashchange", () => {
    if (/pair=/.test(location.hash)) signIn();
    else if ((wantedCard = cardOfHash())) { history.replaceState(null, "", location.pathname + location.search); refresh(); }
  });
  notifications();
  setInterval(tick, 1000);
  setInterval(refresh, 5000);
  await signIn();
}

start();
