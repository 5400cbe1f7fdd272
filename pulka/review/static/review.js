// pulka review: settle every doubtful cell by keyboard. No framework, no build step.
// The server's API is described in pulka/review/server.py.
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

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
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
  if (deal === null || deal === undefined) return "empty";
  if (typeof deal !== "object") return String(deal);
  const parts = [];
  if (deal.type === "allpass") parts.push("all pass");
  else if (deal.type === "misere") parts.push(`${deal.declarer} misère`);
  else parts.push(`${deal.declarer} ${contractText(deal.contract)}`);
  if (deal.defence) {
    parts.push(Object.entries(deal.defence).map(([seat, what]) => `${seat} ${what}`).join(", "));
  }
  if (deal.tricks) {
    parts.push("tricks " + Object.entries(deal.tricks).map(([s, n]) => `${s} ${n}`).join(" "));
  }
  if (deal.dealer) parts.push(`dealt by ${deal.dealer}`);
  return parts.join(" · ");
}

function valueText(value) {
  if (value === null || value === undefined) return "empty";
  return typeof value === "object" ? dealText(value) : String(value);
}

// What the ink alone says, beside the rules-shaped confidence: a cell read as 8 at >99 % is
// doubtful when its ink says 9.
function inkAlone(cell) {
  if (!cell.ink_alone || !cell.ink_alone.length) return null;
  const said = cell.ink_alone.map(([v, p]) => `${valueText(v)} (${percent(p)})`).join(", ");
  return el("span", { class: "ink-alone" }, ` · the ink alone says ${said}`);
}

function percent(p) {
  return p >= 0.995 ? ">99%" : p < 0.005 ? "<1%" : `${Math.round(p * 100)}%`;
}

function imgUrl(sheet, kind, which) {
  return `/img/${encodeURIComponent(sheet)}/${kind}/${encodeURIComponent(which)}`;
}

