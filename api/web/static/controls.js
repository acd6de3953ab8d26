// Move controls built from the legal moves the API lists, in the game's words: nothing here knows a
// rule. A move type with few legal moves gets one button per move, named by the move's phrase; one
// with many (a Mékong programme, a Drachenreiter flight) gets one select per choice the game words
// for it ("Card to lay": "the red dragon card"), each listing only the answers that some legal move
// still has given the answers chosen before it.
"use strict";
window.DHControls = (function () {
  const { el, words } = window.DH;
  const BUTTONS_UP_TO = 8;
  const ONE_FIELD_BUTTONS_UP_TO = 30;

  function show(value) {
    if (value === null || value === undefined) return "none";
    if (typeof value === "string") return words(value);
    return JSON.stringify(value);
  }

  function label(move) {
    const said = window.DH.moveText(move);
    if (said) return said.charAt(0).toUpperCase() + said.slice(1);
    const fields = Object.entries(move).filter(([k]) => k !== "type");
    if (fields.length === 1) return words(move.type) + ": " + show(fields[0][1]);
    return words(move.type) + (fields.length ? ": " + fields.map(([k, v]) => words(k) + " " + show(v)).join(", ") : "");
  }

  function asButtons(list) {
    const fields = new Set(list.flatMap((m) => Object.keys(m).filter((k) => k !== "type")));
    return list.length <= BUTTONS_UP_TO || (fields.size <= 1 && list.length <= ONE_FIELD_BUTTONS_UP_TO);
  }

  function buttons(type, moves, play) {
    const box = el("div", { class: "choices" });
    for (const move of moves) {
      const button = el("button", { type: "button", "data-move": JSON.stringify(move), text: label(move) });
      button.addEventListener("click", () => play(move));
      box.append(button);
    }
    return box;
  }

  /** The moves of one type as the game words their choices (``DH.moveChoices``): each move's
   * [question, answer] pairs, when the game gives them for every move, as many for each; else each
   * move as one choice, its whole phrase. */
  function stepsOf(moves) {
    const steps = moves.map((m) => window.DH.moveChoices(m));
    if (steps.every((s) => s && s.length && s.length === steps[0].length)) return steps;
    return moves.map((m) => [["Move", label(m)]]);
  }

  /** One select per choice, in the game's words, each listing only the answers that some legal
   * move still has given the answers chosen before it; the button plays the move they name. */
  function cascade(type, moves, play) {
    const steps = stepsOf(moves);
    const count = steps[0].length;
    const box = el("div", { class: "fields" });
    const go = el("button", { type: "button", text: "Play" });
    const chosen = [], labels = [], selects = [];
    for (let i = 0; i < count; i++) {
      const id = "f-" + type + "-" + i;
      const select = el("select", { id });
      select.addEventListener("change", () => { chosen[i] = select.value; refresh(i + 1); });
      const text = el("label", { for: id });
      labels.push(text);
      selects.push(select);
      box.append(text, select);
    }

    /** The moves (their indices) whose first ``upTo`` answers are those chosen. */
    function candidates(upTo) {
      return moves.map((_, k) => k).filter((k) => steps[k].slice(0, upTo).every((step, j) => step[1] === chosen[j]));
    }

    function refresh(from) {
      for (let i = from; i < count; i++) {
        const left = candidates(i);
        const values = [...new Set(left.map((k) => steps[k][i][1]))];
        labels[i].textContent = steps[left[0]][i][0];
        selects[i].replaceChildren(...values.map((v) => el("option", { value: v, text: v })));
        if (!values.includes(chosen[i])) chosen[i] = values[0];
        selects[i].value = chosen[i];
        selects[i].disabled = values.length < 2;
      }
      const left = candidates(count);
      go.textContent = left.length ? "Play: " + (window.DH.moveText(moves[left[0]]) || label(moves[left[0]])) : "Play";
      go.disabled = !left.length;
    }

    // Moves whose answers are all alike read alike in the game's words too: either is the same to play.
    go.addEventListener("click", () => {
      const left = candidates(count);
      if (left.length) play(moves[left[0]]);
    });
    refresh(0);
    return el("div", {}, box, go);
  }

  /** Calls ``then`` once, the controls of ``container`` disabled meanwhile: a step asks the server
   * for the next, and a second press before its answer would ask again, and again (a key held, a
   * double click), each asking cancelling the last. */
  function once(container, then) {
    return () => {
      container.querySelectorAll("button, select").forEach((c) => (c.disabled = true));
      then();
    };
  }

  /** A button that goes back to the first step of a listing chosen step by step. */
  function again(container, restart) {
    const b = el("button", { type: "button", class: "secondary", text: "Start again" });
    b.addEventListener("click", once(container, restart));
    return b;
  }

  /** One step of a listing chosen step by step (a Mékong programme, card by card): the answers the
   * server says may come next (``page.next``, in words) in one select, and what was chosen before. */
  function steps(container, page, choose, restart, said) {
    const type = page.next[0].move.type, id = "f-" + type + "-" + page.chosen.length;
    const select = el("select", { id }, ...page.next.map((s) => el("option", { value: s.ref, text: s.answer })));
    const go = el("button", { type: "button", text: "Choose" });
    go.addEventListener("click", once(container, () => choose(page.chosen.concat([select.value]))));
    const legend = el("legend", { text: ((page.kinds || {})[type] || words(type)) + " (" + page.total.toLocaleString("en") + " ways)" });
    const parts = [legend];
    if (said.length) parts.push(el("p", { text: "Chosen so far: " + said.join(", ") + "." }));
    parts.push(el("div", { class: "fields" }, el("label", { for: id, text: page.next[0].question }), select), go);
    if (restart) parts.push(again(container, restart));
    container.replaceChildren(el("fieldset", { "data-type": type }, ...parts));
  }

  /** Fills ``container`` with the controls of ``moves`` (every legal move of the viewer's seat, or
   * those that begin with the steps chosen so far: ``restart`` goes back to the first). */
  function render(container, moves, play, restart) {
    const byType = new Map();
    for (const m of moves) {
      if (!byType.has(m.type)) byType.set(m.type, []);
      byType.get(m.type).push(m);
    }
    const groups = [];
    for (const [type, list] of byType) {
      const legend = el("legend", { text: (window.DH.kindText(type) || words(type)) + " (" + list.length.toLocaleString("en") + (list.length === 1 ? " way)" : " ways)") });
      const body = asButtons(list) ? buttons(type, list, play) : cascade(type, list, play);
      groups.push(el("fieldset", { "data-type": type }, legend, body));
    }
    if (restart) groups.push(again(container, restart));
    container.replaceChildren(...groups);
  }

  return { render, steps, label };
})();
