// pulka review: the judge's findings panel. Each finding with its state (an error, or
// waiting for review while it rests on a doubtful cell) and its ruling; Apply / Waive / Misread
// buttons, a Sign off button, a link to the sheet's report as the store has it now. Keys, in
// the sheet view (or once the queue is empty): p apply, w waive, m misread, o sign off, each
// on the marked finding (the first without a ruling). Loaded after decide.js.
"use strict";

function ruledText(action, who) {
  const words = {
    apply: t("penalty applied by {who}", { who }), waive: t("penalty waived by {who}", { who }),
    misread: t("cell corrected by {who}", { who }),
  };
  return words[action] || action;
}

function markedFinding(panel) {
  return panel.findings.find((f) => f.status === "error" && !f.ruling) || null;
}

function canSignOff(panel) {
  return !panel.doubtful && !panel.record_error && !panel.signed_off
    && panel.findings.every((f) => f.status === "error" && f.ruling);
}

function findingItem(panel, f, marked) {
  const waits = f.status === "waits_for_review";
  const state = waits ? t("waits for review: verify its doubtful cells first")
    : f.ruling ? ruledText(f.ruling.action, f.ruling.by)
      : f.penalty ? t("penalty proposed: {penalty}", { penalty: f.penalty })
        : t("no penalty (it does not favour its writer)");
  const misread = el("input", {
    class: "misread", type: "text", inputmode: "numeric", autocomplete: "off", hidden: true,
    placeholder: t("the true value, ⏎"),
    "aria-label": t("true value of finding {n}", { n: f.number }),
    onkeydown: (event) => {
      if (event.key === "Enter" && event.target.value.trim()) {
        event.preventDefault();
        ruleFinding(panel.sheet, f, "misread", event.target.value.trim());
      } else if (event.key === "Escape") {
        event.target.hidden = true;
      }
    },
  });
  const button = (action, label, title) => el("button", {
    type: "button", "data-action": action, title, disabled: waits || null,
    onclick: (event) => {
      event.stopPropagation();
      if (action === "misread") openMisread(misread); else ruleFinding(panel.sheet, f, action);
    },
  }, label);
  return el("li", {
    "data-key": f.key || "", "data-finding": f.finding_key, "data-status": f.status,
    class: [marked ? "marked" : "", waits ? "waits" : "", f.ruling ? "ruled" : ""]
      .join(" ").trim() || null,
    onclick: () => f.key && showCellInSheet(panel.sheet, f.key),
  }, el("span", { class: "n" }, `${f.number}. `), f.text || f.message,
  el("div", { class: "finding-state" }, state),
  el("div", { class: "rulings" }, button("apply", t("Apply"), t("apply the 4.2.7 penalty (p)")),
    button("waive", t("Waive"), t("waive the penalty (w)")),
    f.entry ? button("misread", t("Misread"), t("the cell was read wrong: type its value (m)"))
      : null,
    misread));
}

function openMisread(input) {
  input.hidden = false;
  input.focus({ preventScroll: true });
}

function findingsBlock(panel) {
  const marked = markedFinding(panel);
  const list = panel.findings.length
    ? el("ul", { class: "findings" }, panel.findings.map((f) => findingItem(panel, f, f === marked)))
    : el("p", { class: "muted" }, t("none"));
  const signed = panel.signed_off;
  const signoff = signed
    ? el("p", { class: "signed", id: "signed" },
      t("Signed off by {who} at {at}", { who: signed.by, at: signed.at }))
    : el("button", {
      type: "button", id: "signoff", disabled: !canSignOff(panel) || null,
      title: t("no doubtful cell and every finding ruled (o)"),
      onclick: () => signOff(panel.sheet),
    }, t("Sign off"));
  const report = el("a", {
    id: "report-link", href: `/report/${encodeURIComponent(panel.sheet)}`, target: "_blank",
    rel: "noopener",
  }, t("Report as it stands"));
  return [el("h3", {}, t("Findings ({n})", { n: panel.findings.length })), list,
    el("div", { class: "judge" }, signoff, report)];
}

function ruleFinding(sheetId, finding, action, value) {
  const body = { sheet: sheetId, finding: finding.finding_key, action };
  if (value !== undefined) body.value = value;
  return enqueue(async () => {
    const doc = await api("/api/rule", body);
    const done = doc.ruled;
    showStatus(`${t("finding {n}", { n: done.finding })}: ${ruledText(done.action, done.by)}`);
    await afterDecision(doc, sheetId);
  });
}

function signOff(sheetId) {
  return enqueue(async () => {
    const doc = await api("/api/signoff", { sheet: sheetId });
    showStatus(t("sheet {sheet} signed off by {who}", { sheet: sheetId, who: doc.ruled.by }));
    await afterDecision(doc, sheetId);
  });
}

function judgeKey(event) {
  const panel = state.panel;
  const onCard = state.view === "queue" && state.current;
  if (!panel || onCard || event.target instanceof HTMLInputElement) return;
  if (event.altKey || event.metaKey || event.ctrlKey || event.repeat) return;
  if (!["p", "w", "m", "o"].includes(event.key) || state.pending > 0) return;
  event.preventDefault();
  const marked = markedFinding(panel);
  if (event.key === "o") {
    if (canSignOff(panel)) signOff(panel.sheet);
    else showStatus(t("not yet: a doubtful cell or a finding without a ruling is left"), true);
  } else if (!marked) {
    showStatus(t("no finding waits for a ruling"), true);
  } else if (event.key === "m") {
    const input = document.querySelector(`li.marked input.misread`);
    if (input) openMisread(input);
    else showStatus(t("this finding has no cell to correct"), true);
  } else {
    ruleFinding(panel.sheet, marked, event.key === "p" ? "apply" : "waive");
  }
}

document.addEventListener("keydown", judgeKey);
