// Playing on the board: the board picture's elements carry ``data-ref`` names and each legal move,
// as the server lists it (GET /legal-moves?words=true: ``refs``, ``poses``), the refs a person clicks
// to make it. This script knows no rule: it lights the refs that begin some legal move, narrows the
// candidates with each click and plays the move once one remains (unless its pose says ``confirm``:
// then it asks for the move's last click, or its button). Where two moves share every click
// and differ only in the way up their piece lies, the click on its place plays the one its ghost
// shows (a "Turn the card" button shows the other way up first); where they differ otherwise, it
// draws the move's pose (a ghost of the piece, a path) and asks which.
// The move controls (controls.js) stay the keyboard and screen-reader path: the board's elements
// stay inside its picture (role="img"), not focusable, so nothing interactive nests in it.
"use strict";
window.DHBoard = (function () {
  const { el } = window.DH;
  const SVGNS = "http://www.w3.org/2000/svg";
  let holder = null, bar = null, play = null;
  let moves = [], refs = [], poses = [];
  let chosen = [], shown = 0, armed = false, clicks = 0, sent = 0;
  let note = null, idle = null; // the note under the board about a click that chose nothing; why nothing can be chosen
  let toShow = false; // a decision came whose lit elements the board's box has not yet been scrolled to
  let turn = null, hovered = null; // the way up a ghost is shown in (a pose's ``turn``); the ref under the pointer
  // A listing too long to send whole (a Mékong programme) is chosen step by step: ``steps`` holds the
  // refs the server says may be clicked next and what asks it for the step after one (game.js);
  // ``restart`` goes back to its first step, where the moves listed begin with refs already chosen.
  let steps = null, restart = null;
  /** Once a piece was clicked, when the choices left have no place on the board (a direction, a
   * pile) and lead to this many moves or fewer, each move is offered whole ("Play Rotate Goals to
   * the left, then on top of the discard pile"): one click, not one a choice. */
  const WHOLE = 6;

  /** Every (move, way) pair still possible after the refs chosen so far. */
  function candidates() {
    const out = [];
    moves.forEach((move, i) => {
      for (const way of refs[i] || []) {
        if (way.length >= chosen.length && chosen.every((r, k) => way[k] === r)) out.push({ i, way });
      }
    });
    return out;
  }

  function distinct(list) { return [...new Set(list.map((c) => c.i))]; }

  function svgRoot() { return holder && holder.querySelector("svg"); }

  function find(ref) {
    const root = svgRoot();
    return root ? [...root.querySelectorAll("[data-ref]")].filter((e) => e.getAttribute("data-ref") === ref) : [];
  }

  /** Lights what may be clicked next, marks what was clicked, and says where things stand. */
  function light() {
    const root = svgRoot();
    if (!root) return;
    root.querySelectorAll(".pickable, .picked").forEach((e) => {
      e.classList.remove("pickable", "picked");
    });
    root.querySelectorAll(".pick-badge, .ghost, .flight, .flight-end, .mark").forEach((e) => e.remove());
    if (!armed) { showBar([]); return; }
    if (steps) { lightSteps(root); return; }
    const left = candidates();
    const next = new Set(left.filter((c) => c.way.length > chosen.length).map((c) => c.way[chosen.length]));
    const chips = [];
    for (const ref of next) {
      if (!find(ref).length && !markOf(ref, left)) chips.push(ref);
      for (const e of find(ref)) {
        e.classList.add("pickable");
      }
    }
    if (toShow && !chosen.length) showLit(root);
    chosen.forEach((ref, k) => badge(ref, k + 1));
    let done = distinct(left.filter((c) => c.way.length === chosen.length));
    if (chosen.length) fan(distinct(left), false);
    if (chosen.length && done.length) drawPose(done[shown % done.length]);
    if (chosen.length && next.size && chips.length === next.size && distinct(left).length <= WHOLE) {
      done = distinct(left); // what is left to choose is words alone, among a few moves: each offered whole
      chips.length = 0;
    }
    const single = distinct(left); // one move left that asks for its last click (a card thrown away)
    const asking = !done.length && single.length === 1 && poses[single[0]] && poses[single[0]].confirm;
    showBar(done, chips, turns(left), asking ? single[0] : null);
  }

  /** Lights the refs the server says may come next in a listing chosen step by step. */
  function lightSteps(root) {
    const chips = [];
    for (const ref of steps.next) {
      const found = find(ref);
      if (!found.length) chips.push(ref);
      found.forEach((e) => e.classList.add("pickable"));
    }
    if (toShow && !chosen.length) showLit(root);
    chosen.forEach((ref, k) => badge(ref, k + 1));
    showBar([], chips, []);
  }

  /** Scrolls the board's box to what the viewer may click now (a Mékong programme's cards lie
   * below the river), else to the viewer's own piece (``data-focus``); done once a decision, when
   * its lit elements are drawn. */
  function showLit(root) {
    const lit = root.querySelectorAll("[data-ref].pickable");
    if (window.DH.bringIntoBox(holder, lit)) toShow = false;
    else window.DH.bringIntoBox(holder, root.querySelectorAll("[data-focus]"));
  }

  /** The ways up (``turn``) a piece may be drawn in at its next place: the moves still possible
   * whose next click is the place (``at``) where their ghost lies, told apart by their pose alone. */
  function turns(left) {
    const next = left.filter((c) => c.way.length === chosen.length + 1 && poses[c.i] && poses[c.i].ghost &&
      poses[c.i].at === c.way[chosen.length]);
    const byPlace = new Map();
    for (const c of next) {
      if (!byPlace.has(c.way[chosen.length])) byPlace.set(c.way[chosen.length], new Set());
      byPlace.get(c.way[chosen.length]).add(poses[c.i].turn || 0);
    }
    const all = new Set();
    for (const ways of byPlace.values()) if (ways.size > 1) ways.forEach((t) => all.add(t));
    return [...all].sort((a, b) => a - b);
  }

  /** Of the moves ``list`` (indices) posed at one place, the one drawn the way up chosen. */
  function wayUp(list) {
    const want = turn ?? Math.min(...list.map((i) => poses[i].turn || 0));
    return list.find((i) => (poses[i].turn || 0) === want) ?? list[0];
  }

  /** A free point of the board a move names (``pose.mark``), drawn as a disc to click. */
  function markOf(ref, left) {
    const c = left.find((c) => c.way[chosen.length] === ref && poses[c.i] && poses[c.i].mark);
    if (!c) return false;
    const pose = poses[c.i], root = svgRoot();
    const frame = (pose.frame && root.querySelector('[data-frame="' + pose.frame + '"]')) || root;
    const dot = document.createElementNS(SVGNS, "circle");
    const [x, y, r] = pose.mark;
    dot.setAttribute("cx", x); dot.setAttribute("cy", y); dot.setAttribute("r", r);
    dot.setAttribute("class", "mark pickable");
    dot.setAttribute("data-ref", ref);
    frame.append(dot);
    return true;
  }

  /** The words of a ref the board does not draw, from the moves that name it. */
  function labelOf(ref) {
    for (const pose of poses) if (pose && pose.labels && pose.labels[ref]) return pose.labels[ref];
    return ref;
  }

  /** What was clicked, in words: the move's own label for it, else what the picture calls the
   * element (its title: "the red and blue card", or a button's words), else "a place on the board". */
  function chosenWords(ref) {
    const label = labelOf(ref);
    if (label !== ref) return label;
    for (const e of find(ref)) {
      const title = [...e.children].find((c) => c.nodeName.toLowerCase() === "title");
      const words = (title ? title.textContent : e.getAttribute("aria-label") || (e.classList.contains("button") ? e.textContent : "")).trim();
      if (words) return words.replace(/^(The|An?) /, (w) => w.toLowerCase()); // mid-sentence
    }
    return "a place on the board";
  }

  /** Faint paths of the moves ``list`` (a flight's choices so far), when there are few enough. */
  function fan(list, hover) {
    const paths = list.filter((i) => poses[i] && poses[i].path);
    if (!paths.length || paths.length > 60) return;
    for (const i of paths) drawPath(poses[i], "fan" + (hover ? " hover" : ""));
  }

  function drawPath(pose, extra) {
    const root = svgRoot();
    const frame = (pose.frame && root.querySelector('[data-frame="' + pose.frame + '"]')) || root;
    const line = document.createElementNS(SVGNS, "polyline");
    line.setAttribute("points", pose.path.map((p) => p.join(",")).join(" "));
    line.setAttribute("class", "flight ends-" + (pose.ends || "ok") + (extra ? " " + extra : ""));
    frame.append(line);
    if (extra) return;
    const end = pose.path[pose.path.length - 1];
    const dot = document.createElementNS(SVGNS, "circle");
    dot.setAttribute("cx", end[0]); dot.setAttribute("cy", end[1]); dot.setAttribute("r", 20); // track units: a few pixels
    dot.setAttribute("class", "flight-end ends-" + (pose.ends || "ok"));
    frame.append(dot);
  }

  /** A small number beside the k-th element clicked, so a sequence (a programme) reads in order. */
  function badge(ref, k) {
    const target = find(ref).filter((e) => !e.classList.contains("picked"))[0] || find(ref)[0];
    if (!target) return;
    target.classList.add("picked");
    const box = target.getBBox();
    const g = document.createElementNS(SVGNS, "g");
    g.setAttribute("class", "pick-badge");
    const c = document.createElementNS(SVGNS, "circle");
    c.setAttribute("cx", box.x + box.width); c.setAttribute("cy", box.y); c.setAttribute("r", 9);
    const t = document.createElementNS(SVGNS, "text");
    t.setAttribute("x", box.x + box.width); t.setAttribute("y", box.y + 4);
    t.setAttribute("text-anchor", "middle"); t.setAttribute("font-size", "12");
    t.textContent = String(k);
    g.append(c, t);
    (target.ownerSVGElement || svgRoot()).append(g);
  }

  /** The pose of move ``i``: its piece drawn where it would lie, turned as it would be; its path. */
  function drawPose(i, hover) {
    const pose = poses[i];
    const root = svgRoot();
    if (!pose || !root) return;
    if (pose.ghost && pose.at) {
      const piece = find(pose.ghost)[0], spot = find(pose.at)[0];
      if (piece && spot) {
        const a = piece.getBBox(), b = spot.getBBox();
        const ghost = piece.cloneNode(true);
        ghost.removeAttribute("data-ref");
        ghost.setAttribute("class", hover ? "ghost hover" : "ghost");
        ghost.setAttribute("aria-hidden", "true");
        const scale = Math.min(b.width / a.width, b.height / a.height);
        ghost.setAttribute("transform",
          `translate(${b.x + b.width / 2} ${b.y + b.height / 2}) rotate(${pose.turn || 0}) scale(${scale}) ` +
          `translate(${-(a.x + a.width / 2)} ${-(a.y + a.height / 2)})`);
        root.append(ghost);
      }
    }
    if (pose.path && pose.path.length > 1) drawPath(pose, hover ? "hover" : "");
  }

  /** The bar under the board: what was chosen, what to do next, and a button for each move that
   * is chosen whole (or, with ``only``, for the one move left that still asks for its last click). */
  function showBar(done, chips, ways, only) {
    if (!bar) return;
    if (!armed) { bar.hidden = true; bar.replaceChildren(); return; }
    bar.hidden = false;
    const items = [];
    const text = chosen.length ? "Chosen: " + chosen.map(chosenWords).join(", then ") + ". " : "";
    const help = done.length ? "Play it, or choose more." : only != null
      ? sentence(only) + "? Click the outlined place to do it, or start again."
      : ways && ways.length > 1
      ? "Choose where it goes: it is put down as its ghost shows (turn the card first for the other way up)."
      : "Choose on the board: the outlined places start a move.";
    items.push(el("span", { class: "pick-help", text: text + help }));
    for (const ref of chips || []) {
      const chip = el("button", { type: "button", class: "chip pickable", "data-ref": ref, text: labelOf(ref) });
      chip.addEventListener("click", () => pick(ref));
      items.push(chip);
    }
    const ending = done.length === 1 && poses[done[0]] && poses[done[0]].ends;
    if (ending === "wall" || ending === "crash") {
      items.push(el("strong", { class: "pick-warn", text: ending === "wall" ? "This flight hits the wall." : "This flight ends in a crash." }));
    }
    const turnable = done.length > 1 && done.every((i) => poses[i] && poses[i].ghost);
    if (turnable) {
      const current = done[shown % done.length];
      items.push(button("Turn it", "turn", () => { shown += 1; light(); }));
      items.push(button(sentence(current), "confirm", () => send(current)));
    } else {
      for (const i of done) items.push(button(sentence(i), "confirm", () => send(i)));
    }
    if (only != null) items.push(button(sentence(only), "confirm", () => send(only)));
    if (ways && ways.length > 1) {
      items.push(button("Turn the card", "turn", () => {
        turn = ways[(ways.indexOf(turn ?? ways[0]) + 1) % ways.length];
        light();
        if (hovered) ghostAt(hovered);
      }));
    }
    if (chosen.length) items.push(button("Start again", "secondary", startAgain));
    const focused = bar.contains(document.activeElement);
    bar.replaceChildren(...items);
    if (focused) { // a keyboard user's choice was drawn anew: the focus stays among the choices
      const first = bar.querySelector("button");
      if (first) first.focus();
    }
  }

  function startAgain() {
    chosen = []; shown = 0;
    if (restart) { steps = { next: [], choose: null }; restart(); }
    light();
  }

  function sentence(i) {
    const said = window.DH.moveText(moves[i]);
    return said ? said.charAt(0).toUpperCase() + said.slice(1) : "Play this";
  }

  function button(text, cls, onclick) {
    const b = el("button", { type: "button", class: cls, text });
    b.addEventListener("click", () => { clicks += 1; onclick(); });
    return b;
  }

  /** Sends move ``i``, unless the page still awaits the answer to a move before it (then the
   * choice stays as it is, to send again). */
  function send(i) {
    if (!play(moves[i])) return;
    armed = false;
    sent += 1;
    light();
  }

  /** A click on ``ref``: the candidates narrow; one left is played (a posed one is shown first). */
  function pick(ref) {
    clicks += 1;
    chosen.push(ref);
    if (steps) { // the server says what may follow: nothing is lit until it has
      const choose = steps.choose;
      steps = { next: [], choose: null };
      light();
      if (choose) choose(chosen.slice());
      return;
    }
    shown = 0;
    const found = candidates();
    const left = distinct(found);
    const only = poses[left[0]] || {}, whole = found.some((c) => c.way.length === chosen.length);
    if (left.length === 1 && !only.path && (whole || !only.confirm)) { send(left[0]); return; }
    // a piece put down at the place its ghost showed it, nothing more to click: played the way up shown
    const placed = found.every((c) => c.way.length === chosen.length && poses[c.i] && poses[c.i].ghost && poses[c.i].at === ref);
    const apart = new Set(left.map((i) => (poses[i] && poses[i].turn) || 0)).size === left.length;
    if (left.length > 1 && placed && apart) { send(wayUp(left)); return; }
    light();
  }

  function refAt(event) {
    const stack = document.elementsFromPoint(event.clientX, event.clientY);
    for (const node of stack) {
      if (!holder.contains(node)) continue;
      if (node.closest && node.closest(".ghost:not(.hover)")) return { ghost: true };
      const hit = node.closest && node.closest("[data-ref].pickable");
      if (hit) return { ref: hit.getAttribute("data-ref") };
    }
    return null;
  }

  function onClick(event) {
    if (!armed) { // a player's board with nothing to choose: say why rather than nothing
      if (bar && idle) say("Nothing to play on the board now. " + idle());
      return;
    }
    const hit = refAt(event);
    if (!hit) {
      say(chosen.length
        ? "That place does not follow what you chose: choose one of the outlined places, or start again."
        : "That is not one of your moves: the outlined places start a move.");
      return;
    }
    event.preventDefault();
    say("");
    if (hit.ghost) { clicks += 1; shown += 1; light(); return; }
    pick(hit.ref);
  }

  /** A short note under the board about the last click that chose nothing ("" clears it). */
  function say(text) {
    if (!note) return;
    note.textContent = text;
    note.hidden = !text;
  }

  function onHover(event) {
    if (!armed) return;
    const hit = event.target.closest && event.target.closest("[data-ref].pickable");
    const root = svgRoot();
    if (!root) return;
    root.querySelectorAll(".hover").forEach((e) => e.remove());
    hovered = hit ? hit.getAttribute("data-ref") : null;
    if (hovered) ghostAt(hovered);
  }

  /** Draws faintly what a click on ``ref`` would make: the piece there, the way up chosen; a path. */
  function ghostAt(ref) {
    const root = svgRoot();
    if (root) root.querySelectorAll(".hover").forEach((e) => e.remove());
    const next = candidates().filter((c) => c.way[chosen.length] === ref);
    const posed = distinct(next.filter((c) => poses[c.i] && poses[c.i].at === ref));
    if (posed.length) drawPose(wayUp(posed), true);
    fan(distinct(next), true);
  }

  /** Sets the board up for ``holder`` (the board's container) and ``barNode`` (its choices). */
  function attach(holderNode, barNode, onPlay, whyIdle) {
    holder = holderNode; bar = barNode; play = onPlay; idle = whyIdle || null;
    if (bar) {
      note = el("p", { class: "pick-note", role: "status" });
      note.hidden = true;
      bar.after(note);
    }
    fit();
    window.DH.openOn(holder);
    holder.addEventListener("click", onClick);
    window.addEventListener("resize", () => { // a phone turned, a window resized: what to choose stays in view
      const root = svgRoot();
      if (armed && !chosen.length && root) showLit(root);
    });
    holder.addEventListener("pointerover", onHover);
    if (bar) bar.addEventListener("pointerover", onHover);
  }

  /** The viewer's legal moves now (none: nothing to play), with their refs and poses; ``list.version``
   * the game's version they belong to. ``start``: the refs already chosen, which every move listed
   * begins with (a listing chosen step by step), and ``back`` what goes back to its first step. */
  function arm(list, refList, poseList, start, back) {
    const again = armed && !steps && list && list.version !== undefined && list.version === moves.version;
    moves = list || []; refs = refList || []; poses = poseList || []; steps = null; restart = back || null;
    if (!again) { chosen = []; shown = 0; turn = null; toShow = true; say(""); } // the same decision listed again keeps what was chosen
    if (start && start.length && !start.every((r, k) => chosen[k] === r)) chosen = start.slice();
    const was = armed;
    armed = moves.some((m, i) => (refs[i] || []).length > 0);
    light();
    if (armed && !was) bringIntoView();
  }

  /** On a narrow screen, when a decision comes, scrolls the board and its choices into view
   * together (they are sized to fit one screen), unless they are already. */
  function bringIntoView() {
    if (!bar || window.innerWidth > 800) return;
    const top = holder.getBoundingClientRect().top, bottom = bar.getBoundingClientRect().bottom;
    if (top < 0 || bottom > window.innerHeight) holder.closest("section").scrollIntoView({ block: "start" });
  }

  /** One step of a listing chosen step by step: ``start`` chosen so far, ``next`` the refs that may
   * come next, ``choose`` called with the refs chosen once one is clicked. */
  function step(start, next, choose, back) {
    const was = armed;
    moves = []; refs = []; poses = []; steps = { next, choose }; restart = back || null;
    if (!start.length) toShow = true;
    chosen = start.slice(); shown = 0; armed = true;
    light();
    if (!was) bringIntoView();
  }

  function disarm() { armed = false; chosen = []; steps = null; light(); }

  /** Draws the board no smaller than its own units (DH.fitBoard); a board wider or taller than its
   * box scrolls inside it, beside its choices. */
  function fit() { window.DH.fitBoard(svgRoot()); }

  /** The board was drawn again: size it, and light it as it was. */
  function redrawn() { fit(); light(); }

  return { attach, arm, step, disarm, redrawn, clicks: () => clicks, sent: () => sent };
})();