function sheetTitle(group) {
  const where = group.round ? `round ${group.round} · table ${group.table}` : "";
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

// -- decisions ---------------------------------------------------------------------------

function enqueue(task) {
  state.pending += 1;
  document.body.dataset.pending = String(state.pending);
  state.chain = state.chain.then(task).catch((error) => showStatus(error.message, true))
    .finally(() => {
      state.pending -= 1;
      document.body.dataset.pending = String(state.pending);
    });
  return state.chain;
}

async function afterDecision(doc, sheetId) {
  const previous = state.panel;
  setQueue(doc.queue, sheetId);
  if (doc.standings) state.standings = doc.standings;
  const nextSheet = state.current ? state.current.sheet : sheetId;
  if (state.view === "sheet" || nextSheet !== sheetId || !doc.panel) {
    await loadSheet(nextSheet || sheetId);
  } else {
    state.panel = doc.panel;
    state.sheetId = sheetId;
  }
  render(previous);
}

// Candidate keys: letters, so that digits always type a value and never accept anything.
const CANDIDATE_KEYS = "abcdefghi";

function candidateKey(i) {
  return CANDIDATE_KEYS[i] || "";
}

function savedText(target, action, extra) {
  // What a decision saves, in words: shown once the server has saved it.
  if (action === "accept") {
    const [value] = target.candidates[extra.candidate - 1] || [null];
    return `${valueText(value)} (candidate ${candidateKey(extra.candidate - 1)})`;
  }
  if (action === "type") return `${extra.value.trim() || "empty"} (typed)`;
  return action === "illegible" ? "marked illegible" : "skipped, comes back last";
}

function refuse(what) {
  // A key or click while a save is under way is never applied (to that cell or the next).
  const busy = state.saving ? `still saving ${state.saving.label}` : "still loading";
  state.refused += 1;
  document.body.dataset.refused = String(Number(document.body.dataset.refused || 0) + 1);
  showStatus(`${busy}: ${what} not applied; press it again when the next cell shows`, true);
}

function holdCard(target) {
  // The card being saved stays on screen, greyed, its input closed, until the answer comes.
  state.saving = target;
  $("#card").classList.add("saving");
  const input = $("#typed");
  if (input) input.disabled = true;
}

function releaseCard() {
  state.saving = null;
  $("#card").classList.remove("saving");
  const input = $("#typed");
  if (input) {
    input.disabled = false;
    input.focus({ preventScroll: true });
  }
}

function decide(cell, action, extra) {
  const target = cell || state.current;
  if (!target) return null;
  if (state.pending > 0) {
    refuse("that choice");
    return null;
  }
  const what = savedText(target, action, extra || {});
  holdCard(target);
  state.refused = 0;
  return enqueue(async () => {
    try {
      const doc = await api("/api/decide", { sheet: target.sheet, key: target.key, action, ...extra });
      await afterDecision(doc, target.sheet);
      showLast(action === "skip" ? "Skipped" : "Saved", `${target.label}: ${what}`);
      showStatus(state.refused ? `${state.refused} key(s) pressed while saving were not `
        + "applied; press them again" : `${Math.round(state.lastMs)} ms`, state.refused > 0);
    } finally {
      releaseCard();
    }
  });
}

function undo() {
  if (state.pending > 0) {
    refuse("undo");
    return null;
  }
  return enqueue(async () => {
    const doc = await api("/api/undo", {});
    if (!doc.undone) {
      showStatus("nothing of yours to undo");
      return;
    }
    state.focus = { sheet: doc.undone.sheet, key: doc.undone.key };
    await afterDecision(doc, doc.undone.sheet);
    const back = state.current && state.current.key === doc.undone.key ? state.current : null;
    showLast("Undone", back ? `${back.label}: back to ${valueText(back.value)}, to decide again`
      : `${doc.undone.key} on ${doc.undone.sheet}`);
    showStatus(`${Math.round(state.lastMs)} ms`);
  });
}

function showLast(verb, text) {
  const undoable = verb === "Saved" ? el("span", { class: "muted" }, " · ",
    el("kbd", {}, "u"), " undoes it") : null;
  $("#last").replaceChildren(el("strong", {}, verb), " ", text, undoable);
  $("#last").dataset.verb = verb.toLowerCase();
}

function showStatus(text, error) {
  const node = $("#status");
  node.textContent = text;
  node.classList.toggle("error", Boolean(error));
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
  if (state.view === "queue") {
    if (empty) renderEmpty(); else renderCard(state.current);
  } else {
    renderSheetView();
  }
  renderPanel(previousPanel);
  prefetch();
}

function renderProgress() {
  const q = state.queue;
  const sheets = q.sheets.length;
  const states = Object.entries(q.states).map(([s, n]) => `${n} ${s.replace("_", " ")}`);
  $("#progress").replaceChildren(
    el("strong", {}, `${q.total} to check`),
    ` in ${sheets} sheet${sheets === 1 ? "" : "s"} · ${q.decided} decided · `,
    el("span", { class: "muted" }, states.join(", ") || "no sheets yet"),
    el("span", { class: "who" }, `as ${q.who}`),
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
  list.replaceChildren(el("h2", {}, "Queue"), ...blocks);
  if (!blocks.length) list.append(el("p", { class: "muted" }, "empty"));
}

function cellOf(item) {
  if (!item) return null;
  const group = state.queue.sheets.find((g) => g.sheet === item.sheet);
  return group ? group.cells.find((c) => c.key === item.key) : null;
}

function shortKey(key) {
  const parts = key.split(":");
  if (parts[0] === "row") return `deal row ${Number(parts[1]) + 1}`;
  const n = Number(parts[parts.length - 1]) + 1;
  return parts.length === 5 ? `${parts[1]} whists/${parts[3]} #${n}` : `${parts[1]} ${parts[2]} #${n}`;
}

function cropView(cell) {
  if (!cell.has_crop) return el("div", { class: "crop none" }, "no crop stored");
  const url = imgUrl(cell.sheet, "crop", cell.key);
  if (!cell.key.startsWith("row:")) {
    return el("div", { class: "crop" }, el("img", { src: url, alt: `ink of ${cell.key}` }));
  }
  const canvas = el("canvas", { class: "row-crop", "aria-label": `ink of ${cell.key}` });
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
      "data-choice": candidateKey(i), title: `press ${candidateKey(i)} to accept`,
      onclick: () => decide(cell, "accept", { candidate: i + 1 }),
    }, el("kbd", {}, candidateKey(i)), el("span", { class: "value" }, candidateText(value, values)),
    el("span", { class: "bar" }, el("span", { class: "fill", "data-p": p })),
    el("span", { class: "p" }, percent(p))),
  ));
  const expected = cell.expected === null || cell.expected === undefined ? null
    : el("p", { class: "expected" }, "The rules expect ", el("strong", {}, valueText(cell.expected)));
  const note = cell.note ? el("p", { class: "note" }, cell.note) : null;
  const neighbours = el("table", { class: "neighbours" },
    el("caption", {}, cell.key.startsWith("row:") ? "Rows around it" : "Its column (running total)"),
    el("tbody", {}, cell.neighbours.map((n) => el("tr", { class: n.current ? "current" : null },
      el("th", {}, cell.key.startsWith("row:") ? `row ${n.n}` : `#${n.n}`),
      el("td", {}, n.current ? `${valueText(n.value)} ?` : valueText(n.value)),
      el("td", { class: "muted" }, n.deal && !(cell.key.startsWith("row:") && n.deal === n.n)
        ? `deal ${n.deal}` : ""),
      el("td", { class: "muted" }, n.current ? "this cell" : n.verified ? "verified" : n.status)))));
  const row = cell.key.startsWith("row:");
  const input = el("input", {
    id: "typed", type: "text", inputmode: row ? "text" : "numeric", autocomplete: "off",
    placeholder: row ? "deal as JSON" : "digits", "aria-label": "type the value",
  });
  Object.assign($("#card").dataset, { sheet: cell.sheet, key: cell.key });
  $("#card").replaceChildren(
    el("div", { class: "where" }, sheetTitle(group)),
    el("h2", {}, cell.label),
    el("div", { class: "value-now" }, "Read as ", el("strong", {}, valueText(cell.value)),
      ` · ${percent(cell.confidence)} sure`, inkAlone(cell),
      cell.skipped ? el("em", {}, " · skipped once") : null),
    cropView(cell),
    el("div", { class: "columns" },
      el("div", {}, el("h3", {}, "Candidates"), candidates, expected, note),
      el("div", {}, neighbours)),
    el("div", { class: "type" }, el("label", { for: "typed" }, "Type a value"), input,
      el("span", { class: "muted" }, "⏎ saves what is typed, or with nothing typed accepts ",
        el("kbd", {}, "a"), " · Esc clears")),
  );
  input.focus({ preventScroll: true });
  for (const fill of document.querySelectorAll(".fill")) {
    fill.style.width = `${Math.round(Number(fill.dataset.p) * 100)}%`;
  }
}

