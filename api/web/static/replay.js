// The replay page: the game step by step, in words. Step 0 is the start of play (the table opened,
// its seats taken, the first deal); each later step is one decision. The steps come from GET /steps
// (versions, rules applied) and GET /log (the same steps told in the game's words); the board as it
// stood after each step is board.svg?at=N (kept once fetched, the neighbours fetched ahead). The page
// opens on step 0, or on the step its address names (?step=N), and keeps the address on the step shown.
"use strict";
(function () {
  const { api, svg, pageData, el, showBoard } = window.DH;
  const data = pageData();
  const gid = data.id;
  const $ = (id) => document.getElementById(id);
  const boards = new Map();
  let positions = [], at = 0, shown = -1;

  function board(version) {
    if (!data.draws_board || !version) return Promise.resolve(null);
    if (!boards.has(version)) boards.set(version, svg("/games/" + gid + "/board.svg?at=" + version));
    return boards.get(version);
  }

  /** The positions a person steps through: 0 gathers every step up to the start of play. */
  function build(apiSteps, logSteps) {
    const words = new Map(logSteps.map((s) => [s.version, s]));
    const out = [];
    for (const s of apiSteps) {
      const told = words.get(s.version) || { step: 0, title: "", lines: [], kind: "system", seat: null };
      const number = told.step;
      if (!out[number]) {
        out[number] = { step: number, title: told.title, kind: told.kind, seat: told.seat, lines: [], rules: [],
          version: s.version, until: s.until, started: false };
      }
      const p = out[number];
      p.until = s.until;
      if (number === 0) p.title = "The start of play";
      p.lines.push(...told.lines.filter((l) => !l.quiet));
      for (const r of s.rules) if (!p.rules.some((x) => x.id === r.id)) p.rules.push(r);
      if (s.events.some((e) => e.type === "Started" || e.type === "Forked")) p.started = true;
    }
    return out.filter(Boolean);
  }

  function label(p) {
    const last = positions.length - 1;
    return p.step === 0 ? "Step 0 of " + last + ": the start" : "Step " + p.step + " of " + last;
  }

  function moveList() {
    const items = positions.map((p, i) => {
      const link = el("a", { href: "?step=" + p.step, "data-step": String(p.step) },
        el("span", { class: "num", text: p.step === 0 ? "0" : String(p.step) }), p.step === 0 ? "The start" : p.title);
      link.addEventListener("click", (event) => { event.preventDefault(); go(i); });
      return el("li", {}, link);
    });
    $("moves").replaceChildren(...items);
  }

  function mayDispute(p) {
    if (!data.signed_in || p.step === 0 || !["move", "timeout"].includes(p.kind) || p.seat === null) return false;
    return data.ended || (data.your_seats || []).includes(p.seat);
  }

  /** Scrolls the list ``box`` (not the window, which stays on the board and the step's words) so
   * that ``item`` is in it. */
  function reveal(item, box) {
    const r = item.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (r.top < b.top) box.scrollTop -= b.top - r.top;
    else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
  }

  async function show(index) {
    at = Math.max(0, Math.min(positions.length - 1, index));
    const p = positions[at];
    $("step").value = at;
    $("step-label").textContent = label(p);
    $("step-title").textContent = p.step === 0 ? "The start" : "Step " + p.step;
    $("decision").textContent = p.title;
    $("events").replaceChildren(...p.lines.map((l) => el("li", { text: l.text, class: l.notice ? "notice" : null })));
    $("rules").replaceChildren(...p.rules.map((r) =>
      el("li", {}, r.text, el("blockquote", {}, el("p", { lang: r.book === "platform" ? "en" : "fr", text: r.section }),
        el("small", { text: (data.books || {})[r.book] || "the rulebook" })))));
    const dispute = $("dispute-link");
    dispute.hidden = !mayDispute(p);
    dispute.querySelector("a").href = "/games/" + gid + "/audit?dispute=" + p.step + "#dispute-form";
    $("moves").querySelectorAll("a").forEach((a) => a.removeAttribute("aria-current"));
    const current = $("moves").querySelector('a[data-step="' + p.step + '"]');
    if (current) { current.setAttribute("aria-current", "step"); reveal(current, $("moves")); }
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(p.step));
    window.history.replaceState(null, "", url);
    const wanted = at;
    const text = await board(p.started || p.step > 0 ? p.until : 0);
    if (wanted === at && shown !== at) {
      if (text === null) $("board").textContent = "The game had not started: no board yet.";
      else showBoard($("board"), text);
      shown = at;
    }
    for (const near of [at + 1, at - 1]) if (positions[near]) board(positions[near].until);
  }

  function go(index) { if (positions.length) { shown = -1; show(index); } }

  document.addEventListener("keydown", (event) => {
    if (event.target.matches("input, textarea, select") && event.target.id !== "step") return;
    if (event.target.closest("#board")) return; // the board has the keys: they scroll it
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: positions.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    go(moves[event.key]);
  });
  $("step").addEventListener("input", () => go(Number($("step").value)));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(at - 1));
  $("next").addEventListener("click", () => go(at + 1));
  $("last").addEventListener("click", () => go(positions.length - 1));

  Promise.all([api("GET", "/games/" + gid + "/steps"), api("GET", "/games/" + gid + "/log")]).then(([trail, log]) => {
    positions = build(trail.steps, log.steps);
    $("step").max = Math.max(0, positions.length - 1);
    moveList();
    const asked = Number(new URL(window.location.href).searchParams.get("step") || 0);
    const found = positions.findIndex((p) => p.step >= asked);
    go(found >= 0 ? found : positions.length - 1);  // past the last step: the last
  }).catch((err) => { $("step-label").textContent = "Could not load the steps: " + window.DH.plainError(err) + "."; });
})();
