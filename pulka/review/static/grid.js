// pulka review: a doubtful deal row corrected as a grid of its printed columns, or typed on one
// line ("B 7NT whist pass 6 3 1", "Б 7БК вист пас 6 3 1"). The server's /api/row gives the
// columns (headings and places on the crop), /api/row-check the rules engine's verdict; only a
// legal deal can be saved (through decide()). Loaded after review.js, before decide.js.
"use strict";

const grid = { cell: null, doc: null, deal: null, verdict: null, asked: 0 };

// A doubtful card never calls its reading "sure": the score is the reading's share among the
// legal readings, and a row whose ink is no legal deal shows the nearest legal one.
function confidenceText(cell) {
  if (cell.note_code === "not_legal") {
    return ` · ${t("the ink is no legal deal: this is the nearest legal one")}`;
  }
  if (cell.status === "doubtful") return ` · ${t("doubtful ({p} of the readings)", { p: percent(cell.confidence) })}`;
  return ` · ${t("{p} sure", { p: percent(cell.confidence) })}`;
}

function rowCard(cell) {
  // The grid's place in the card: filled when the row's columns arrive.
  grid.cell = cell;
  grid.doc = null;
  grid.verdict = null;
  const box = el("div", { class: "row-grid", id: "row-grid" },
    el("p", { class: "muted" }, t("loading the row's columns…")));
  api(`/api/row/${encodeURIComponent(cell.sheet)}/${encodeURIComponent(cell.key)}`)
    .then((doc) => {
      if (grid.cell !== cell) return;
      grid.doc = doc;
      grid.deal = copyDeal(cell.value);
      drawGrid();
      checkDeal();
    })
    .catch((error) => box.replaceChildren(el("p", { class: "error" }, error.message)));
  box.addEventListener("keydown", (event) => {
    // Enter and Space press the focused button; the page's own keys stay out of the grid.
    if (event.target instanceof HTMLButtonElement && (event.key === "Enter" || event.key === " ")) {
      event.stopPropagation();
    }
  });
  return box;
}

function copyDeal(value) {
  const deal = value && typeof value === "object" ? JSON.parse(JSON.stringify(value)) : {};
  return { type: deal.type || "contract", ...deal };
}

function levelOf(deal) {
  if (deal.type === "misere") return "misere";
  const match = /^(\d+)/.exec(deal.contract || "");
  return match ? match[1] : null;
}

function suitOf(deal) {
  const match = /^\d+(C|D|H|S|NT)$/.exec(deal.contract || "");
  return match ? match[1] : null;
}

function chosen(column) {
  const deal = grid.deal;
  if (column.group === "declarer") return deal.type === "allpass" ? "allpass" : deal.declarer;
  if (column.group === "level") return levelOf(deal);
  if (column.group === "suit") return suitOf(deal);
  if (column.group === "call") return (deal.defence || {})[column.seat] || null;
  return null;
}

function disabledWhy(column, option) {
  // What cannot be chosen whatever the rest says: the 4-player dealer sits out, the declarer
  // has no call, an all-pass has no contract, a misère no suit and no calls.
  const { players } = grid.doc;
  const deal = grid.deal;
  if (column.group === "declarer" && option !== "allpass" && !players.includes(option)) {
    return t("the dealer sits out this deal");
  }
  if ((column.group === "level" || column.group === "suit") && deal.type === "allpass") {
    return t("an all-pass has no contract");
  }
  if (column.group === "suit" && deal.type === "misere") return t("a misère has no suit");
  if (column.group === "call") {
    if (!players.includes(column.seat)) return t("the dealer sits out this deal");
    if (deal.type !== "contract") return t("only a contract is whisted");
    if (column.seat === deal.declarer) return t("the declarer has no call");
  }
  if (column.group === "tricks" && !players.includes(column.seat)) {
    return t("the dealer sits out this deal");
  }
  return null;
}

