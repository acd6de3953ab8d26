// Invite by name: the invite field (the lobby's, a table's) suggests the names holding what is typed
// after the last comma (GET /api/v1/players?q=), but for those its data-known lists (the inviter,
// and at a table those seated or invited already), as an ARIA combobox: ↓ ↑ choose, Enter or a click
// takes the name, Escape closes. Without this script the field still takes names separated by commas.
"use strict";
(function () {
  const input = document.getElementById("new-invite");
  const list = document.getElementById("invite-suggestions");
  if (!input || !list) return;
  let active = -1, asked = 0, timer = null;

  function segment() {
    const parts = input.value.split(",");
    return parts[parts.length - 1].trim();
  }

  function close() {
    list.hidden = true;
    list.replaceChildren();
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }

  function choose(name) {
    const parts = input.value.split(",");
    parts[parts.length - 1] = (parts.length > 1 ? " " : "") + name;
    input.value = parts.join(",") + ", ";
    close();
    input.focus();
  }

  function mark(index) {
    const items = list.querySelectorAll("[role=option]");
    items.forEach((li, i) => li.setAttribute("aria-selected", String(i === index)));
    active = index;
    if (index >= 0 && items[index]) input.setAttribute("aria-activedescendant", items[index].id);
    else input.removeAttribute("aria-activedescendant");
  }

  async function suggest() {
    const text = segment();
    if (!text) { close(); return; }
    const mine = ++asked;
    let found = [];
    try {
      const response = await fetch("/api/v1/players?limit=8&q=" + encodeURIComponent(text),
        { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (response.ok) found = (await response.json()).players;
    } catch (e) { found = []; }
    if (mine !== asked) return;  // a later keystroke asked again
    const known = JSON.parse(input.dataset.known || "[]");  // yourself, and who is seated or invited
    const taken = input.value.split(",").slice(0, -1).concat(known).map((s) => s.trim().toLowerCase());
    found = found.filter((p) => !taken.includes(p.name.toLowerCase()));
    if (!found.length) { close(); return; }
    list.replaceChildren(...found.map((p, i) => {
      const li = document.createElement("li");
      li.id = "invite-option-" + i;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      li.dataset.name = p.name;
      li.textContent = p.name + (p.kind === "bot" ? " (bot)" : "");
      li.addEventListener("mousedown", (e) => { e.preventDefault(); choose(p.name); });
      return li;
    }));
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    mark(-1);
  }

  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(suggest, 120); });
  input.addEventListener("blur", () => setTimeout(close, 100));
  input.addEventListener("keydown", (e) => {
    const items = list.querySelectorAll("[role=option]");
    if (list.hidden || !items.length) return;
    if (e.key === "ArrowDown") { e.preventDefault(); mark((active + 1) % items.length); }
    else if (e.key === "ArrowUp") { e.preventDefault(); mark((active - 1 + items.length) % items.length); }
    else if (e.key === "Enter" && active >= 0) { e.preventDefault(); choose(items[active].dataset.name); }
    else if (e.key === "Escape") { e.preventDefault(); close(); }
  });
})();
