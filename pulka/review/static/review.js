// pulka review: settle every doubtful cell by keyboard. No framework, no build step.
// The server's API is described in pulka/review/server.py. This file: the state, the API,
// values in words, loading and drawing; sheet.js the sheet view, decide.js decisions and keys.
"use strict";

const MM_PER_INCH = 25.4;
const PAGE_DPI = 100; // straightened page images (scanner.results.STRAIGHT_PAGE_DPI)
const ROW_CROP_PARTS = 2; // a deal row's crop is long: shown cut in this many stacked parts
const PREFETCH = 3; // crops loaded ahead of the current cell
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠", NT: "NT" };

const state = {
  queue: null, items: [], current: null, focus: null, view: "queue",
  panel: null, sheet: null, sheetId: null, standings: null, saving: null, refused: 0,
  chain: Promise.resolve(), pending: 0, lastMs: null, editor: null,
};

const $ = (selector) => document.querySelector(selector);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svgEl(tag, attrs) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
  return node;
}

// The page's language (?lang=), asked of every answer the server words; else the server's.
const PAGE_LANGUAGE = new URLSearchParams(window.location.search).get("lang");

async function api(path, body) {
  const token = document.querySelector('meta[name="pulka-token"]')?.content || "";
  const headers = PAGE_LANGUAGE ? { "X-Pulka-Lang": PAGE_LANGUAGE } : {};
  const options = body === undefined ? { headers } : {
    method: "POST", body: JSON.stringify(body),
    headers: { ...headers, "Content-Type": "application/json", "X-Pulka-Token": token },
  };
  const start = performance.now();
  const response = await fetch(path, options);
  const doc = await response.json();
  state.lastMs = performance.now() - start;
  if (!response.ok) throw new Error(doc.error || response.statusText);
  return doc;
}

// -- values in words ---------------------------------------------------------------------

function contractText(contract) {
  const match = /^(\d+)(C|D|H|S|NT)$/.exec(contract || "");
  return match ? match[1] + SUITS[match[2]] : String(contract);
}

function dealText(deal) {
  if (deal === null || deal === undefined) return t("empty");
  if (typeof deal !== "object") return String(deal);
  const parts = [];
  if (deal.type === "allpass") parts.push(t("all pass"));
  else if (deal.type === "misere") parts.push(`${deal.declarer} ${t("misère")}`);
  else parts.push(`${deal.declarer} ${contractText(deal.contract)}`);
  if (deal.defence) {
    parts.push(Object.entries(deal.defence).map(([seat, what]) => `${seat} ${callWord(what)}`)
      .join(", "));
  }
  if (deal.tricks) {
    parts.push(t("tricks {list}",
      { list: Object.entries(deal.tricks).map(([s, n]) => `${s} ${n}`).join(" ") }));
  }
  if (deal.dealer) parts.push(t("dealt by {seat}", { seat: deal.dealer }));
  return parts.join(" · ");
}

function valueText(value) {
  if (value === null || value === undefined) return t("empty");
  return typeof value === "object" ? dealText(value) : String(value);
}

// What the ink alone says, beside the rules-shaped confidence: a cell read as 8 at >99 % is
// doubtful when its ink says 9.
function inkAlone(cell) {
  if (!cell.ink_alone || !cell.ink_alone.length) return null;
  const said = cell.ink_alone.map(([v, p]) => `${valueText(v)} (${percent(p)})`).join(", ");
  return el("span", { class: "ink-alone" }, ` · ${t("the ink alone says {values}", { values: said })}`);
}

function percent(p) {
  return p >= 0.995 ? ">99%" : p < 0.005 ? "<1%" : `${Math.round(p * 100)}%`;
}

function imgUrl(sheet, kind, which) {
  return `/img/${encodeURIComponent(sheet)}/${kind}/${encodeURIComponent(which)}`;
}

function sheetTitle(group) {
  const where = group.round ? t("round {round} · table {table}", group) : "";
  return [group.tournament, where, group.sheet].filter(Boolean).join(" · ");
}

// -- loading -----------------------------------------------------------------------------

