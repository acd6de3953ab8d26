// A table before its start, drawn again in place: when a seat is taken or given up, the page's
// table parts (its heading, its status line, the seats and what the viewer may do there) are read
// again from the server and put in place of the old ones. A reload would lose what the person was
// typing (a name to invite, a reason to decline) and could cut short a page they were already
// leaving for; this keeps the rest of the page, the typed values and the focus.
"use strict";
window.DHTable = (function () {
  const PARTS = ["game-heading", "table-seats"];
  // Live regions whose words change in place, so that a screen reader hears the new ones (a node
  // put in a live region's place is not announced).
  const SPOKEN = ["status-line"];
  // A form kept as it is (its node, its listeners, what is typed in it), its data-known brought up
  // to date: the invite field's suggestions (invite.js) are bound to its nodes.
  const KEPT = ["invite-form"];
  let running = null, again = false;

  /** Reads the page again and swaps its table parts in (once more if a change came meanwhile).
   * Resolves with the fresh page's data, or null when the page was drawn whole instead (the table
   * started or closed). */
  function redraw() {
    if (running) { again = true; return running; }
    running = (async () => {
      try {
        let fresh;
        do { again = false; fresh = await read(); } while (again && fresh);
        return fresh;
      } finally {
        running = null;
      }
    })();
    return running;
  }

  async function read() {
    const response = await fetch(window.location.pathname, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!response.ok) throw new Error(response.statusText);
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const data = JSON.parse(page.getElementById("page-data").textContent);
    if (!["open", "scheduled"].includes(data.status)) { window.location.reload(); return null; }
    swap(page);
    document.title = page.title;
    return data;
  }

  function swap(page) {
    const focused = document.activeElement && document.activeElement.id;
    const typed = values();
    for (const id of KEPT) {
      const old = document.getElementById(id), next = page.getElementById(id);
      if (old && next) {
        next.querySelectorAll("[data-known]").forEach((n) => {
          const mine = old.querySelector("#" + n.id);
          if (mine) mine.dataset.known = n.dataset.known;
        });
        next.replaceWith(document.adoptNode(old));
      }
    }
    for (const id of PARTS) {
      const old = document.getElementById(id), next = page.getElementById(id);
      if (old && next) old.replaceWith(document.adoptNode(next));
    }
    for (const id of SPOKEN) {
      const old = document.getElementById(id), next = page.getElementById(id);
      if (!old || !next) continue;
      old.className = next.className;
      old.hidden = next.hidden;
      if (old.textContent !== next.textContent) old.textContent = next.textContent;
    }
    for (const [id, value] of typed) {
      const field = document.getElementById(id);
      if (field && !field.closest("#" + KEPT.join(", #"))) field.value = value;
    }
    const again = focused && document.getElementById(focused);
    if (again && again !== document.activeElement) again.focus();
  }

  /** What the person has typed or chosen in the table's fields, by id. */
  function values() {
    const out = [];
    const seats = document.getElementById("table-seats");
    if (!seats) return out;
    seats.querySelectorAll("input[id]:not([type=hidden]), select[id], textarea[id]").forEach((f) => out.push([f.id, f.value]));
    return out;
  }

  return { redraw };
})();
