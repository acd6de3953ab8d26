// The lobby's form: show only the chosen variant's options, and bound the players by its seats.
"use strict";
(function () {
  const variant = document.getElementById("new-variant");
  if (!variant) return;
  const players = document.getElementById("new-players");
  function sync() {
    const option = variant.selectedOptions[0];
    document.querySelectorAll("fieldset.options").forEach((f) => {
      const mine = f.dataset.variant === variant.value;
      f.hidden = !mine;
      f.querySelectorAll("input, select").forEach((i) => (i.disabled = !mine));
    });
    if (option) {
      players.min = option.dataset.min;
      players.max = option.dataset.max;
      const n = Number(players.value);
      if (n < Number(players.min)) players.value = players.min;
      if (n > Number(players.max)) players.value = players.max;
    }
  }
  variant.addEventListener("change", sync);
  sync();
})();