function setQueue(queue, stayOn) {
  // The next cell: the one asked for (after an undo), else the worst one left on the sheet
  // being worked on (a person finishes a sheet before the next), else the worst of all.
  state.queue = queue;
  state.items = queue.sheets.flatMap((group) => group.cells.map((cell) => ({ ...cell, group })));
  let next = state.items.find((c) => c.sheet === stayOn && !c.skipped) || state.items[0] || null;
  if (state.focus) {
    next = state.items.find((c) => c.sheet === state.focus.sheet && c.key === state.focus.key)
      || next;
    state.focus = null;
  }
  state.current = next;
  if (next) {  // the sheet being worked on leads the list
    queue.sheets.sort((a, b) => (b.sheet === next.sheet) - (a.sheet === next.sheet));
    state.items = queue.sheets.flatMap((group) => group.cells.map((cell) => ({ ...cell, group })));
    state.current = state.items.find((c) => c.sheet === next.sheet && c.key === next.key);
  }
}

async function loadSheet(sheetId) {
  if (!sheetId) {
    state.sheet = null; state.panel = null; state.sheetId = null;
    return;
  }
  const [sheet, standings] = await Promise.all([
    api(`/api/sheet/${encodeURIComponent(sheetId)}`),
    api(`/api/standings`),
  ]);
  state.sheetId = sheetId;
  state.sheet = sheet;
  state.panel = sheet;
  state.standings = standings;
}

async function refreshAll() {
  setQueue(await api("/api/queue"));
  const sheetId = state.current ? state.current.sheet : state.sheetId;
  await loadSheet(sheetId);
  render();
}

// -- drawing -----------------------------------------------------------------------------

function render(previousPanel) {
  document.body.dataset.view = state.view;
  renderProgress();
  renderQueueList();
  const empty = !state.current;
  $("#card").hidden = state.view !== "queue" || empty;
  $("#empty").hidden = state.view !== "queue" || !empty;
  $("#sheet-view").hidden = state.view !== "sheet";
  $("#sheet-list").hidden = state.view !== "sheets";
  if (state.view === "queue") {
    if (empty) renderEmpty(); else renderCard(state.current);
  } else if (state.view === "sheets") {
    renderSheetList();
  } else {
    renderSheetView();
  }
  renderPanel(previousPanel);
  prefetch();
}

function renderProgress() {
  const q = state.queue;
  const sheets = q.sheets.length;
  const states = Object.entries(q.states).map(([s, n]) => `${n} ${stateWord(s)}`);
  $("#progress").replaceChildren(
    el("strong", {}, t("{n} to check", { n: q.total })),
    ` ${tn("in {n} sheet", "in {n} sheets", sheets)} · ${t("{n} decided", { n: q.decided })} · `,
    el("span", { class: "muted" }, states.join(", ") || t("no sheets yet")),
    el("span", { class: "who" }, t("as {who}", { who: q.who })),
  );
}

function renderQueueList() {
  const list = $("#queue-list");
  const blocks = state.queue.sheets.map((group) => el("div", { class: "group" },
    el("h3", {}, group.sheet, el("small", {}, `${group.tournament} · T${group.table || "–"}`)),
    el("ol", {}, group.cells.map((cell) => el("li", {
      class: [cell === cellOf(state.current) ? "current" : "", cell.skipped ? "skipped" : ""]
        .join(" ").trim() || null,
      "data-key": cell.key,
    }, el("span", { class: "k" }, shortKey(cell.key)),
    el("span", { class: "conf" }, percent(cell.confidence))))),
  ));
  list.replaceChildren(el("h2", {}, t("Queue")), ...blocks);
  if (!blocks.length) list.append(el("p", { class: "muted" }, t("empty")));
}

function cellOf(item) {
  if (!item) return null;
  const group = state.queue.sheets.find((g) => g.sheet === item.sheet);
  return group ? group.cells.find((c) => c.key === item.key) : null;
}

