// Small helpers every page uses: elements, the JSON API, remembered preferences.
// Styles are set through classes or the CSSOM only: the server's content security policy
// forbids inline style attributes and scripts.

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  e.append(...children.filter((c) => c !== null && c !== undefined && c !== ""));
  return e;
}

const SVG = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

// A control's icon drawn from a path in a 24 x 24 box: no font's glyphs needed.
export const icon = (d) => svg("svg", { class: "icon", viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
                               svg("path", { d }));

// The language the server says its refusals in: the page's (i18n.js sets it once loaded).
let reading = null;
export const readIn = (tag) => { reading = tag; };

export async function api(path, body) {
  const headers = reading ? { "Accept-Language": reading } : {};
  const res = await fetch(path, body === undefined ? { headers } : {
    method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw Object.assign(new Error(data.said || data.error || data.message || `HTTP ${res.status}`), { status: res.status, code: data.code });
  return data;
}


export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

// Preferences kept in this browser: the player's name, the sound, speech and chat toggles.
export const prefs = {
  get: (key, fallback) => {
    const v = localStorage.getItem(`nn-${key}`);
    return v === null ? fallback : JSON.parse(v);
  },
  set: (key, value) => localStorage.setItem(`nn-${key}`, JSON.stringify(value)),
};
export const savedName = () => localStorage.getItem("nn-name") || "";
export const saveName = (name) => localStorage.setItem("nn-name", name);
export const tokenKey = (id) => `nn-token-${id}`;
// The bot level a table gets unless its creator picks one: the middle one, where offered.
export const defaultLevel = (levels) => (levels.includes("medium") ? "medium" : levels[0]);

// A toggle button (aria-pressed) bound to a remembered preference.
export function bindToggle(button, key, fallback, onChange = () => {}) {
  const show = (on) => { button.setAttribute("aria-pressed", String(on)); onChange(on); };
  show(prefs.get(key, fallback));
  button.addEventListener("click", () => {
    const on = button.getAttribute("aria-pressed") !== "true";
    prefs.set(key, on);
    show(on);
  });
}
