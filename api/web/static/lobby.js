// The lobby's form: show only the chosen variant's options (one value per seat for as many
// players as chosen), bound the players by its seats, list only its game's server bots, and show
// only the chosen clock's fields.
"use strict";
(function () {
  const form = document.getElementById("new-game");
  if (!form) return;
  const variant = document.getElementById("new-variant");
  const players = document.getElementById("new-players");
  const bot = document.getElementById("new-bot");
  const clock = document.getElementById("new-clock");

  function show(node, on) {
    node.hidden = !on;
    node.querySelectorAll("input, select").forEach((i) => (i.disabled = !on));
  }

  function syncVariant() {
    const option = variant.selectedOptions[0];
    if (option) {
      players.min = option.dataset.min;
      players.max = option.dataset.max;
      const n = Number(players.value);
      if (n < Number(players.min)) players.value = players.min;
      if (n > Number(players.max)) players.value = players.max;
    }
    const game = option ? option.dataset.game : "";
    form.querySelectorAll("fieldset.options").forEach((f) => show(f, f.dataset.variant === variant.value));
    Array.from(bot.options).forEach((o) => {
      const mine = !o.dataset.game || o.dataset.game === game;
      o.hidden = !mine;
      o.disabled = !mine;
    });
    if (bot.selectedOptions[0] && bot.selectedOptions[0].disabled) bot.value = "";
    syncSeats();
  }

  function syncSeats() {
    const n = Number(players.value);
    form.querySelectorAll("fieldset.options:not([hidden]) [data-seat]").forEach((node) => {
      const on = Number(node.dataset.seat) <= n;
      node.hidden = !on;
      if (node.tagName === "SELECT") node.disabled = !on;
    });
  }

  function syncClock() {
    form.querySelectorAll("[data-clock]").forEach((d) => show(d, d.dataset.clock === clock.value));
  }

  variant.addEventListener("change", syncVariant);
  players.addEventListener("input", syncSeats);
  clock.addEventListener("change", syncClock);
  syncVariant();
  syncClock();
  // Back to the lobby, the browser puts the chosen variant and clock back after this script ran:
  // the options follow them again.
  window.addEventListener("pageshow", () => { syncVariant(); syncClock(); });
})();
