// The audit page's dispute form: the moves the disputed step's seat could have chosen, in words, to
// pick from (GET /games/{id}/steps/{n}/choices). A chosen move goes in the form as the game's move
// (the hidden ``move`` field): ``DHDispute.choose(move)`` is how any picker of a move (this list, a
// board) names it. Changing the step opens the form on that step.
"use strict";
window.DHDispute = (function () {
  const $ = (id) => document.getElementById(id);
  const form = $("dispute-form");
  const SHOWN = 200; // options listed at once: a filter narrows the rest
  let moves = [], texts = [];

  function key(move) { return JSON.stringify(move); }

  /** Names ``move`` (a legal move of the step, as the game writes it) as the disputed move. */
  function choose(move) {
    const i = moves.findIndex((m) => key(m) === key(move));
    $("d-move").value = key(move);
    const said = i >= 0 ? texts[i] : "";
    if ($("d-chosen")) $("d-chosen").textContent = said ? "You chose: " + said + "." : "You chose a move.";
  }

  function fill() {
    const select = $("d-choice");
    const words = ($("d-filter").value || "").trim().toLowerCase().split(/\s+/).filter(Boolean);
    const options = [];
    for (let i = 0; i < moves.length && options.length < SHOWN; i++) {
      const text = texts[i] || "";
      if (words.every((w) => text.toLowerCase().includes(w))) {
        const option = document.createElement("option");
        option.value = String(i);
        option.textContent = text.charAt(0).toUpperCase() + text.slice(1);
        options.push(option);
      }
    }
    if (!options.length) {
      const none = document.createElement("option");
      none.value = "";
      none.textContent = moves.length ? "No move has these words." : "No move could be chosen here.";
      options.push(none);
    }
    select.replaceChildren(...options);
  }

  async function load(step) {
    const gid = form.dataset.game;
    let offset = 0, total = 1;
    while (offset < total) {
      const response = await fetch("/games/" + gid + "/steps/" + step + "/choices?offset=" + offset, { credentials: "same-origin" });
      if (!response.ok) { $("d-chosen").textContent = "The moves of this step cannot be listed for you."; return; }
      const page = await response.json();
      moves.push(...page.moves);
      texts.push(...page.texts);
      total = page.total;
      offset += page.moves.length || total;
    }
    fill();
  }

  if (form) {
    const choices = $("d-choices");
    // Choosing a step draws the page again for that step's moves: the claim typed so far, before
    // or while the page is drawn again, comes along (kept as the page goes, put back as it comes).
    const kept = "dh-dispute-claim-" + form.dataset.game;
    const claim = $("d-claim");
    let redrawing = false;
    if (claim && !claim.value && sessionStorage.getItem(kept)) claim.value = sessionStorage.getItem(kept);
    sessionStorage.removeItem(kept);
    window.addEventListener("pagehide", () => {
      if (redrawing && claim && claim.value) sessionStorage.setItem(kept, claim.value);
    });
    $("d-step").addEventListener("change", () => {
      redrawing = true;
      const url = new URL(window.location.href);
      url.searchParams.set("dispute", $("d-step").value);
      url.hash = "dispute-form";
      window.location.assign(url);
    });
    if (choices) {
      $("d-filter").addEventListener("input", fill);
      $("d-choice").addEventListener("change", () => {
        const i = $("d-choice").value;
        if (i !== "") choose(moves[Number(i)]);
      });
      load(choices.dataset.step).catch(() => { $("d-chosen").textContent = "The moves could not be loaded."; });
    }
  }

  return { choose };
})();