function renderEmpty() {
  const q = state.queue;
  const nothing = !Object.keys(q.states).length;
  $("#empty").replaceChildren(
    el("h2", {}, nothing ? "The store has no sheets yet" : "Nothing left to check"),
    el("p", { class: "muted" }, nothing
      ? "Import scans with `pulka import FOLDER`; their doubtful cells appear here."
      : "Every doubtful cell has been decided. Press v to look at a sheet."),
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
    blocks.push(el("h2", {}, "This sheet", el("span", { class: `badge ${panel.state}` },
      panel.state.replace("_", " "))));
    if (panel.record_error) blocks.push(el("p", { class: "error" }, panel.record_error));
    blocks.push(el("h3", {}, `Findings (${panel.findings.length})`));
    blocks.push(panel.findings.length
      ? el("ul", { class: "findings" }, panel.findings.map((f) => el("li", {
        "data-key": f.key || "",
        onclick: () => f.key && showCellInSheet(panel.sheet, f.key),
      }, f.message)))
      : el("p", { class: "muted" }, "none"));
    blocks.push(el("h3", {}, "Settlement"), el("table", { class: "settlement" },
      el("tbody", {}, panel.settlement.map((row) => el("tr", {
        class: row.seat in old && old[row.seat] !== row.rounded ? "changed" : null,
        "data-seat": row.seat,
      }, el("th", {}, `${row.player}`), el("td", { class: "muted" }, row.seat),
      el("td", { class: "num" }, row.rounded > 0 ? `+${row.rounded}` : String(row.rounded)))))));
  }
  const tournament = panel ? panel.tournament : null;
  for (const table of (state.standings ? state.standings.tournaments : [])) {
    if (tournament && table.tournament !== tournament) continue;
    blocks.push(el("h3", {}, `Standings · ${table.tournament || "no tournament"}`),
      el("table", { class: "standings" }, el("tbody", {}, table.standings.map((row) => el("tr", {},
        el("td", { class: "num muted" }, String(row.rank)), el("th", {}, row.player),
        el("td", { class: "num" }, row.rounded),
        el("td", { class: "muted" }, row.provisional ? "provisional" : ""))))));
  }
  $("#panel").replaceChildren(...blocks);
}

// -- the sheet view ----------------------------------------------------------------------

