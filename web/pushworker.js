// hooksup web's push worker, the one service worker hooksup registers: its scope is /push/,
// which holds no page, so it never sees the page's requests. It shows a push as a notification
// (what the push names: a session and the kind of wait, never what the agent asks), and a tap
// opens the page at that session's card. A push is taken as untrusted data: only its known
// fields, checked, reach the notification.
"use strict";

const SCOPE = self.location.origin + "/push/";
const KINDS = {
  question: "a question waits for you",
  permission: "asks permission to run a tool",
  idle: "waits for your next prompt",
  done: "has finished",
};
// A goal's end (kind done): how it ended.
const GOALS = {
  reached: ["goal reached", "its goal is reached"],
  budget: ["goal ended", "its goal ran out of budget"],
  no_progress: ["goal ended", "its goal made no progress"],
  paused: ["goal ended", "its goal paused: what it protects changed"],
};

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (e) => {
  if (self.registration.scope === SCOPE) return;
  // Registered for another scope (by whatever held this address before): it removes itself and
  // loads the pages that worker held again, from hooksup web. It is unregistered first, so that
  // no page loads under it again, and the pages are loaded once its activation is over, not
  // within it: a page's load under a worker still activating waits for its activation.
  const removed = (async () => {
    const pages = await self.clients.claim().then(() => self.clients.matchAll({ type: "window" })).catch(() => []);
    await self.registration.unregister();
    return pages;
  })();
  e.waitUntil(removed.catch(() => {}));
  removed.then((pages) => Promise.all(pages.map((c) => c.navigate(c.url).catch(() => {})))).catch(() => {});
});

function clean(s, re, max) {
  return typeof s === "string" ? s.replace(re, "").slice(0, max) : "";
}

self.addEventListener("push", (e) => {
  let d = {};
  try { d = e.data ? e.data.json() : {}; } catch (err) { d = {}; }
  const kind = Object.prototype.hasOwnProperty.call(KINDS, d.kind) ? d.kind : "question";
  const id = clean(d.id, /[^A-Za-z0-9._-]/g, 64);
  const host = clean(d.host, /[^A-Za-z0-9._:@[\]-]/g, 255);
  const goal = kind === "done" && Object.prototype.hasOwnProperty.call(GOALS, d.goal) ? GOALS[d.goal] : null;
  const title = "hooksup: " + (goal ? goal[0] : kind === "permission" ? "permission asked" : kind === "question" ? "a question waits" : kind);
  const body = "session " + id.slice(0, 8) + (host ? " on " + host : "") + (goal ? ": " + goal[1] : " " + KINDS[kind]);
  // A tap opens the page at the session's card.
  let url = "/#session=" + encodeURIComponent(id);
  if (host) url += "&host=" + encodeURIComponent(host);
  e.waitUntil(self.registration.showNotification(title, { body, tag: host + " " + id, icon: "/icon.svg", data: { id, host, kind, url } }));
});

self.addEventListener("notificationclick", (e) => {
  e.notification.close();
  const d = e.notification.data || {};
  const url = new URL(typeof d.url === "string" ? d.url : "/", self.location.origin);
  e.waitUntil(self.clients.openWindow(url.origin === self.location.origin ? url.href : "/"));
});
