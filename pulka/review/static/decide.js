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
  return action === "illegible" ? "marked illegible" : "comes back last";
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
  const undoKey = event.ctrlKey && (event.key === "z" || event.key === "Z");
  if (event.ctrlKey && !undoKey) return;  // the browser's own (copy, reload, ...)
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