function choose(column, option) {
  const deal = grid.deal;
  if (column.group === "declarer") {
    if (option === "allpass") {
      grid.deal = { type: "allpass", tricks: deal.tricks };
    } else {
      deal.type = deal.type === "allpass" ? "contract" : deal.type;
      deal.declarer = option;
      if (deal.defence) delete deal.defence[option];
    }
  } else if (column.group === "level") {
    if (option === "misere") {
      Object.assign(deal, { type: "misere" });
      delete deal.contract; delete deal.defence;
    } else {
      deal.type = "contract";
      deal.contract = option + (suitOf(deal) || "S");
    }
  } else if (column.group === "suit") {
    deal.contract = (levelOf(deal) && levelOf(deal) !== "misere" ? levelOf(deal) : "6") + option;
  } else if (column.group === "call") {
    deal.defence = { ...(deal.defence || {}), [column.seat]: option };
  }
  drawGrid();
  checkDeal();
}

function setNumber(column, text) {
  const deal = grid.deal;
  const n = text.trim() === "" ? null : Number(text);
  if (column.group === "tricks") {
    const tricks = { ...(deal.tricks || {}) };
    if (n === null) delete tricks[column.seat]; else tricks[column.seat] = n;
    if (Object.keys(tricks).length) deal.tricks = tricks; else delete deal.tricks;
  } else if (column.group === "talon") {
    if (n === null || n === 0) delete deal.talon; else deal.talon = { quick_tricks: n };
  }
  checkDeal();
}

function columnControl(column) {
  if (column.group === "tricks" || column.group === "talon") {
    const value = column.group === "talon" ? ((grid.deal.talon || {}).quick_tricks ?? "")
      : ((grid.deal.tricks || {})[column.seat] ?? "");
    const why = disabledWhy(column, null);
    return el("input", { type: "text", inputmode: "numeric", maxlength: 2, value: String(value),
      class: "tricks", disabled: Boolean(why), title: why, "data-group": column.group,
      "data-seat": column.seat || "", "aria-label": column.heading,
      oninput: (event) => setNumber(column, event.target.value),
      onkeydown: (event) => {
        if (event.key === "Enter") { event.preventDefault(); event.stopPropagation(); saveGrid(); }
      } });
  }
  if (column.group === "result" || column.group === "result_tricks") {
    return el("output", { class: "result", "data-group": column.group }, resultPart(column.group));
  }
  const now = chosen(column);
  return el("div", { class: "options", role: "radiogroup", "aria-label": column.heading },
    column.options.map((option) => {
      const why = disabledWhy(column, option.value);
      return el("button", { type: "button", class: option.value === now ? "on" : null,
        "aria-pressed": String(option.value === now), disabled: Boolean(why),
        title: why || `${column.heading}: ${option.label}`, "data-group": column.group,
        "data-seat": column.seat || "", "data-option": option.value,
        onclick: () => choose(column, option.value) }, option.label);
    }));
}

function resultPart(group) {
  // The result columns follow from the deal: "9♣/=" is "=" then no tricks, "8♥/-1" "-" and 1.
  const result = grid.verdict && grid.verdict.legal ? grid.verdict.result : "";
  const match = /\/([=+-])(\d*)$/.exec(result);
  if (!match) return "";
  return group === "result" ? match[1].replace("-", "−") : match[2];
}

function drawGrid() {
  const { doc } = grid;
  const box = $("#row-grid");
  if (!box || !doc) return;
  const widths = doc.columns.map((c) => `minmax(min-content, ${Math.max(c.x1 - c.x0, 0.01)}fr)`);
  const headings = el("div", { class: "headings", "aria-hidden": "true" }, doc.columns.map((c) =>
    el("span", { title: c.heading, "data-x0": c.x0, "data-x1": c.x1 }, c.short)));
  const crop = grid.cell.has_crop ? el("img", { class: "row-ink",
    alt: t("ink of {where}", { where: grid.cell.key }),
    src: imgUrl(grid.cell.sheet, "crop", grid.cell.key) })
    : el("p", { class: "muted" }, t("no crop stored"));
  const controls = el("div", { class: "controls" }, doc.columns.map((c) => el("div", {
    class: `col ${c.group}` }, el("div", { class: "heading" }, c.heading), columnControl(c))));
  controls.style.gridTemplateColumns = widths.join(" ");
  box.replaceChildren(el("div", { class: "ink" }, headings, crop), controls,
    el("p", { class: "verdict", id: "verdict", "aria-live": "polite" }),
    el("div", { class: "buttons" }, el("button", { type: "button", class: "primary", id: "grid-save",
      onclick: saveGrid, disabled: true }, t("Save this deal"))));
  for (const span of headings.children) {
    span.style.left = `${Number(span.dataset.x0) * 100}%`;
    span.style.width = `${(Number(span.dataset.x1) - Number(span.dataset.x0)) * 100}%`;
  }
  showVerdict();
}