function renderSheetView() {
  const view = $("#sheet-view");
  const sheet = state.sheet;
  if (!sheet) {
    view.replaceChildren(el("p", { class: "muted" }, "No sheet to show."));
    return;
  }
  const legend = el("div", { class: "legend" }, ["read", "doubtful", "verified", "finding"]
    .map((s) => el("span", { class: `swatch ${s}` }, s)));
  const pages = sheet.pages.filter((p) => p.has_image).map((page) => pageFigure(sheet, page));
  view.replaceChildren(el("div", { class: "where" }, sheetTitle({ ...sheet, sheet: sheet.sheet })),
    legend, ...pages);
}

function pageFigure(sheet, page) {
  const figure = el("figure", { class: "page", "data-page": page.page });
  const image = new Image();
  image.onload = () => {
    const w = (image.naturalWidth * MM_PER_INCH) / PAGE_DPI;
    const h = (image.naturalHeight * MM_PER_INCH) / PAGE_DPI;
    const svg = svgEl("svg", { viewBox: `0 0 ${w} ${h}`, role: "img",
      "aria-label": `page ${page.page + 1} of ${sheet.sheet}` });
    svg.append(svgEl("image", { href: image.src, x: 0, y: 0, width: w, height: h }));
    for (const cell of sheet.cells.filter((c) => c.page === page.page)) {
      const [x, y, cw, ch] = cell.rect_mm;
      const current = state.current && state.current.sheet === sheet.sheet
        && state.current.key === cell.key;
      const rect = svgEl("rect", { x, y, width: cw, height: ch, rx: 0.6,
        class: `cell ${cell.state}${current ? " current" : ""}`, "data-key": cell.key });
      const title = svgEl("title", {});
      title.textContent = `${cell.label}: ${valueText(cell.value)} (${cell.state})`;
      rect.append(title);
      rect.addEventListener("click", (event) => openEditor(cell, event));
      svg.append(rect);
    }
    figure.replaceChildren(svg, el("figcaption", {}, `page ${page.page + 1}`));
    const mark = svg.querySelector("rect.current");
    if (mark && page.page === Math.min(...sheet.cells.filter((c) => c.key === state.current.key)
      .map((c) => c.page))) mark.scrollIntoView({ block: "center" });
  };
  image.src = imgUrl(sheet.sheet, "page", page.page);
  figure.append(el("div", { class: "loading muted" }, `page ${page.page + 1}…`));
  return figure;
}

function openEditor(cell, event) {
  closeEditor();
  const target = { ...cell, sheet: state.sheet.sheet };
  const input = el("input", { type: "text", value: typeof cell.value === "object" && cell.value !== null
    ? JSON.stringify(cell.value) : cell.value === null ? "" : String(cell.value),
  "aria-label": "the cell's value" });
  const box = el("div", { class: "editor", role: "dialog" },
    el("div", { class: "label" }, cell.label),
    el("div", { class: "muted" }, `${cell.state} · read ${valueText(cell.value)}`
      + (cell.expected !== null && cell.expected !== undefined ? ` · rules expect ${valueText(cell.expected)}` : "")),
    el("div", { class: "choices" }, cell.candidates.slice(0, CANDIDATE_KEYS.length).map(([value, p], i) => el("button", {
      type: "button", onclick: () => { closeEditor(); decide(target, "accept", { candidate: i + 1 }); },
    }, `${candidateKey(i)}: ${valueText(value)} (${percent(p)})`))),
    input,
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "primary", onclick: save }, "Save ⏎"),
      el("button", { type: "button", onclick: () => { closeEditor(); decide(target, "illegible"); } }, "Illegible"),
      el("button", { type: "button", onclick: closeEditor }, "Cancel")),
  );
  function save() {
    const text = input.value;
    closeEditor();
    decide(target, "type", { value: text });
  }
  input.addEventListener("keydown", (e) => {
    e.stopPropagation();
    if (e.key === "Enter") { e.preventDefault(); save(); }
    if (e.key === "Escape") closeEditor();
  });
  document.body.append(box);
  const x = Math.min(event.clientX + 12, window.innerWidth - box.offsetWidth - 12);
  const y = Math.min(event.clientY + 12, window.innerHeight - box.offsetHeight - 12);
  box.style.left = `${Math.max(8, x)}px`;
  box.style.top = `${Math.max(8, y)}px`;
  state.editor = box;
  input.focus();
  input.select();
}

function closeEditor() {
  if (state.editor) state.editor.remove();
  state.editor = null;
}

