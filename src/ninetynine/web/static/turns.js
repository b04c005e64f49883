// Turn-based play for a signed-in account: "My games" (my turn first, each a link that opens
// my seat on this device), the e-mail for "your turn", and the browser's own notification
// when a tab is open and it becomes my turn. The server (/api/account/tables,
// /api/account/contact, docs/server.md) decides; this page only asks.
import { $, api, el, tokenKey } from "./dom.js";
import { _, ngettext } from "./i18n.js";

let wired = false;

// "2 days", "5 hours", "40 min": a turn clock or what is left of it, for people, in the
// page's language (the server's words for a turn clock: web/wire.py clock_text).
export function duration(seconds) {
  if (seconds >= 86400) { const d = Math.round(seconds / 86400); return ngettext("{n} day", "{n} days", d); }
  if (seconds >= 3600) { const h = Math.round(seconds / 3600); return ngettext("{n} hour", "{n} hours", h); }
  if (seconds >= 60) return _("{n} min", { n: Math.round(seconds / 60) });
  return _("{n} s", { n: Math.ceil(seconds) });
}

function wire() {
  wired = true;
  $("contact-form").addEventListener("submit", (ev) => { ev.preventDefault(); act(saveContact); });
}

// Called by the account area whenever who is signed in changes.
export function renderTurns(account) {
  if (!wired) wire();
  $("my-games").hidden = !account;
  $("my-games-error").textContent = "";
  if (account) { act(listGames); act(loadContact); }
}

async function act(step) {
  try { await step(); } catch (e) { $("my-games-error").textContent = e.message; }
}

async function listGames() {
  const { tables } = await api("/api/account/tables");
  $("my-games-list").replaceChildren(...tables.map(game));
  if (!tables.length) $("my-games-list").append(el("li", { class: "hint" }, _("No games going: set up a table below.")));
}

function game(g) {
  const open = g.players.filter((p) => p.kind === "open").length;
  const others = [...g.players.filter((p) => p.seat !== g.seat && p.kind !== "open").map((p) => p.name),
                  ...(open ? [ngettext("{n} open seat", "{n} open seats", open)] : [])].join(", ");
  const turn = g.status === "waiting" ? _("waiting for players")
    : g.my_turn ? _("your turn") : g.turn ? _("{name} to play", { name: g.players[g.turn - 1].name }) : _("dealing");
  const left = g.my_turn && g.clock_left !== null ? " \u00b7 " + _("{time} left", { time: duration(g.clock_left) }) : "";
  const link = el("a", { class: `button${g.my_turn ? " primary" : ""}`, href: g.link }, g.my_turn ? _("Play") : _("Open"),
                  el("span", { class: "visually-hidden" }, " " + _("{rules} with {who}", { rules: g.rules.name, who: others })));
  link.addEventListener("click", (ev) => {  // no token here (another device's seat): open mine
    if (localStorage.getItem(tokenKey(g.table))) return;
    ev.preventDefault();
    act(async () => {
      const res = await api(`/api/tables/${encodeURIComponent(g.table)}/seat`, {});
      localStorage.setItem(tokenKey(g.table), res.token);
      location.href = g.link;
    });
  });
  return el("li", { class: `listing${g.my_turn ? " my-turn" : ""}` },
    el("div", { class: "what" }, el("strong", {}, g.rules.name),
       el("span", { class: `badge ${g.my_turn ? "waiting" : "playing"}` }, turn + left)),
    el("p", { class: "who" }, _("with {who}", { who: others })), link);
}

async function loadContact() {
  const c = await api("/api/account/contact");
  $("contact-email").value = c.email || "";
  $("contact-email-on").checked = c.email_on;
  $("contact-webhook-on").checked = c.webhook_on;
  $("contact-note").textContent = c.email_sent ? "" : _("This server sends no e-mail (its operator set none up).");
}

async function saveContact() {
  $("contact-saved").textContent = "";
  await api("/api/account/contact", { email: $("contact-email").value.trim(),
    email_on: $("contact-email-on").checked, webhook_on: $("contact-webhook-on").checked });
  $("contact-saved").textContent = _("Saved.");
}

// The browser's notification: asked for on a click (never on load), shown when it becomes
// my turn while this tab is in the background.
export function notifyButton(button) {
  const can = "Notification" in window;
  button.hidden = !can || Notification.permission !== "default";
  button.addEventListener("click", async () => {
    const answer = await Notification.requestPermission();
    button.hidden = true;
    $("notify-state").textContent = answer === "granted"
      ? _("This tab will tell you when it is your turn.") : _("Notifications are off for this site.");
  });
}

let wasMine = null;
export function turnNotice(mine, table) {
  if (wasMine === false && mine && document.hidden && "Notification" in window
      && Notification.permission === "granted") {
    new Notification(_("Your turn at Ninety-Nine"), { body: table.rules.name, tag: `nn-${table.id}` });
  }
  wasMine = mine;
}
