// The game page: live from the game's stream (Server-Sent Events; long polling when a stream cannot
// be held), the board redrawn at each change, the clocks counting down, and the viewer's controls
// built from its legal moves (controls.js). The log, the status line, the notices and the alerts
// are log.js's (window.DHLog), in the game's own words from the server.
"use strict";
(function () {
  const { api, svg, pageData, el, showBoard, remaining, duration } = window.DH;
  const words = window.DHLog;
  const board = window.DHBoard;
  const STATUS_WORDS = { open: "open for players", scheduled: "scheduled", active: "running", finished: "finished",
    abandoned: "abandoned", cancelled: "cancelled" };
  const data = pageData();
  const gid = data.id;
  const $ = (id) => document.getElementById(id);
  let version = data.version, status = data.status, awaiting = data.awaiting, clocks = data.clocks;
  let lastMoves = [];
  let seats = data.seats, busy = false, boardWanted = 0, boardDrawn = 0, movesWanted = 0, stream = null, failures = 0;
  let polling = false, out = false; // out: the session ended while the page was open (dh:signed-out)
  let waiting; // the moves of a line that came while the viewer's move was on its way
  // A listing's name apart from its version (``listing``, where the game gives one: a Mékong
  // programme): the latest line's, and the one being read. While the others decide, the same
  // listing stands: it is neither read again nor taken off the board with the choices made in it.
  let listing, fetching;

  function setStatus(text) { $("live-state").textContent = text; }

  function commandId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return "web-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function ended() { return data.ended_statuses.includes(status); }

  // ------------------------------------------------------------ what the page shows

  /** Draws the board as it is now. Pictures asked for one after another may come back in any
   * order: each is drawn unless a picture asked for after it was drawn first, so the board shows
   * a move's result as soon as its picture comes, not only once the latest one asked for does. */
  async function redrawBoard() {
    if (!data.draws_board || status === "open" || status === "scheduled") return;
    const wanted = ++boardWanted;
    const text = await svg("/games/" + gid + "/board.svg");
    if (wanted > boardDrawn) { boardDrawn = wanted; showBoard($("board"), text); board.redrawn(); }
  }

  function showHead() {
    $("version").textContent = version;
    const badge = $("status");
    if (badge) { badge.textContent = STATUS_WORDS[status] || status; badge.className = "status status-" + status; }
    words.update({ status, awaiting });
    const list = $("seats").querySelector("ol, ul");
    if (list) {
      list.querySelectorAll("li").forEach((li, i) => {
        li.querySelectorAll(".badge").forEach((b) => b.remove());
        if (awaiting.includes(i)) li.append(" ", el("span", { class: "badge", text: "to play" }));
      });
    }
  }

  function showClocks() {
    const box = $("clocks");
    if (!clocks || ended()) { box.replaceChildren(); return; }
    const rows = [];
    for (const [seat, c] of Object.entries(clocks)) {
      if (!c || (!c.deadline && c.bank === null)) continue;
      const name = words.name(Number(seat), true);
      const left = c.running ? remaining(c.deadline) : c.bank !== null ? c.bank : c.remaining;
      const low = c.running && left !== null && left < 60;
      const text = name + ": " + (left === null ? "" : duration(left)) + (c.running ? " left" : " (waiting)") +
        (c.on_vacation ? " · on vacation" : "");
      rows.push(el("li", { class: "clock" + (low ? " low" : "") }, text,
        c.deadline && c.running ? el("small", { text: " · deadline " + c.deadline.slice(0, 16).replace("T", " ") + " UTC" }) : ""));
    }
    box.replaceChildren(rows.length ? el("ul", { "aria-label": "Clocks" }, ...rows) : "");
  }

  // ------------------------------------------------------------ the viewer's moves

  /** How many pages of moves are asked for at once. A browser opens six connections to a server:
   * a Mékong programme's 49 pages, asked for all at once, held the board's picture back behind
   * them for seconds after the move before it. */
  const PAGES_AT_ONCE = 2;

  /** Whether the moves of ``legal`` (a listing shown or being read) are the game's moves now: it
   * is of the page's version, or the latest line names the same listing. */
  function stands(legal) {
    return legal.version === version || (legal.listing !== undefined && legal.listing === listing);
  }

  /** Whether a line's listing ``legal`` is the one the board offers or is reading now. */
  function sameListing(legal) {
    return Boolean(!busy && legal && legal.listing && (legal.listing === fetching || legal.listing === lastMoves.listing));
  }

  /** Every legal move with its words (``texts``, the game's phrase for each: DH.moveText), read a
   * few pages at a time; null when the game moved on (or a newer listing was asked for) meanwhile. */
  async function allMoves(legal, wanted) {
    if (!legal) return [];
    const offsets = [];
    for (let offset = 0; offset < legal.total; offset += 1000) offsets.push(offset);
    const pages = [];
    for (let i = 0; i < offsets.length; i += PAGES_AT_ONCE) {
      if (wanted !== movesWanted || !stands(legal)) return null;
      const asked = offsets.slice(i, i + PAGES_AT_ONCE).map((offset) =>
        api("GET", "/games/" + gid + "/legal-moves?words=true&offset=" + offset + "&limit=1000"));
      pages.push(...(await Promise.all(asked)));
    }
    return gathered(legal, pages);
  }

  /** Whether ``page``, an answer read for the listing ``legal``, still lists it: of its version, or
   * of a later one that names the same listing. */
  function belongs(page, legal) {
    return page.version === legal.version || Boolean(legal.listing && page.listing === legal.listing);
  }

  /** Says whose turn it is and how many moves the viewer has. */
  function sayChoice(total) {
    $("turn").textContent = words.statusText(true) + (total === 1 ? " One move is possible."
      : " Choose one of " + total.toLocaleString("en") + " moves.");
  }

  /** The moves of ``pages`` (of ``legal``) with their words, refs and poses; null when the game
   * moved on, and with it this listing, meanwhile (the next line brings the new one). */
  function gathered(legal, pages) {
    const moves = [], texts = [], choices = [], refs = [], poses = [], kinds = {};
    for (const page of pages) {
      if (!belongs(page, legal)) return null;
      moves.push(...page.moves);
      texts.push(...(page.texts || []));
      choices.push(...(page.choices || []));
      Object.assign(kinds, page.kinds || {});
      refs.push(...(page.refs || []));
      poses.push(...(page.poses || []));
    }
    window.DH.setMoveTexts(moves, texts, choices, kinds);
    moves.refs = refs; moves.poses = poses; moves.version = legal.version; moves.listing = legal.listing;
    return moves;
  }

  /** Lists the viewer's moves of ``legal`` (a line's summary) as controls and on the board. While
   * a move of the viewer's is on its way nothing is offered (a click then would be lost): the last
   * line's moves wait, and are shown once the answer came (``settle``). A listing that arrives
   * after a newer one was asked for is dropped, so the board never offers an older version's moves. */
  async function showMoves(legal) {
    const controls = $("controls");
    if (!controls) return;
    if (sameListing(legal)) { // the others decided: the moves offered, or being read, stand
      if (legal.listing === lastMoves.listing) lastMoves.version = legal.version;
      return;
    }
    const wanted = ++movesWanted;
    if (out) return; // signed out: the seat's moves are no longer this page's to offer
    if (busy) { waiting = legal; return; }
    waiting = undefined;
    const turn = $("turn");
    if (!legal || !legal.total || ended()) {
      controls.replaceChildren();
      board.disarm();
      turn.textContent = ended() ? "The game has ended: nothing more to play." : words.statusText();
      if (ended()) $("play").hidden = true; // nothing to play, and no one to resign from
      return;
    }
    if (legal.total > STEP_OVER) { showStep(legal, [], wanted); return; }
    fetching = legal.listing;
    const moves = await allMoves(legal, wanted);
    if (fetching === legal.listing) fetching = undefined;
    if (moves === null || wanted !== movesWanted || busy || !stands(legal)) return;
    offer(legal, moves);
  }

  /** Offers ``moves`` (of ``legal``) on the board and as controls. */
  function offer(legal, moves) {
    lastMoves = moves;
    // brief: at a six-seat table "also to play" named five players there, pushing the controls
    // below a phone's screen (the status line above the board names them)
    sayChoice(legal.total);
    window.DHControls.render($("controls"), moves, play, moves.restart);
    board.arm(moves, moves.refs, moves.poses, moves.chosen, moves.restart);
    keepFocus();
  }

  /** More moves than a page (a Mékong programme's tens of thousands) are chosen step by step: the
   * server says which refs may follow those ``chosen`` (``narrow``), until few enough moves are left
   * to list whole, which the board and the controls then narrow themselves. */
  const STEP_OVER = 1000;
  const stepWords = {}; // each ref offered as a step, in words ("Jump"), to say what was chosen

  async function showStep(legal, chosen, wanted) {
    fetching = legal.listing;
    let page;
    try {
      page = await api("GET", "/games/" + gid + "/legal-moves?words=true&narrow=true&limit=1000&chosen=" +
        encodeURIComponent(chosen.join(" ")));
    } catch (err) { // the step could not be read: say so, and offer its first step again
      if (fetching === legal.listing) fetching = undefined;
      const box = $("move-error");
      box.replaceChildren(el("p", { text: "The next choices could not be read: " + window.DH.plainError(err) + "." }));
      box.hidden = false;
      if (chosen.length && wanted === movesWanted) showStep(legal, [], ++movesWanted);
      return;
    }
    if (fetching === legal.listing) fetching = undefined;
    if (wanted !== movesWanted || busy || !stands(legal)) return;
    $("move-error").hidden = true;
    const restart = () => showStep(legal, [], ++movesWanted);
    if (page.moves.length === page.total) { // few enough to list whole: the board narrows them itself
      const moves = gathered(legal, [page]);
      if (moves === null) return;
      moves.chosen = chosen; moves.restart = chosen.length ? restart : null;
      offer(legal, moves);
      return;
    }
    if (!belongs(page, legal)) return;
    page.next.forEach((step) => { stepWords[step.ref] = step.answer; });
    lastMoves = Object.assign([], { version: legal.version, listing: legal.listing });
    sayChoice(legal.total);
    const choose = (refs) => showStep(legal, refs, ++movesWanted);
    window.DHControls.steps($("controls"), page, choose, chosen.length ? restart : null, chosen.map((r) => stepWords[r]));
    board.step(chosen, page.next.map((step) => step.ref), choose, restart);
    keepFocus();
  }

  // ------------------------------------------------------------ the keyboard's place

  let byKeyboard = false, home = null; // the last input was a key; where the keyboard last was

  /** Where the keyboard is among the move's choices: the board's buttons, the move controls, or
   * elsewhere (null). */
  function regionOf(node) {
    if (!node || !node.closest) return null;
    return node.closest("#board-pick") ? "board-pick" : node.closest("#controls") ? "controls" : null;
  }

  document.addEventListener("keydown", () => { byKeyboard = true; }, true);
  document.addEventListener("pointerdown", () => { byKeyboard = false; }, true);
  document.addEventListener("focusin", (event) => { home = regionOf(event.target); });

  /** The choices were drawn anew, dropping the element that had the focus: a keyboard user who was
   * choosing there finds the focus on the first of the new choices, not back at the page's top. */
  function keepFocus() {
    if (!byKeyboard || !home) return;
    const at = document.activeElement;
    if (at && at !== document.body && regionOf(at) === home) return;
    if (at && at !== document.body) return; // the keyboard went on elsewhere
    const box = $(home);
    const first = box && !box.hidden && box.querySelector("button:not([disabled]), select:not([disabled])");
    if (first) first.focus();
  }

  /** Plays ``move``; false when another of the viewer's moves is still on its way (then the
   * caller keeps its choice: nothing was sent). */
  function play(move) {
    if (busy) return false;
    busy = true;
    lastMoves.listing = undefined; // what is offered after the answer is read anew
    $("play").dataset.sent = String(Number($("play").dataset.sent || 0) + 1);
    board.disarm();
    submit(move).then(settle);
    return true;
  }

  /** After a move's answer: the game as it is now when the move was refused as stale, else the
   * moves of the last line that came while the move was on its way. */
  function settle(stale) {
    busy = false;
    if (stale) refresh();
    else if (waiting !== undefined) showMoves(waiting);
  }

  /** Sends ``move`` as chosen at version ``at``; true when it was refused because the game had
   * moved on. Refused so only because others decided at the same time (a simultaneous phase:
   * ``sameDecision``), it is sent once more at the version the game is at, as the person chose it. */
  async function submit(move, at = version, again = false) {
    const box = $("move-error");
    box.hidden = true;
    $("controls").querySelectorAll("button, select").forEach((b) => (b.disabled = true));
    try {
      words.moveSent(true);
      $("turn").textContent = "Sending your move…";
      const made = await api("POST", "/games/" + gid + "/moves", { move, expected_version: at, command_id: commandId() });
      redrawBoard(); // the move is saved: its result is drawn without waiting for the stream's line
      const last = made.events.filter((e) => e.awaiting).pop();
      if (last && made.version >= version) words.update({ awaiting: last.awaiting });
      words.moveSent(false);
      // the answer is back: say so at once, not "sending" until the next line (which, or the
      // next decision's moves, then says it in its own words)
      $("turn").textContent = "Your move was played. " + words.statusText();
      return false;
    } catch (err) {
      const code = err.body && err.body.error && err.body.error.code;
      if (code === "stale_version" && !again) {
        const now = await sameDecision(at, move).catch(() => null);
        if (now !== null) return submit(move, now, true);
      }
      words.moveSent(false);
      $("turn").textContent = out ? SIGNED_OUT : words.statusText(true); // no longer "Sending your move…"
      const rule = err.body && err.body.error && err.body.error.rule;
      const what = window.DH.moveText(move) || "play that";
      const why = err.status === 409 ? "the game moved on before it arrived; here is the game as it is now." : rule ? rule.text : window.DH.plainError(err) + ".";
      box.replaceChildren(el("p", { text: "You could not " + what + ": " + why }));
      box.hidden = false;
      if (err.status === 409 || out) return err.status === 409;
      board.arm(lastMoves, lastMoves.refs, lastMoves.poses, lastMoves.chosen, lastMoves.restart); // refused by a rule: the same moves stand
      $("controls").querySelectorAll("button, select").forEach((b) => (b.disabled = false));
      return false;
    }
  }

  /** The version the game is at when it has moved on since ``from`` only by other seats deciding
   * while the viewer's seat was awaited the whole time (each event since left it awaited, none was
   * its own: no timeout played for it, no new decision began) and ``move`` is still one of its
   * legal moves; else null. Then the viewer's decision is the one the move was chosen in. */
  async function sameDecision(from, move) {
    const mine = new Set(data.your_seats || []);
    const since = await api("GET", "/games/" + gid + "/events?after=" + from);
    if (!since.events.length) return null;
    for (const e of since.events) {
      const awaited = e.awaiting ? e.awaiting.some((s) => mine.has(s)) : !mine.has(e.data && e.data.seat);
      if (!awaited) return null;
    }
    const legal = await api("GET", "/games/" + gid + "/legal-moves?limit=1000");
    const wanted = JSON.stringify(move);
    if (legal.version !== since.events[since.events.length - 1].version) return null; // moved on again
    return legal.moves.some((m) => JSON.stringify(m) === wanted) ? legal.version : null;
  }

  // ------------------------------------------------------------ the stream, or polling

  // Before its start a table's page is the server's drawing of who sits where and what the viewer
  // may do (take a seat, leave, start, take a bot off): a seat taken or given up has its table
  // parts drawn again in place (table.js); the start, or the table closed, the whole page.
  const BEFORE_START = ["open", "scheduled"];
  const SEATINGS = ["SeatTaken", "SeatGivenUp", "Started", "Abandoned"];
  const TURNS = ["Started", "Abandoned"];
  const seated = (list) => list.map((s) => s.seat + ":" + s.player_id).join(" ");
  function tableMoved(doc) {
    return BEFORE_START.includes(data.status) && (doc.status !== data.status || seated(doc.seats) !== seated(data.seats));
  }
  // A form of this page sent (take a seat, leave, start...) is already bringing the page anew: a
  // reload for the seat event it caused would only cut that answer short.
  let leaving = false;
  window.addEventListener("beforeunload", () => { leaving = true; });
  window.addEventListener("pageshow", () => { leaving = false; });  // back again from the history
  function reload() { if (!leaving) window.location.reload(); }
  function redraw(whole) {
    if (leaving) return;
    if (whole || !window.DHTable) { reload(); return; }
    window.DHTable.redraw().then((fresh) => {
      if (!fresh) return;
      Object.assign(data, fresh);
      seats = data.seats; status = data.status;
      version = Math.max(version, fresh.version);
      words.follow(version); // the log tells who sat down or left, as the page no longer reloads
    }).catch(reload);
  }

  function onGame(line) {
    if (line.version < version) return; // a read that left before the last line came: older than shown
    const doc = line.game;
    if (tableMoved(doc)) { redraw(doc.status !== data.status); return; }
    // what was lit belongs to the game as it was, unless this seat's listing stands
    if (line.version !== version && !sameListing(line.legal_moves)) board.disarm();
    listing = line.legal_moves ? line.legal_moves.listing : undefined;
    version = line.version; status = doc.status; awaiting = doc.awaiting; clocks = doc.clocks; seats = doc.seats;
    showHead(); showClocks(); redrawBoard(); showMoves(line.legal_moves); words.follow(version);
    setStatus(ended() ? "This game has ended." : stream ? "Live." : "Live (polling).");
    if (ended()) finish();
  }

  function onEvents(line) {
    const events = line.events || [];
    if (BEFORE_START.includes(data.status) && events.some((e) => SEATINGS.includes(e.type))) {
      redraw(events.some((e) => TURNS.includes(e.type)) || line.status !== data.status);
      return;
    }
    if (line.version !== version && !sameListing(line.legal_moves)) board.disarm();
    listing = line.legal_moves ? line.legal_moves.listing : undefined;
    version = line.version; status = line.status; awaiting = line.awaiting; clocks = line.clocks;
    words.follow(version);
    showHead(); showClocks(); redrawBoard(); showMoves(line.legal_moves);
    if (ended()) finish();
  }

  function finish() {
    setStatus("This game has ended.");
    if (stream) { stream.close(); stream = null; }
    words.update({ status });
  }

  // The creator of a table whose invitees have not all answered hears their declines on the account
  // stream (an acceptance is a seat taken: the game's own stream brings it): the decline is said under
  // the seats and the seat kept for the invitee reads open, in place (a reload could cut short a page
  // the person is already leaving for).
  function awaitAnswers() {
    if (!data.answers_awaited || !window.EventSource) return;
    const account = new EventSource("/api/v1/stream/events");
    window.addEventListener("pagehide", () => account.close());
    account.addEventListener("invitation_declined", (message) => {
      const line = JSON.parse(message.data);
      if (line.game_id !== gid) return;
      const who = line.invitee.name;
      $("seats").querySelectorAll("li em").forEach((em) => {
        if (em.textContent === "kept for " + who + ", who is invited") em.textContent = "open seat";
      });
      $("clocks").after(el("p", { class: "notice", text: who + " declined your invitation: “" + line.reason_text + "”" }));
    });
  }

  function connect() {
    awaitAnswers();
    follow();
  }

  /** Follows the game's stream; by long polling where the browser has none or it failed three times
   * in a row. A stream the server refused (a session gone: 401) is not tried again by the browser
   * itself: the page asks whether the session stands (the header then says so) and opens it anew. */
  function follow() {
    if (!window.EventSource || failures >= 3) {
      if (polling) return;
      polling = true;
      setStatus("Live (polling).");
      refresh().catch(() => {}).then(poll);
      return;
    }
    const source = new EventSource("/api/v1/games/" + gid + "/stream");
    stream = source;
    const read = (handler) => (message) => { failures = 0; handler(JSON.parse(message.data)); };
    source.addEventListener("game", read(onGame));
    source.addEventListener("events", read(onEvents));
    source.addEventListener("error", () => {
      if (stream !== source) return; // closed by the page: another follows the game
      if (ended()) { finish(); return; }
      failures += 1;
      setStatus("Reconnecting…");
      if (failures < 3 && source.readyState !== EventSource.CLOSED) return; // the browser tries again
      source.close();
      stream = null;
      const after = failures >= 3 ? 0 : 1000 * failures;
      const session = document.querySelector('meta[name="csrf-token"]') ? api("GET", "/me").catch(() => null) : Promise.resolve();
      session.then(() => setTimeout(() => { if (!stream && !ended()) follow(); }, after));
    });
  }

  /** The session ended while the page was open (signed out in another tab, or revoked: common.js
   * heard the server's 401). The seat's controls go, "Sending your move…" with them, and the page
   * follows the game as a signed-out watcher does: the log read anew, the stream opened anew. */
  const SIGNED_OUT = "You are signed out: sign in again to play.";
  document.addEventListener("dh:signed-out", () => {
    out = true;
    movesWanted += 1; // a listing being read is not offered
    waiting = undefined;
    lastMoves = [];
    board.disarm();
    const controls = $("controls");
    if (controls) controls.replaceChildren();
    const turn = $("turn");
    if (turn) turn.textContent = SIGNED_OUT;
    const resigning = document.querySelector("#play details.resign");
    if (resigning) resigning.hidden = true;
    words.signedOut();
    if (stream) { const old = stream; stream = null; old.close(); follow(); }
  });

  async function refresh() {
    const doc = await api("GET", "/games/" + gid);
    const legal = doc.your_seats.length && doc.status === "active"
      ? await api("GET", "/games/" + gid + "/legal-moves?limit=1000") : null;
    onGame({ version: doc.version, game: doc, legal_moves: legal });
  }

  async function poll() {
    while (!stream && !ended()) { // polling: the stream is not tried again
      try {
        const got = await api("GET", "/games/" + gid + "/events?after=" + version + "&wait=25");
        if (got.events.length) { words.follow(got.version); await refresh(); }
      } catch (err) {
        setStatus("Offline: retrying…");
        await new Promise((r) => setTimeout(r, 3000));
      }
    }
  }

  const resign = $("resign");
  if (resign) {
    resign.addEventListener("click", async () => {
      if (!window.confirm("Leave this game for good?")) return;
      try { await api("POST", "/games/" + gid + "/resign", {}); } catch (err) {
        window.alert("You could not leave the game: " + window.DH.plainError(err) + ".");
        refresh().catch(() => {}); // the game as it is now (over, say), whatever the stream missed
      }
    });
  }

  board.attach($("board"), $("board-pick"), play, () => $("turn").textContent); // a spectator's board has no choices: it is only sized
  words.start(data);
  showClocks();
  setInterval(showClocks, 1000);
  if (!data.ended) connect();
  else setStatus("This game has ended.");
})();