async function showCellInSheet(sheetId, key) {
  state.view = "sheet";
  if (state.sheetId !== sheetId) await loadSheet(sheetId);
  render();
  const rect = document.querySelector(`rect[data-key="${CSS.escape(key)}"]`);
  if (rect) rect.scrollIntoView({ block: "center" });
}

function toggleView() {
  closeEditor();
  return enqueue(async () => {
    state.view = state.view === "queue" ? "sheet" : "queue";
    const wanted = state.current ? state.current.sheet : state.sheetId;
    if (state.view === "sheet" && wanted) await loadSheet(wanted);
    render();
  });
}

function prefetch() {
  for (const cell of state.items.slice(1, 1 + PREFETCH)) {
    if (cell.has_crop) new Image().src = imgUrl(cell.sheet, "crop", cell.key);
  }
}

// -- keys --------------------------------------------------------------------------------

const SILENT_KEYS = ["Shift", "Control", "Alt", "Meta", "Tab", "CapsLock", "Dead"];

function typeKey(event, input) {
  // Digits always type, into the visible input: never a candidate, never another cell.
  if (event.target === input) return;  // the input takes it itself
  event.preventDefault();
  input.value += event.key;
  input.focus({ preventScroll: true });
}

function enter(cell, input) {
  const text = input.value;
  if (text.trim() !== "") decide(cell, "type", { value: text });
  else if (cell.candidates.length) decide(cell, "accept", { candidate: 1 });
  else showStatus("nothing typed and no candidate: type a value, or x for illegible", true);
}

function editKey(event, cell, input) {
  // A value is being typed: digits (any text in a deal row) edit it, other keys are refused.
  const row = cell.key.startsWith("row:");
  if (event.key.length > 1 || row || /^[0-9-]$/.test(event.key)) {
    if (event.key.length === 1) typeKey(event, input);
    return;
  }
  event.preventDefault();
  showStatus(`“${event.key}” is not part of a number: ⏎ saves ${input.value.trim()}, `
    + "Esc clears it", true);
}

function commandKey(event, cell, input) {
  const key = event.key;
  const choice = CANDIDATE_KEYS.indexOf(key);
  if (/^[0-9-]$/.test(key) || (key === "{" && cell.key.startsWith("row:"))) {
    typeKey(event, input);
    return;
  }
  if (key.length === 1) event.preventDefault();
  if (choice >= 0) {
    if (choice < cell.candidates.length) decide(cell, "accept", { candidate: choice + 1 });
    else showStatus(`this cell has no candidate ${key}`, true);
  } else if (key === "t") input.focus({ preventScroll: true });
  else if (key === "x") decide(cell, "illegible");
  else if (key === "s" || key === " ") decide(cell, "skip");
}

function onKey(event) {
  const input = $("#typed");
  const typing = Boolean(input) && event.target === input;
  if (event.target instanceof HTMLInputElement && !typing) return;  // the sheet view's editor
  if (event.altKey || event.metaKey || SILENT_KEYS.includes(event.key)) return;
  if (state.pending > 0) {
    event.preventDefault();
    refuse(`key “${event.key === " " ? "Space" : event.key}”`);
    return;
  }
  if (event.repeat && (event.key === "Enter" || /^[a-z ]$/i.test(event.key))) {
    event.preventDefault();  // a key held down decides once, never the next cell too
    return;
  }
  const queueCard = state.view === "queue" && state.current && input;
  const typed = queueCard ? input.value.trim() : "";
  if (event.key === "Escape") {
    closeEditor();
    if (input) input.value = "";
  } else if (event.ctrlKey) {
    if ((event.key === "z" || event.key === "Z") && !typed) {
      event.preventDefault();
      undo();
    }
  } else if (queueCard && event.key === "Enter") {
    event.preventDefault();
    enter(state.current, input);
  } else if (typed) {
    editKey(event, state.current, input);
  } else if (event.key === "v" || event.key === "u") {
    event.preventDefault();
    if (event.key === "v") toggleView(); else undo();
  } else if (queueCard) {
    commandKey(event, state.current, input);
  }
}

document.addEventListener("keydown", onKey);
document.addEventListener("DOMContentLoaded", () => {
  $("#to-queue").addEventListener("click", () => state.view !== "queue" && toggleView());
  $("#to-sheet").addEventListener("click", () => state.view !== "sheet" && toggleView());
  enqueue(refreshAll);
});
