// pulka review: decisions and the keys that make them. Digits always type a value, letters pick
// candidates, and nothing is applied while a save is under way, so no key reaches a cell it
// was not meant for. Loaded after review.js and sheet.js.
"use strict";

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
  if (state.view === "sheet") {
    await loadSheet(sheetId);  // the sheet being looked at stays on screen
  } else if (nextSheet !== sheetId || !doc.panel) {
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
    return t("{value} (candidate {key})",
      { value: valueText(value), key: candidateKey(extra.candidate - 1) });
  }
  if (action === "type") {
    const typed = typeof extra.value === "string" ? extra.value.trim() : valueText(extra.value);
    return t("{value} (typed)", { value: typed || t("empty") });
  }
  return action === "illegible" ? t("marked illegible") : t("comes back last");
}

function refuse(what) {
  // A key or click while a save is under way is never applied (to that cell or the next).
  const busy = state.saving ? t("still saving {label}", state.saving) : t("still loading");
  state.refused += 1;
  document.body.dataset.refused = String(Number(document.body.dataset.refused || 0) + 1);
  showStatus(t("{busy}: {what} not applied; press it again when the next cell shows",
    { busy, what }), true);
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
    refuse(t("that choice"));
    return null;
  }
  const what = savedText(target, action, extra || {});
  holdCard(target);
  state.refused = 0;
  return enqueue(async () => {
    try {
      const doc = await api("/api/decide", { sheet: target.sheet, key: target.key, action, ...extra });
      await afterDecision(doc, target.sheet);
      showLast(action === "skip" ? "skipped" : "saved", `${target.label}: ${what}`);
      showStatus(state.refused ? tn("{n} key(s) pressed while saving were not applied; press "
        + "them again", "{n} key(s) pressed while saving were not applied; press them again",
      state.refused) : t("{ms} ms", { ms: Math.round(state.lastMs) }), state.refused > 0);
    } finally {
      releaseCard();
    }
  });
}

function undo() {
  if (state.pending > 0) {
    refuse(t("undo"));
    return null;
  }
  return enqueue(async () => {
    const doc = await api("/api/undo", {});
    if (!doc.undone) {
      showStatus(t("nothing of yours to undo"));
      return;
    }
    state.focus = { sheet: doc.undone.sheet, key: doc.undone.key };
    await afterDecision(doc, doc.undone.sheet);
    const back = state.current && state.current.key === doc.undone.key ? state.current : null;
    showLast("undone", back ? t("{label}: back to {value}, to decide again",
      { label: back.label, value: valueText(back.value) })
      : t("{key} on {sheet}", doc.undone));
    showStatus(t("{ms} ms", { ms: Math.round(state.lastMs) }));
  });
}

function showLast(verb, text) {
  // verb: "saved", "skipped" or "undone", a code kept in data-verb; shown in words.
  const words = { saved: t("Saved"), skipped: t("Skipped"), undone: t("Undone") };
  const undoable = verb === "saved" ? [el("span", { class: "muted" }, " · ",
    withKeys(t("[[u]] undoes it")))] : [];
  $("#last").replaceChildren(el("strong", {}, words[verb]), " ", text, ...undoable);
  $("#last").dataset.verb = verb;
}

function showStatus(text, error) {
  const node = $("#status");
  node.textContent = text;
  node.classList.toggle("error", Boolean(error));
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
  if (cell.key.startsWith("row:")) return enterRow(cell, input);
  const text = input.value;
  if (text.trim() !== "") decide(cell, "type", { value: text });
  else if (cell.candidates.length) decide(cell, "accept", { candidate: 1 });
  else showStatus(t("nothing typed and no candidate: type a value, or x for illegible"), true);
}

function editKey(event, cell, input) {
  // A value is being typed: digits (any text in a deal row) edit it, other keys are refused.
  const row = cell.key.startsWith("row:");
  if (event.key.length > 1 || row || /^[0-9-]$/.test(event.key)) {
    if (event.key.length === 1) typeKey(event, input);
    return;
  }
  event.preventDefault();
  showStatus(t("“{key}” is not part of a number: ⏎ saves {value}, Esc clears it",
    { key: event.key, value: input.value.trim() }), true);
}

function commandKey(event, cell, input) {
  const key = event.key;
  const choice = CANDIDATE_KEYS.indexOf(key);
  if (/^[0-9-]$/.test(key) || (cell.key.startsWith("row:") && event.target === input)) {
    typeKey(event, input);
    return;
  }
  if (key.length === 1) event.preventDefault();
  if (choice >= 0) {
    if (choice < cell.candidates.length) decide(cell, "accept", { candidate: choice + 1 });
    else showStatus(t("this cell has no candidate {key}", { key }), true);
  } else if (key === "t") input.focus({ preventScroll: true });
  else if (key === "x") decide(cell, "illegible");
  else if (key === "s" || key === " ") decide(cell, "skip");
}

function onKey(event) {
  const input = $("#typed");
  const typing = Boolean(input) && event.target === input;
  if (event.target instanceof HTMLInputElement && !typing) return;  // the sheet view's editor
  if (event.altKey || event.metaKey || SILENT_KEYS.includes(event.key)) return;
  const undoKey = event.ctrlKey && (event.key === "z" || event.key === "Z");
  if (event.ctrlKey && !undoKey) return;  // the browser's own (copy, reload, ...)
  if (state.pending > 0) {
    event.preventDefault();
    refuse(t("key “{key}”", { key: event.key === " " ? t("Space") : event.key }));
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
  } else if (undoKey) {
    if (!typed) {
      event.preventDefault();
      undo();
    }
  } else if (queueCard && event.key === "Enter") {
    event.preventDefault();
    enter(state.current, input);
  } else if (typed) {
    editKey(event, state.current, input);
  } else if (event.key === "v" || event.key === "u" || event.key === "l") {
    event.preventDefault();
    if (event.key === "v") toggleView(); else if (event.key === "l") enqueue(showSheetList); else undo();
  } else if (queueCard) {
    commandKey(event, state.current, input);
  }
}

document.addEventListener("keydown", onKey);
document.addEventListener("DOMContentLoaded", () => {
  $("#to-queue").addEventListener("click", () => state.view !== "queue" && toggleView());
  $("#to-sheet").addEventListener("click", () => state.view !== "sheet" && toggleView());
  $("#to-sheets").addEventListener("click", () => enqueue(showSheetList));
  enqueue(async () => {
    await loadCatalogue();
    await refreshAll();
  });
});
