// pulka review: the list of every sheet (round, table, state, doubts, findings), to open any
// sheet's view and check it again at any time, the queue empty or not. Key l shows it; Tab or
// the arrow keys move between sheets, Enter opens one. Loaded after review.js and sheet.js.
"use strict";

async function showSheetList() {
  closeEditor();
  const doc = await api("/api/sheets");
  state.sheetList = doc.sheets;
  state.view = "sheets";
  render();
  const first = document.querySelector("#sheet-list button.open");
  if (first) first.focus({ preventScroll: true });
}

function renderSheetList() {
  const rows = state.sheetList || [];
  const list = $("#sheet-list");
  if (!rows.length) {
    list.replaceChildren(el("h2", {}, t("Sheets")),
      el("p", { class: "muted" }, t("The store has no sheets yet")));
    return;
  }
  const table = el("table", { class: "sheets" },
    el("thead", {}, el("tr", {}, [t("Round"), t("Table"), t("Sheet"), t("Players"), t("State"),
      t("Doubts"), t("Findings")].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map((row) => el("tr", {
      class: row.sheet === state.sheetId ? "current" : null, "data-sheet": row.sheet },
    el("td", { class: "num" }, row.round ?? "–"), el("td", { class: "num" }, row.table ?? "–"),
    el("td", {}, el("button", { type: "button", class: "open", "data-sheet": row.sheet,
      title: t("open {sheet} (Enter)", { sheet: row.sheet }), onclick: () => openSheet(row.sheet) }, row.sheet)),
    el("td", { class: "players" }, row.players.join(", ")),
    el("td", {}, el("span", { class: `badge ${row.state}` }, stateWord(row.state))),
    el("td", { class: "num" }, row.doubts), el("td", { class: "num" }, row.findings)))));
  table.addEventListener("keydown", moveInList);
  list.replaceChildren(el("h2", {}, t("Sheets ({n})", { n: rows.length })),
    el("p", { class: "muted" }, t("Enter opens a sheet; click a cell there to check it again.")),
    table);
}

function moveInList(event) {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const buttons = [...document.querySelectorAll("#sheet-list button.open")];
  const i = buttons.indexOf(document.activeElement);
  const next = buttons[i + (event.key === "ArrowDown" ? 1 : -1)];
  event.preventDefault();
  if (next) next.focus();
}

function openSheet(sheetId) {
  return enqueue(async () => {
    await loadSheet(sheetId);
    state.view = "sheet";
    render();
    showStatus(t("sheet {sheet}: click a cell to check it again", { sheet: sheetId }));
  });
}
