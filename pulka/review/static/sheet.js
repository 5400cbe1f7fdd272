// pulka review: the sheet view, every cell of a sheet outlined on its page, each one editable.
// Loaded after review.js, whose state and helpers it uses.
"use strict";

// -- the sheet view ----------------------------------------------------------------------

function renderSheetView() {
  const view = $("#sheet-view");
  const sheet = state.sheet;
  if (!sheet) {
    view.replaceChildren(el("p", { class: "muted" }, t("No sheet to show.")));
    return;
  }
  const legend = el("div", { class: "legend" }, ["read", "doubtful", "verified", "finding"]
    .map((s) => el("span", { class: `swatch ${s}` }, stateWord(s))));
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
      "aria-label": t("page {n} of {sheet}", { n: page.page + 1, sheet: sheet.sheet }) });
    svg.append(svgEl("image", { href: image.src, x: 0, y: 0, width: w, height: h }));
    for (const cell of sheet.cells.filter((c) => c.page === page.page)) {
      const [x, y, cw, ch] = cell.rect_mm;
      const current = state.current && state.current.sheet === sheet.sheet
        && state.current.key === cell.key;
      const rect = svgEl("rect", { x, y, width: cw, height: ch, rx: 0.6,
        class: `cell ${cell.state}${current ? " current" : ""}`, "data-key": cell.key });
      const title = svgEl("title", {});
      title.textContent = `${cell.label}: ${valueText(cell.value)} (${stateWord(cell.state)})`;
      rect.append(title);
      rect.addEventListener("click", (event) => openEditor(cell, event));
      svg.append(rect);
    }
    figure.replaceChildren(svg, el("figcaption", {}, t("page {n}", { n: page.page + 1 })));
    const mark = svg.querySelector("rect.current");
    if (mark && page.page === Math.min(...sheet.cells.filter((c) => c.key === state.current.key)
      .map((c) => c.page))) mark.scrollIntoView({ block: "center" });
  };
  image.src = imgUrl(sheet.sheet, "page", page.page);
  figure.append(el("div", { class: "loading muted" }, `${t("page {n}", { n: page.page + 1 })}…`));
  return figure;
}

function openEditor(cell, event) {
  closeEditor();
  const target = { ...cell, sheet: state.sheet.sheet };
  const input = el("input", { type: "text", value: typeof cell.value === "object" && cell.value !== null
    ? JSON.stringify(cell.value) : cell.value === null ? "" : String(cell.value),
  "aria-label": t("the cell's value") });
  const box = el("div", { class: "editor", role: "dialog" },
    el("div", { class: "label" }, cell.label),
    el("div", { class: "muted" }, `${stateWord(cell.state)} · ${t("read {value}", { value: valueText(cell.value) })}`
      + (cell.expected !== null && cell.expected !== undefined
        ? ` · ${t("rules expect {value}", { value: valueText(cell.expected) })}` : "")),
    el("div", { class: "choices" }, cell.candidates.slice(0, CANDIDATE_KEYS.length).map(([value, p], i) => el("button", {
      type: "button", onclick: () => { closeEditor(); decide(target, "accept", { candidate: i + 1 }); },
    }, `${candidateKey(i)}: ${valueText(value)} (${percent(p)})`))),
    input,
    el("div", { class: "buttons" },
      el("button", { type: "button", class: "primary", onclick: save }, t("Save ⏎")),
      el("button", { type: "button", onclick: () => { closeEditor(); decide(target, "illegible"); } }, t("Illegible")),
      el("button", { type: "button", onclick: closeEditor }, t("Cancel"))),
  );
  function save() {
    const text = input.value;
    if (target.key.startsWith("row:")) return rowEditorSave(target, input, closeEditor);
    closeEditor();
    return decide(target, "type", { value: text });
  }
  if (target.key.startsWith("row:")) rowEditorLine(target, input);
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