function shortKey(key) {
  const parts = key.split(":");
  if (parts[0] === "row") return t("deal row {n}", { n: Number(parts[1]) + 1 });
  const n = Number(parts[parts.length - 1]) + 1;
  return parts.length === 5 ? t("{seat} whists/{on} #{n}", { seat: parts[1], on: parts[3], n })
    : `${parts[1]} ${columnWord(parts[2])} #${n}`;
}

function cropView(cell) {
  if (!cell.has_crop) return el("div", { class: "crop none" }, t("no crop stored"));
  const alt = t("ink of {where}", { where: cell.key });
  const url = imgUrl(cell.sheet, "crop", cell.key);
  if (!cell.key.startsWith("row:")) {
    return el("div", { class: "crop" }, el("img", { src: url, alt }));
  }
  const canvas = el("canvas", { class: "row-crop", "aria-label": alt });
  const image = new Image();
  image.onload = () => {
    const part = Math.ceil(image.naturalWidth / ROW_CROP_PARTS);
    const gap = 6;
    canvas.width = part;
    canvas.height = ROW_CROP_PARTS * image.naturalHeight + (ROW_CROP_PARTS - 1) * gap;
    const context = canvas.getContext("2d");
    context.fillStyle = "#fff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    for (let i = 0; i < ROW_CROP_PARTS; i += 1) {
      context.drawImage(image, i * part, 0, part, image.naturalHeight,
        0, i * (image.naturalHeight + gap), part, image.naturalHeight);
    }
  };
  image.src = url;
  return el("div", { class: "crop row" }, canvas);
}

function candidateText(value, all) {
  // A deal row's candidates differ in a part or two: those parts are marked.
  if (value === null || typeof value !== "object") return valueText(value);
  const parts = dealText(value).split(" · ");
  const others = all.filter((v) => v !== value && v && typeof v === "object")
    .map((v) => dealText(v).split(" · "));
  return parts.flatMap((part, i) => [i ? " · " : "",
    others.some((o) => !o.includes(part)) ? el("mark", {}, part) : part]);
}

function renderCard(cell) {
  const group = cell.group;
  const values = cell.candidates.map(([value]) => value);
  const candidates = el("ol", { class: "candidates" }, cell.candidates.slice(0, CANDIDATE_KEYS.length).map(
    ([value, p], i) => el("li", {
      class: value !== null && JSON.stringify(value) === JSON.stringify(cell.expected) ? "fits" : null,
      "data-choice": candidateKey(i), title: t("press {key} to accept", { key: candidateKey(i) }),
      onclick: () => decide(cell, "accept", { candidate: i + 1 }),
    }, el("kbd", {}, candidateKey(i)), el("span", { class: "value" }, candidateText(value, values)),
    el("span", { class: "bar" }, el("span", { class: "fill", "data-p": p })),
    el("span", { class: "p" }, percent(p))),
  ));
  const expected = cell.expected === null || cell.expected === undefined ? null
    : el("p", { class: "expected" }, `${t("The rules expect")} `,
      el("strong", {}, valueText(cell.expected)));
  const note = cell.note ? el("p", { class: "note" }, cell.note) : null;
  const neighbours = el("table", { class: "neighbours" },
    el("caption", {}, cell.key.startsWith("row:") ? t("Rows around it")
      : t("Its column (running total)")),
    el("tbody", {}, cell.neighbours.map((n) => el("tr", { class: n.current ? "current" : null },
      el("th", {}, cell.key.startsWith("row:") ? t("row {n}", { n: n.n }) : `#${n.n}`),
      el("td", {}, n.current ? `${valueText(n.value)} ?` : valueText(n.value)),
      el("td", { class: "muted" }, n.deal && !(cell.key.startsWith("row:") && n.deal === n.n)
        ? t("deal {n}", { n: n.deal }) : ""),
      el("td", { class: "muted" }, n.current ? t("this cell")
        : stateWord(n.verified ? "verified" : n.status))))));
  const row = cell.key.startsWith("row:");
  const input = el("input", {
    id: "typed", type: "text", inputmode: row ? "text" : "numeric", autocomplete: "off",
    placeholder: row ? t("t, then B 7NT whist pass 6 3 1") : t("digits"),
    "aria-label": t("type the value"),
    oninput: row ? () => input.value.trim() && askVerdict({ text: input.value }) : null,
  });
  Object.assign($("#card").dataset, { sheet: cell.sheet, key: cell.key });
  $("#card").replaceChildren(
    el("div", { class: "where" }, sheetTitle(group)),
    el("h2", {}, cell.label),
    el("div", { class: "value-now" }, `${t("Read as")} `, el("strong", {}, valueText(cell.value)),
      confidenceText(cell), inkAlone(cell),
      cell.skipped ? el("em", {}, ` · ${t("skipped once")}`) : null),
    row ? rowCard(cell) : cropView(cell),
    el("div", { class: "columns" },
      el("div", {}, el("h3", {}, t("Candidates")), candidates, expected, note),
      el("div", {}, neighbours)),
    el("div", { class: "type" }, el("label", { for: "typed" }, t("Type a value")),
      input, el("span", { class: "muted" },
        withKeys(t("⏎ saves what is typed, or with nothing typed accepts [[a]] · Esc clears")))),
  );
  if (!row) input.focus({ preventScroll: true });
  for (const fill of document.querySelectorAll(".fill")) {
    fill.style.width = `${Math.round(Number(fill.dataset.p) * 100)}%`;
  }
}

