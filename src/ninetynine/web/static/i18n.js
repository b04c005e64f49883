// The client's words in the table's language, from the game's own catalogs (GET /api/language:
// the server's compiled gettext catalogs as JSON). _() and ngettext() are written as the
// Python side's, so Babel extracts the messages from these scripts into the same catalogs;
// the page's own sentences are marked data-i18n (data-i18n-attr for attributes).
import { $, el, prefs, readIn } from "./dom.js";

let messages = {};
let categories = ["one", "other"];
let plurals = new Intl.PluralRules("en");
export let lang = "en";

const fill = (text, params) => text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));

// A message in the language, its {placeholders} filled from `params`.
export const _ = (id, params = {}) => fill(typeof messages[id] === "string" ? messages[id] : id, params);

// The form the number n takes (CLDR's rule, as Intl.PluralRules knows it); {n} is filled with n.
export function ngettext(one, many, n, params = {}) {
  const forms = messages[one];
  let text = n === 1 ? one : many;
  if (Array.isArray(forms)) {
    const i = categories.indexOf(plurals.select(n));
    text = forms[i >= 0 ? i : forms.length - 1];
  }
  return fill(text, { n, ...params });
}

// _() for a message made at run time (the server's sentence that the core marks where it
// writes it, as a coach's note): the extractor reads no call of it.
export const translated = (id, params = {}) => _(id, params);

// ngettext for a message made at run time (its forms are in the catalogs because the core
// marks them where it writes them: a counter's "{n} penny"): the extractor reads no call of it.
export const ntranslated = (one, many, n, params = {}) => ngettext(one, many, n, params);

// The chosen language (remembered in this browser), else the server's pick from
// Accept-Language; then the page's marked sentences and the selector. False when no
// catalog came (offline, the server down): the page stays in English.
export async function loadLanguage() {
  const chosen = prefs.get("lang", null);
  const ask = (tag) => fetch(`/api/language${tag ? `?lang=${encodeURIComponent(tag)}` : ""}`)
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))));
  let data;
  try {
    data = await ask(chosen).catch(() => ask(null));
  } catch {
    return false;
  }
  messages = data.messages;
  categories = data.plural;
  lang = data.lang;
  plurals = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  readIn(lang);
  translatePage();
  offerLanguages(data.languages);
  return true;
}

function translatePage() {
  for (const e of document.querySelectorAll("[data-i18n]")) {
    e.textContent = _(e.textContent.replace(/\s+/g, " ").trim());
  }
  for (const e of document.querySelectorAll("[data-i18n-attr]")) {
    for (const name of e.dataset.i18nAttr.split(/\s+/)) {
      const value = e.getAttribute(name);
      if (value) e.setAttribute(name, _(value.replace(/\s+/g, " ").trim()));
    }
  }
}

// The selector lists each language by its own name; a choice is remembered and reloads the
// page, so everything on it is made again in the new language.
function offerLanguages(languages) {
  const select = $("language");
  if (!select) return;
  select.replaceChildren(...languages.map((l) =>
    el("option", { value: l.tag, lang: l.tag, selected: l.tag === lang ? "" : null }, l.native)));
  select.hidden = false;
  select.addEventListener("change", () => {
    prefs.set("lang", select.value);
    location.reload();
  });
}
