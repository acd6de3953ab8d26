// Dragonhall's pages: what every script shares (the API's calls with the session's CSRF token).
"use strict";
window.DH = (function () {
  const csrf = () => (document.querySelector('meta[name="csrf-token"]') || {}).content || "";

  /** Whether the page was drawn for a signed-in person (only their pages print a CSRF token). */
  const signedIn = () => !!document.querySelector('meta[name="csrf-token"]');

  /** The server answered 401 to a page drawn signed in: the session is gone (signed out in another
   * tab, revoked), and the answer forgot its cookie (api/web/site.py). The header says so and offers
   * to sign in, and the page's scripts hear ``dh:signed-out`` to go on as a signed-out watcher's. */
  function signedOut() {
    if (!signedIn()) return false;
    document.querySelector('meta[name="csrf-token"]').remove();
    const who = document.querySelector("header .who");
    if (who) {
      who.replaceChildren(el("span", { text: "You are signed out. " }),
        el("a", { href: "/signin", text: "Sign in or sign up" }));
    }
    document.querySelectorAll('header nav a[href="/inbox"]').forEach((a) => (a.closest("li") || a).remove());
    document.dispatchEvent(new CustomEvent("dh:signed-out"));
    return true;
  }

  async function api(method, path, body) {
    const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
    if (method !== "GET") {
      init.headers["X-CSRF-Token"] = csrf();
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body || {});
    }
    let response = await fetch("/api/v1" + path, init);
    // a read refused as the session ended is read again without it, as a signed-out watcher reads
    if (response.status === 401 && signedOut() && method === "GET") response = await fetch("/api/v1" + path, init);
    const text = await response.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; } // a proxy's page, not ours
    if (!response.ok) {
      const err = new Error((data && data.error && data.error.message) || response.statusText);
      err.status = response.status;
      err.body = data;
      throw err;
    }
    return data;
  }

  /** What went wrong, in a person's words: never the API's own message (it may name an id or a
   * code). ``err.status`` is unset when the server could not be reached at all. */
  const SAID = {
    game_not_found: "this game could not be found",
    player_not_found: "no player has that name",
    not_a_player: "you do not hold a seat in this game",
    not_creator: "only the game's creator may do that",
    not_invited: "you were not invited to this game",
    not_awaited: "it is not your turn",
    not_accepting_moves: "the game is not in play any more",
    stale_version: "the game moved on meanwhile",
    seat_unavailable: "that seat is taken",
    unauthenticated: "you are signed out: sign in again",
    insufficient_scope: "you may not do that",
    csrf_failed: "this page is out of date: reload it",
  };
  function plainError(err) {
    if (!err || err.status === undefined) return "the server could not be reached: check the connection and try again";
    const code = err.body && err.body.error && err.body.error.code;
    if (code && SAID[code]) return SAID[code];
    if (err.status === 429) return "too many requests at once: wait a moment and try again";
    if (err.status >= 500) return "the server could not answer just now: try again in a moment";
    if (err.status === 404) return "it could not be found";
    if (err.status === 403) return "you may not do that";
    return "the server refused it";
  }

  async function svg(path) {
    let response = await fetch("/api/v1" + path, { credentials: "same-origin" });
    if (response.status === 401 && signedOut()) response = await fetch("/api/v1" + path, { credentials: "same-origin" });
    if (response.status === 404) return null;
    if (!response.ok) throw new Error("board: " + response.status);
    return response.text();
  }

  function pageData() {
    return JSON.parse(document.getElementById("page-data").textContent);
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children) node.append(child);
    return node;
  }

  /** Puts an SVG document (from our own server) into ``holder``, parsed, never as script. */
  function showBoard(holder, text) {
    if (text === null) { holder.textContent = "This game has no board picture yet."; return; }
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const root = doc.documentElement;
    if (root.nodeName !== "svg") return;
    root.querySelectorAll("script").forEach((s) => s.remove());
    holder.replaceChildren(document.importNode(root, true));
    fitBoard(holder.querySelector("svg"));
    openOn(holder);
  }

  /** Lets the page's style draw a board no smaller than its own units (board.css: its text then no
   * smaller than drawn, 11 px at least), as wide as its panel allows: the same on every page. */
  function fitBoard(root) {
    const box = root && root.viewBox && root.viewBox.baseVal;
    if (box && box.width) {
      root.style.setProperty("--board-w", box.width + "px");
      root.style.setProperty("--board-ratio", String(box.width / box.height));
    }
    if (root && root.parentElement) cue(root.parentElement);
  }

  /** Scrolls the board's box (only it, never the page) so that ``targets`` (elements of its
   * picture) are in view: all of them, centred, when they fit in it, else the first; nothing moves
   * when they are already in view. True when it found something to show. */
  function bringIntoBox(holder, targets) {
    const list = [...targets].filter((t) => t.getBoundingClientRect().width > 0);
    if (!holder || !list.length) return false;
    const box = holder.getBoundingClientRect();
    const rects = list.map((t) => t.getBoundingClientRect());
    let want = {
      left: Math.min(...rects.map((r) => r.left)), right: Math.max(...rects.map((r) => r.right)),
      top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)),
    };
    if (want.right - want.left > holder.clientWidth || want.bottom - want.top > holder.clientHeight) want = rects[0];
    const inside = want.left >= box.left && want.right <= box.left + holder.clientWidth &&
      want.top >= box.top && want.bottom <= box.top + holder.clientHeight;
    if (!inside) {
      holder.scrollLeft += (want.left + want.right) / 2 - (box.left + holder.clientWidth / 2);
      holder.scrollTop += (want.top + want.bottom) / 2 - (box.top + holder.clientHeight / 2);
    }
    return true;
  }

  /** The first time a board is shown in ``holder``, its box opens on what the picture marks as
   * the viewer's (``data-focus``: a Drachenreiter dragon), not on its top left corner. */
  function openOn(holder) {
    if (!holder || holder.dataset.opened) return;
    const focus = holder.querySelectorAll("svg [data-focus]");
    if (focus.length) { holder.dataset.opened = "1"; bringIntoBox(holder, focus); }
  }

  /** Whether the viewer chose to see every board whole, shrunk to its box (remembered in this
   * browser), rather than at its own size in a box that scrolls. */
  const WHOLE = "dh-board-whole";
  function wholeWanted() {
    try { return localStorage.getItem(WHOLE) === "1"; } catch (err) { return false; }
  }

  /** Under a board larger than its box, says in words that it scrolls (a phone shows no scroll
   * bar until it is touched), and offers to show it whole, shrunk to the box (and back); the
   * box's edges are shaded where more of it lies (board.css). */
  function cue(holder) {
    if (!holder || !holder.classList.contains("board")) return;
    const whole = wholeWanted();
    holder.classList.toggle("whole", whole);
    const wide = holder.scrollWidth > holder.clientWidth + 1, tall = holder.scrollHeight > holder.clientHeight + 1;
    let note = holder.previousElementSibling;
    if (!note || !note.classList.contains("board-cue")) {
      note = el("div", { class: "board-cue muted" }, el("span", { class: "cue-text" }),
        el("button", { type: "button", class: "secondary cue-whole" }));
      note.querySelector("button").addEventListener("click", () => {
        try { localStorage.setItem(WHOLE, wholeWanted() ? "0" : "1"); } catch (err) { return; }
        document.querySelectorAll(".board").forEach(cue);
      });
      holder.before(note);
    }
    const way = wide && tall ? "drag or scroll it in any direction" : wide ? "drag or scroll it sideways" : "scroll it down";
    note.querySelector(".cue-text").textContent = wide || tall ? "The board is larger than its box: " + way + " to see all of it. " : "";
    note.querySelector("button").textContent = whole ? "Show the board at its full size" : "Show the whole board";
    note.hidden = !(wide || tall || whole);
    holder.classList.toggle("overflows", wide || tall);
  }

  window.addEventListener("resize", () => document.querySelectorAll(".board-panel .board").forEach(cue));

  function words(name) {
    return String(name).replace(/[_-]+/g, " ");
  }

  function brief(value) {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return text.length > 80 ? text.slice(0, 77) + "…" : text;
  }

  function eventText(e) {
    const data = e.data || {};
    const parts = Object.entries(data).map(([k, v]) => words(k) + " " + brief(v));
    return "v" + e.version + " " + e.type + (parts.length ? ": " + parts.join(", ") : "");
  }

  const moveWords = new Map(), moveSteps = new Map(), kindWords = new Map();

  /** Keeps the game's phrase of each legal move, its choices and its type's heading in words (GET
   * /legal-moves?words=true gives ``texts``, ``choices`` and ``kinds``). */
  function setMoveTexts(moves, texts, choices, kinds) {
    moveWords.clear();
    moveSteps.clear();
    kindWords.clear();
    for (const [type, said] of Object.entries(kinds || {})) kindWords.set(type, said);
    moves.forEach((m, i) => {
      const key = JSON.stringify(m);
      if (texts[i]) moveWords.set(key, texts[i]);
      if (choices && choices[i] && choices[i].length) moveSteps.set(key, choices[i]);
    });
  }

  /** A move type as a heading over its moves, in the game's words ("Lay a dragon card"), or "". */
  function kindText(type) {
    return kindWords.get(type) || "";
  }

  /** A legal move as the choices that name it, each [question, answer] in the game's words
   * ([["Card to lay", "the red dragon card"], ["Where", "right of the centre"]]), or null. */
  function moveChoices(move) {
    return moveSteps.get(JSON.stringify(move)) || null;
  }

  /** A legal move in the game's words ("set aside two reds"), or "" when none was given. */
  function moveText(move) {
    return moveWords.get(JSON.stringify(move)) || "";
  }

  function remaining(deadline) {
    if (!deadline) return null;
    return Math.max(0, (Date.parse(deadline) - Date.now()) / 1000);
  }

  function duration(seconds) {
    if (seconds === null) return "";
    const s = Math.floor(seconds), d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60), r = s % 60;
    const pad = (n) => String(n).padStart(2, "0");
    return (d ? d + "d " : "") + (d || h ? pad(h) + ":" : "") + pad(m) + ":" + pad(r);
  }

  return { api, signedOut, plainError, svg, pageData, el, showBoard, fitBoard, bringIntoBox, openOn, words, brief, eventText, remaining, duration, setMoveTexts, moveText, moveChoices, kindText };
})();