function renderEmpty() {
  const q = state.queue;
  const nothing = !Object.keys(q.states).length;
  $("#empty").replaceChildren(
    el("h2", {}, nothing ? t("The store has no sheets yet") : t("Nothing left to check")),
    el("p", { class: "muted" }, nothing
      ? t("Import scans with `pulka import FOLDER`; their doubtful cells appear here.")
      : t("Every doubtful cell has been decided. Press v to look at a sheet.")),
    ...(nothing ? [] : [el("button", { type: "button", id: "empty-sheets",
      onclick: showSheetList }, t("All sheets (l)"))]),
  );
}

function renderPanel(previous) {
  const panel = state.panel;
  const blocks = [];
  if (panel) {
    const old = {};
    for (const row of (previous && previous.sheet === panel.sheet ? previous.settlement : [])) {
      old[row.seat] = row.rounded;
    }
    blocks.push(el("h2", {}, t("This sheet"), el("span", { class: `badge ${panel.state}` },
      stateWord(panel.state))));
    if (panel.record_error) blocks.push(el("p", { class: "error" }, panel.record_error));
    blocks.push(...findingsBlock(panel));  // findings.js
    blocks.push(el("h3", {}, t("Settlement")), el("table", { class: "settlement" },
      el("tbody", {}, panel.settlement.map((row) => el("tr", {
        class: row.seat in old && old[row.seat] !== row.rounded ? "changed" : null,
        "data-seat": row.seat,
      }, el("th", {}, `${row.player}`), el("td", { class: "muted" }, row.seat),
      el("td", { class: "num" }, row.rounded > 0 ? `+${row.rounded}` : String(row.rounded)))))));
  }
  const tournament = panel ? panel.tournament : null;
  for (const table of (state.standings ? state.standings.tournaments : [])) {
    if (tournament && table.tournament !== tournament) continue;
    blocks.push(el("h3", {}, t("Standings · {name}", { name: table.tournament || t("no tournament") })),
      el("table", { class: "standings" }, el("tbody", {}, table.standings.map((row) => el("tr", {},
        el("td", { class: "num muted" }, row.rank === null ? "–" : String(row.rank)),
        el("th", {}, row.player),
        el("td", { class: "num", title: row.no_sheet ? null : decimalText(row.rounded) }, row.no_sheet ? ""
          : row.whists.toLocaleString(catalogue.lang, { signDisplay: "exceptZero" })),
        el("td", { class: "muted" }, row.no_sheet ? t("no sheet yet")
          : row.final ? "" : t("provisional")))))));
  }
  $("#panel").replaceChildren(...blocks);
}

function prefetch() {
  for (const cell of state.items.slice(1, 1 + PREFETCH)) {
    if (cell.has_crop) new Image().src = imgUrl(cell.sheet, "crop", cell.key);
  }
}