function checkDeal() {
  return askVerdict({ deal: grid.deal });
}

async function askVerdict(what) {
  const cell = grid.cell;
  grid.asked += 1;
  const asked = grid.asked;
  const verdict = await api("/api/row-check", { sheet: cell.sheet, key: cell.key, ...what });
  if (asked !== grid.asked || cell !== grid.cell) return null;  // a later question won
  grid.verdict = verdict;
  if (verdict.legal && what.text !== undefined) {
    grid.deal = copyDeal(verdict.deal);
    drawGrid();
  } else {
    showVerdict();
  }
  return verdict;
}

function showVerdict() {
  const node = $("#verdict");
  const save = $("#grid-save");
  if (!node || !save) return;
  const verdict = grid.verdict;
  save.disabled = !(verdict && verdict.legal);
  for (const out of document.querySelectorAll("#row-grid output.result")) {
    out.textContent = resultPart(out.dataset.group);
  }
  if (!verdict) { node.textContent = ""; return; }
  node.className = `verdict ${verdict.legal ? "legal" : "illegal"}`;
  node.textContent = verdict.legal
    ? t("legal: {line} · {result} · ⏎ saves it", { line: verdict.line, result: verdict.result })
    : t("not saved: {reason}", { reason: verdict.reason });
}

function saveGrid() {
  const verdict = grid.verdict;
  if (!verdict || !verdict.legal) {
    showStatus(verdict ? t("not a legal deal: {reason}", { reason: verdict.reason })
      : t("still checking the deal"), true);
    return null;
  }
  return decide(grid.cell, "type", { value: verdict.deal });
}

function enterRow(cell, input) {
  // ⏎ in the one-line box: the typed line checked by the rules, saved when legal.
  const text = input.value.trim();
  if (!text) {
    if (grid.verdict && grid.verdict.legal && grid.deal && JSON.stringify(grid.deal)
      !== JSON.stringify(copyDeal(cell.value))) return saveGrid();
    if (cell.candidates.length) return decide(cell, "accept", { candidate: 1 });
    showStatus(t("type the deal, e.g. B 7NT whist pass 6 3 1"), true);
    return null;
  }
  return enqueue(() => askVerdict({ text })).then((verdict) => {
    if (!verdict) return null;
    if (!verdict.legal) {
      showStatus(t("not saved: {reason}", { reason: verdict.reason }), true);
      return null;
    }
    return decide(cell, "type", { value: verdict.deal });
  });
}

// -- a deal row in the sheet view's editor: the one-line form, not JSON ---------------------

function rowEditorLine(target, input) {
  // The row's one-line form fills the editor once the server sends it.
  input.value = "";
  input.placeholder = t("B 7NT whist pass 6 3 1");
  api(`/api/row/${encodeURIComponent(target.sheet)}/${encodeURIComponent(target.key)}`)
    .then((doc) => { if (!input.value) input.value = doc.line; })
    .catch((error) => showStatus(error.message, true));
}

function rowEditorSave(target, input, close) {
  // The typed line checked by the rules; saved when legal, else the reason and the editor stays.
  return api("/api/row-check", { sheet: target.sheet, key: target.key, text: input.value })
    .then((verdict) => {
      if (!verdict.legal) {
        showStatus(t("not saved: {reason}", { reason: verdict.reason }), true);
        input.focus();
        return null;
      }
      close();
      return decide(target, "type", { value: verdict.deal });
    })
    .catch((error) => showStatus(error.message, true));
}
