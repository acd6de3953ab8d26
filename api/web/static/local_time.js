// Times in the reader's own time zone: <time datetime="ISO" data-local="datetime"> shows the date
// and time where the browser is, data-local="date" the date alone; data-countdown="ISO" counts down
// to it ("in 2 h 05 min"), each second.
"use strict";
(function () {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const format = new Intl.DateTimeFormat(undefined, {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short",
  });
  const day = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "long", year: "numeric" });
  document.querySelectorAll("time[data-local]").forEach((t) => {
    const when = new Date(t.getAttribute("datetime"));
    if (!isNaN(when)) {
      t.textContent = (t.dataset.local === "date" ? day : format).format(when);
      t.title = "your time (" + zone + ")";
    }
  });

  function left(ms) {
    if (ms <= 0) return "now";
    const s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60), r = s % 60;
    if (d) return "in " + d + " day" + (d === 1 ? "" : "s") + " " + h + " h";
    if (h) return "in " + h + " h " + String(m).padStart(2, "0") + " min";
    if (m) return "in " + m + " min " + String(r).padStart(2, "0") + " s";
    return "in " + r + " s";
  }
  const counters = Array.from(document.querySelectorAll("[data-countdown]"));
  function tick() {
    const now = Date.now();
    counters.forEach((c) => { c.textContent = left(Date.parse(c.dataset.countdown) - now); });
  }
  if (counters.length) { tick(); setInterval(tick, 1000); }
  document.querySelectorAll('input[name="tz"]').forEach((i) => { i.value = zone; });
})();
