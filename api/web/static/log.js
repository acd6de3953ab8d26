// The game page's words: the narrated log (GET /log, grouped by turn, followed live and paced so a
// person can follow another seat's decisions), the status line (whose turn it is), the notices that
// stay until read (a clock ran out and the server played for a seat), and the alerts when it is the
// viewer's turn while the tab is in the background (title, favicon badge, a sound, a notification).
// Every sentence comes from the server (the game's own narrator): nothing here knows a rule.
"use strict";
window.DHLog = (function () {
  const { api, el } = window.DH;
  const $ = (id) => document.getElementById(id);
  const PACE_MS = 700; // one line of another seat's turn at a time: designed, skippable
  const CATCH_UP_MS = 3000; // however many lines wait, the last is shown this soon: a clock runs meanwhile
  let ENDED = []; // the statuses a game ends in, as the server gives them (start)
  let gid = null, yours = [], seats = [], version = 0, state = { status: "", awaiting: [] };
  let result = null, current = null, queue = [], pacing = null, following = Promise.resolve();
  let loaded = false, sending = false, wasMyTurn = false;

  // ------------------------------------------------------------ the status line

  function nameOf(seat, full) {
    const s = seats.find((x) => x.seat === seat);
    if (!s) return full ? "an open seat" : "a player";
    return full ? s.full : s.name;
  }

  function listing(words) {
    return words.length < 2 ? words.join("") : words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
  }

  function isMine(seat) { return yours.includes(seat); }

  /** Whose turn it is, in words: the same rule as the server's (services/game_log.status_line). */
  /** Whose turn it is, in words; ``brief``: of the viewer's turn, not who else plays at once (the
   * line above the move controls, where the status line above the board says it all). */
  function statusText(brief) {
    const { status, awaiting } = state;
    const taken = seats.length, planned = state.planned || taken;
    if (status === "open") return "Waiting for players: " + taken + " of " + planned + " seats taken.";
    if (status === "scheduled") return "Waiting for the start: " + taken + " of " + planned + " seats taken.";
    if (ENDED.includes(status)) return result || "This game has ended.";
    const mine = awaiting.filter(isMine), others = awaiting.filter((s) => !isMine(s));
    if (mine.length) {
      const colours = yours.length > 1 ? " (" + listing(mine.map((s) => (seats.find((x) => x.seat === s) || {}).colour)) + ")" : "";
      return "Your turn" + colours + (others.length && !brief ? "; " + listing(others.map((s) => nameOf(s, true))) + " also to play." : ".");
    }
    if (sending) return "Sending your move…";
    if (others.length) return "Waiting for " + listing(others.map((s) => nameOf(s, true))) + ".";
    return "The game is moving on.";
  }

  function showStatus() {
    const line = $("status-line"), outcome = $("outcome");
    const text = statusText();
    if (line && line.textContent !== text) line.textContent = text;
    const over = ENDED.includes(state.status) && !!result;
    if (line) line.hidden = over; // once over, the result says who won and why
    if (outcome && over) { outcome.textContent = result; outcome.hidden = false; }
    if (line) line.classList.toggle("yours", state.awaiting.some(isMine) && !ENDED.includes(state.status));
    alertTurn(state.awaiting.some(isMine) && state.status === "active");
  }

  /** The game moved: its status and the seats awaited now (from a stream line or a read). */
  function update(next) {
    state = { ...state, ...next };
    if (next.awaiting && next.awaiting.some(isMine)) sending = false;
    showStatus();
  }

  function moveSent(on) { sending = on; showStatus(); }

  // ------------------------------------------------------------ the log

  function group(heading) {
    const list = el("ol", { class: "lines" });
    const section = el("section", { class: "turn", "aria-label": heading }, el("h3", { text: heading }), list);
    $("log").prepend(section);
    current = list;
    return list;
  }

  function line(entry, step, fresh) {
    if (entry.turn) group(entry.turn);
    if (!current) group("The table");
    if (entry.quiet) return;
    const item = el("li", { text: entry.text, "data-step": String(step.step), "data-version": String(entry.version) });
    if (entry.notice) item.classList.add("notice");
    if (fresh) item.classList.add("fresh");
    current.append(item);
    if (entry.notice) notice(entry.text, entry.version, step.seat);
    if (fresh) {
      announce(entry.text);
      // a board may follow the paced log: draw board.svg?at=version as each line shows
      document.dispatchEvent(new CustomEvent("dh:line", { detail: { version: entry.version, step: step.step } }));
    }
  }

  function linesOf(steps) {
    const out = [];
    for (const step of steps) for (const entry of step.lines) out.push([entry, step]);
    return out;
  }

  /** Lines of a decision the viewer did not make are shown one at a time; the viewer's own at once. */
  function enqueue(steps) {
    for (const [entry, step] of linesOf(steps)) {
      const own = step.seat !== null && step.seat !== undefined && isMine(step.seat) && step.kind === "move";
      if (own && !queue.length) line(entry, step, false);
      else queue.push([entry, step]);
    }
    if (queue.length) pace();
  }

  function pace() {
    const skip = $("log-skip");
    if (document.hidden) { skipAll(); return; }
    if (skip) skip.hidden = false;
    if (pacing) return;
    const delay = () => Math.min(PACE_MS, CATCH_UP_MS / Math.max(1, queue.length));
    const tick = () => {
      const next = queue.shift();
      if (next) line(next[0], next[1], true);
      if (!queue.length) stopPacing();
      else pacing = setTimeout(tick, delay());
    };
    pacing = setTimeout(tick, delay());
  }

  function stopPacing() {
    if (pacing) { clearTimeout(pacing); document.dispatchEvent(new CustomEvent("dh:caught-up", { detail: { version } })); }
    pacing = null;
    const skip = $("log-skip");
    if (skip) skip.hidden = true;
  }

  function skipAll() {
    while (queue.length) { const [entry, step] = queue.shift(); line(entry, step, false); }
    stopPacing();
  }

  function announce(text) {
    const live = $("log-live");
    if (live) live.textContent = text;
  }

  function takeWords(log) {
    seats = log.seats;
    result = log.result;
    version = Math.max(version, log.version);
    if (log.status) state = { ...state, status: log.status };
  }

  /** The whole log, as the page opens (a reload shows what happened while the viewer was away). */
  async function load() {
    const log = await api("GET", "/games/" + gid + "/log");
    $("log").replaceChildren();
    current = null;
    takeWords(log);
    for (const [entry, step] of linesOf(log.steps)) line(entry, step, false);
    loaded = true;
    showStatus();
    restoreNotices();
  }

  /** The steps after what the log shows, once the game is at ``atLeast`` (a stream line's version).
   * Once the game has ended everything is revealed: the whole log is read again, as a reload would. */
  function follow(atLeast) {
    following = following.then(async () => {
      if (!loaded || atLeast <= version) return;
      const log = await api("GET", "/games/" + gid + "/log?after=" + version);
      if (ENDED.includes(log.status)) { skipAll(); await load(); return; }
      takeWords(log);
      enqueue(log.steps);
      showStatus();
    }).catch(() => {});
    return following;
  }

  // ------------------------------------------------------------ notices that stay

  function dismissed() {
    try { return JSON.parse(localStorage.getItem("dh-notices-" + gid) || "[]"); } catch (e) { return []; }
  }

  function notice(text, at, seat) {
    const box = $("notices");
    if (!box || dismissed().includes(at) || box.querySelector('[data-version="' + at + '"]')) return;
    const mine = seat !== null && seat !== undefined && isMine(seat);
    const close = el("button", { type: "button", class: "secondary", text: "Dismiss" });
    const item = el("div", { class: "notice-box" + (mine ? " mine" : ""), role: "alert", "data-version": String(at) },
      el("p", { text }), close);
    close.addEventListener("click", () => {
      localStorage.setItem("dh-notices-" + gid, JSON.stringify([...dismissed(), at].slice(-50)));
      item.remove();
    });
    box.prepend(item);
    while (box.children.length > 3) box.lastChild.remove();
  }

  function restoreNotices() {
    // what the log showed as notices concerns the past: keep only those of the viewer's seats, unread
    const box = $("notices");
    if (!box) return;
    box.querySelectorAll(".notice-box:not(.mine)").forEach((n) => n.remove());
  }

  // ------------------------------------------------------------ alerts while the tab is away

  const baseTitle = document.title;
  const icon = document.querySelector('link[rel="icon"]');
  const baseIcon = icon ? icon.getAttribute("href") : null;

  function alertTurn(myTurn) {
    const arrived = myTurn && !wasMyTurn;
    wasMyTurn = myTurn;
    if (!myTurn || !document.hidden) { clearAlert(); if (!arrived) return; }
    if (!arrived || !document.hidden) return;
    document.title = "(Your turn) " + baseTitle;
    if (icon) icon.setAttribute("href", icon.dataset.turn || baseIcon);
    if (prefs().sound) beep();
    if (prefs().notify && window.Notification && Notification.permission === "granted") {
      try { new Notification("Your turn", { body: baseTitle, tag: "dh-" + gid }); } catch (e) { /* not allowed here */ }
    }
  }

  function clearAlert() {
    document.title = baseTitle;
    if (icon && baseIcon) icon.setAttribute("href", baseIcon);
  }

  function prefs() {
    try { return JSON.parse(localStorage.getItem("dh-alerts") || "{}"); } catch (e) { return {}; }
  }

  function setPref(name, on) {
    localStorage.setItem("dh-alerts", JSON.stringify({ ...prefs(), [name]: on }));
  }

  let audio = null;
  function beep() {
    try {
      audio = audio || new AudioContext();
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.4);
    } catch (e) { /* no sound here */ }
  }

  function wireAlerts() {
    const sound = $("alert-sound"), notify = $("alert-notify");
    if (sound) {
      sound.checked = !!prefs().sound;
      sound.addEventListener("change", () => { setPref("sound", sound.checked); if (sound.checked) beep(); });
    }
    if (notify) {
      if (!window.Notification) { notify.disabled = true; notify.parentElement.title = "This browser has no notifications."; }
      notify.checked = !!prefs().notify && window.Notification && Notification.permission === "granted";
      notify.addEventListener("change", async () => {
        if (notify.checked && Notification.permission !== "granted") {
          notify.checked = (await Notification.requestPermission()) === "granted";
        }
        setPref("notify", notify.checked);
      });
    }
    document.addEventListener("visibilitychange", () => { if (!document.hidden) { clearAlert(); skipAll(); } });
  }

  /** Starts the page's words: ``data`` is the page's data (id, your seats, names, status, awaiting). */
  function start(data) {
    ENDED = data.ended_statuses;
    gid = data.id;
    yours = data.your_seats || [];
    seats = data.names || [];
    version = 0;
    state = { status: data.status, awaiting: data.awaiting || [], planned: data.planned_seats };
    const skip = $("log-skip");
    if (skip) skip.addEventListener("click", skipAll);
    wireAlerts();
    showStatus();
    following = load().catch((err) => { announce("The log could not be loaded: " + window.DH.plainError(err) + "."); });
    return following;
  }

  function idle() { return following.then(() => !queue.length); }

  /** The session ended (game.js heard it): no seat is the viewer's any more, and the log is read
   * again as a signed-out watcher reads it (its seats named as a watcher reads them). */
  function signedOut() {
    yours = [];
    sending = false;
    showStatus();
    following = following.then(() => { skipAll(); return load(); }).catch((err) => {
      announce("The log could not be loaded: " + window.DH.plainError(err) + ".");
    });
    return following;
  }

  return { start, update, follow, moveSent, skipAll, idle, statusText, signedOut, name: nameOf };
})();
