// The replay page: every step of the game (GET /steps), the board as it stood after each
// (board.svg?at=N, kept once fetched, the neighbours fetched ahead), moved by a slider, buttons,
// and the ← → Home End keys.
"use strict";
(function () {
  const { api, svg, pageData, el, showBoard, eventText, words } = window.DH;
  const data = pageData();
  const gid = data.id;
  const $ = (id) => document.getElementById(id);
  const boards = new Map();
  let steps = [], at = 0, shown = -1, started = 0;
  const names = data.names || [];

  function board(version) {
    if (!data.draws_board || version < started) return Promise.resolve(null);
    if (!boards.has(version)) boards.set(version, svg("/games/" + gid + "/board.svg?at=" + version));
    return boards.get(version);
  }

  function actorText(actor) {
    if (actor.kind === "seat") return "seat " + (actor.seat + 1) + (names[actor.seat] ? " (" + names[actor.seat] + ")" : "");
    return { system: "the rules", creator: "the creator", platform: "the server" }[actor.kind] || actor.kind;
  }

  function decisionText(decision) {
    const parts = Object.entries(decision).filter(([k]) => k !== "type").map(([k, v]) => words(k) + " " + JSON.stringify(v));
    return decision.type + (parts.length ? ": " + parts.join(", ") : "");
  }

  async function show(index) {
    at = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[at];
    $("step").value = at;
    $("step-label").textContent = "Step " + step.step + " of " + steps.length + " (version " + step.until + ")";
    $("actor").textContent = actorText(step.actor);
    $("decision").textContent = decisionText(step.decision);
    $("versions").textContent = step.version === step.until ? String(step.version) : step.version + "–" + step.until;
    $("rules").replaceChildren(...step.rules.map((r) =>
      el("li", {}, el("strong", { text: r.id }), ": " + r.text,
        el("blockquote", {}, el("p", { lang: "fr", text: r.section }), el("small", { text: r.book })))));
    $("events").replaceChildren(...step.events.map((e) => el("li", { text: eventText(e) })));
    const wanted = at;
    const text = await board(step.until);
    if (wanted === at && shown !== at) {
      if (text === null) $("board").textContent = "The game had not started: no board yet.";
      else showBoard($("board"), text);
      shown = at;
    }
    for (const near of [at + 1, at - 1]) if (steps[near]) board(steps[near].until);
  }

  function go(index) { if (steps.length) { shown = -1; show(index); } }

  document.addEventListener("keydown", (event) => {
    if (event.target.matches("input, textarea, select") && event.target.id !== "step") return;
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    go(moves[event.key]);
  });
  $("step").addEventListener("input", () => go(Number($("step").value)));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(at - 1));
  $("next").addEventListener("click", () => go(at + 1));
  $("last").addEventListener("click", () => go(steps.length - 1));

  api("GET", "/games/" + gid + "/steps").then((trail) => {
    steps = trail.steps;
    const start = steps.find((s) => s.events.some((e) => e.type === "Started"));
    started = start ? start.version : Infinity; // before the start, the game has no board
    $("step").max = Math.max(0, steps.length - 1);
    go(steps.length - 1);
  }).catch((err) => { $("step-label").textContent = "Could not load the steps: " + err.message; });
})();
