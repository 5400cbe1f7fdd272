// pulka review: the page's words in the reader's language. The catalogue is pulka's gettext
// catalogue (pulka/locale/<lang>/LC_MESSAGES/pulka.po), handed over by /api/catalogue as JSON;
// `pybabel extract` finds the strings below by the keywords t and tn. Loaded first.
"use strict";

const catalogue = { lang: "en", messages: {}, plurals: {} };

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    (params && name in params ? String(params[name]) : whole));
}

// A message in the page's language, its {name} placeholders filled from params.
function t(msgid, params) {
  return fill(catalogue.messages[msgid] || msgid, params);
}

// The form of a message for n: the browser's plural rules pick the category (one, few, many).
function tn(singular, plural, n, params) {
  const forms = catalogue.plurals[singular];
  const category = new Intl.PluralRules(catalogue.lang).select(n);
  const text = forms ? forms[category] || forms.other || singular : n === 1 ? singular : plural;
  return fill(text, { n, ...params });
}

// A text with keys in double brackets, "[[u]] undoes it", as text and <kbd> nodes.
function withKeys(text) {
  return text.split(/\[\[(.+?)\]\]/).map((part, i) => (i % 2 ? el("kbd", {}, part) : part))
    .filter((part) => part !== "");
}

function stateWord(state) {
  const words = {
    read: t("read"), doubtful: t("doubtful"), verified: t("verified"), finding: t("finding"),
    empty: t("empty"), needs_review: t("needs review"), audited: t("audited"),
    settled: t("settled"),
  };
  return words[state] || state.replace("_", " ");
}

function callWord(call) {
  const words = { whist: t("whist"), pass: t("pass"), halfwhist: t("half-whist") };
  return words[call] || call;
}

function columnWord(kind) {
  const words = { pool: t("pool"), mountain: t("mountain"), whists: t("whists") };
  return words[kind] || kind;
}

// A decimal the server sends as text ("-40.67") in the page language's digits: "-40,67" in ru.
function decimalText(text) {
  const value = Number(text);
  return Number.isFinite(value) ? value.toLocaleString(catalogue.lang,
    { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : String(text);
}

function keyHints() {
  return [t("[[0]]…[[9]] type a value, [[⏎]] saves it"),
    t("[[⏎]] alone accepts candidate [[a]]"), t("[[a]]…[[i]] accept that candidate"),
    t("[[x]] illegible"), t("[[s]] / [[Space]] skip"), t("[[u]] / [[Ctrl]]+[[Z]] undo"),
    t("[[v]] sheet view"), t("[[l]] all sheets"),
    t("findings: [[p]] apply, [[w]] waive, [[m]] misread, [[o]] sign off")]
    .map((hint) => el("span", {}, withKeys(hint)));
}

function translateStatic() {
  document.documentElement.lang = catalogue.lang;
  document.title = t("pulka review");
  $("#top h1").replaceChildren("pulka ", el("span", {}, t("review")));
  Object.assign($("#to-queue"), { textContent: t("Queue"),
    title: t("the queue of doubtful cells (v)") });
  Object.assign($("#to-sheet"), { textContent: t("Sheet"), title: t("the whole sheet (v)") });
  Object.assign($("#to-sheets"), { textContent: t("All sheets"), title: t("every sheet (l)") });
  $("#queue-list").setAttribute("aria-label", t("doubtful cells by sheet"));
  $("#panel").setAttribute("aria-label", t("findings and settlement"));
  $("#keys").replaceChildren(...keyHints(), $("#status"));
}

async function loadCatalogue() {
  const asked = new URLSearchParams(window.location.search).get("lang");
  const query = asked ? `?lang=${encodeURIComponent(asked)}` : "";
  Object.assign(catalogue, await api(`/api/catalogue${query}`));
  translateStatic();
}
