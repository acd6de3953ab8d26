// Move controls built from the legal moves the API lists and the game's move schema: nothing here
// knows a rule. A move type with few legal moves gets one button per move; one with many (a Mékong
// programme, a Drachenreiter flight) gets one select per field, each listing only the values that
// some legal move still has given the fields chosen before it.
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

  /** The fields of a move type in the schema's order, arrays opened into one key per position. */
  function keysOf(type, moves, schema) {
    const props = (((schema || {}).$defs || {})[type] || {}).properties || moves[0];
    const keys = [];
    for (const name of Object.keys(props)) {
      if (name === "type") continue;
      const longest = Math.max(0, ...moves.map((m) => (Array.isArray(m[name]) ? m[name].length : -1)));
      if (longest > 0) for (let i = 0; i < longest; i++) keys.push([name, i]);
      else keys.push([name, null]);
    }
    return keys;
  }

  function valueAt(move, [name, index]) {
    const v = move[name];
    const at = index === null ? v : Array.isArray(v) ? v[index] : null;
    return JSON.stringify(at === undefined ? null : at);
  }

  function description(type, name, schema) {
    const def = (((schema || {}).$defs || {})[type] || {});
    const prop = (def.properties || {})[name] || {};
    return prop.description || def.description || "";
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

  function cascade(type, moves, schema, play) {
    const keys = keysOf(type, moves, schema);
    const box = el("div", { class: "fields" });
    const go = el("button", { type: "button", text: "Play " + words(type) });
    const chosen = [];
    const selects = keys.map(([name, index], i) => {
      const id = "f-" + type + "-" + name + (index === null ? "" : "-" + index);
      const text = words(name) + (index === null ? "" : " " + (index + 1));
      const select = el("select", { id, title: description(type, name, schema) || null });
      select.addEventListener("change", () => { chosen[i] = select.value; refresh(i + 1); });
      box.append(el("label", { for: id, text }), select);
      return select;
    });

    function candidates(upTo) {
      return moves.filter((m) => keys.slice(0, upTo).every((k, j) => valueAt(m, k) === chosen[j]));
    }

    function refresh(from) {
      for (let i = from; i < keys.length; i++) {
        const values = [...new Set(candidates(i).map((m) => valueAt(m, keys[i])))];
        const select = selects[i];
        select.replaceChildren(...values.map((v) => el("option", { value: v, text: show(JSON.parse(v)) })));
        if (!values.includes(chosen[i])) chosen[i] = values[0];
        select.value = chosen[i];
        select.disabled = values.length < 2;
      }
      go.disabled = candidates(keys.length).length !== 1;
    }

    go.addEventListener("click", () => {
      const left = candidates(keys.length);
      if (left.length === 1) play(left[0]);
    });
    refresh(0);
    return el("div", {}, box, go);
  }

  /** Fills ``container`` with the controls of ``moves`` (every legal move of the viewer's seat). */
  function render(container, moves, schema, play) {
    const byType = new Map();
    for (const m of moves) {
      if (!byType.has(m.type)) byType.set(m.type, []);
      byType.get(m.type).push(m);
    }
    const groups = [];
    for (const [type, list] of byType) {
      const legend = el("legend", { text: words(type) + " (" + list.length + (list.length === 1 ? " way)" : " ways)") });
      const body = asButtons(list) ? buttons(type, list, play) : cascade(type, list, schema, play);
      groups.push(el("fieldset", { "data-type": type }, legend, body));
    }
    container.replaceChildren(...groups);
  }

  return { render, label };
})();
