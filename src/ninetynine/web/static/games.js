// The lobby's "Finished games" area, for a signed-in account: its finished games, newest first,
// each with its replay, the coach's review and its record one click away; a download of every
// record; its profile (games and wins per rule set, ratings with a graph drawn here as inline
// SVG); and, on signing up or in, the seats this browser played as a guest claimed for it.
// The server (/api/account/games, /api/players, docs/server.md) decides what is shown.
import { $, api, el, svg } from "./dom.js";
import { _, lang, ngettext } from "./i18n.js";

let wired = false;
let account = null;
let next = null;  // the next page's "before", or null

function wire() {
  wired = true;
  $("games-more").addEventListener("click", () => act(() => list(false)));
  $("profile-show").addEventListener("click", () => act(profile));
}

// Called by the account area whenever who is signed in changes.
export function renderGames(who) {
  if (!wired) wire();
  if (who?.id !== account?.id) {  // another account (or none): nothing of the last one stays
    $("profile").replaceChildren();
    $("games-note").textContent = "";
  }
  account = who;
  $("games").hidden = !who;
  $("rated-field").hidden = !who;  // the lobby's form: a rated table needs a signed-in creator
  if (who) act(() => list(true));
}

async function act(step) {
  $("games-error").textContent = "";
  try {
    await step();
  } catch (e) {
    $("games-error").textContent = e.message;
  }
}

// The seat tokens this browser kept (lobby.js, play.js): the seats it played as a guest.
export async function claimSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith("nn-token-")) seats.push({ table: key.slice("nn-token-".length), token: localStorage.getItem(key) });
  }
  if (!seats.length) return;
  await act(async () => {
    const res = await api("/api/account/claim", { seats: seats.slice(0, 50) });
    const done = res.claimed.filter((c) => c.finished).length;
    if (done) {
      $("games-note").textContent = ngettext("{n} game you played as a guest is now yours.",
                                             "{n} games you played as a guest are now yours.", done);
    }
    await list(true);
  });
}

function ordinal(n) {  // 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st; another language's own
  // TRANSLATORS: a place in a game's results (2nd, 3rd...), as in "{ordinal} of {players}"
  if (lang !== "en") return _("{n}th", { n });
  if (n % 100 >= 11 && n % 100 <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}
const signed = (x) => `${x >= 0 ? "+" : "\u2212"}${Math.abs(x).toFixed(1)}`;

async function list(reset) {
  const page = await api(`/api/account/games${!reset && next ? `?before=${encodeURIComponent(next)}` : ""}`);
  next = page.next;
  const items = page.games.map(item);
  if (reset) $("games-list").replaceChildren(...items);
  else $("games-list").append(...items);
  if (reset && !items.length) {
    $("games-list").append(el("li", { class: "hint" }, _("No finished games yet: play one to the end.")));
  }
  $("games-more").hidden = !next;
}

function item(g) {
  const when = new Date(g.finished * 1000).toLocaleDateString(lang);
  const others = g.players.filter((_, i) => i !== g.seat - 1).join(", ");
  const rating = g.rating ? el("span", { class: "game-rating" }, _(" · rating {change}", { change: signed(g.rating.ordinal) })) : null;
  return el("li", { class: "game" },
    el("span", { class: "game-what" },
      el("strong", {}, g.won ? _("Won") : _("{ordinal} of {players}", { ordinal: ordinal(g.place), players: g.players.length })),
      ` ${g.rules.name}`,
      el("span", { class: "hint" }, (g.rated ? _(" with {others}, {when}, rated", { others, when })
                                              : _(" with {others}, {when}", { others, when }))), rating),
    el("span", { class: "game-links" },
      el("a", { href: g.links.replay }, _("Replay")), " ",
      el("a", { href: g.links.review }, _("Review")), " ",
      el("a", { href: g.links.record, download: "" }, _("Record"))));
}

async function profile() {
  const p = await api(`/api/players/${encodeURIComponent(account.id)}`);
  const rules = p.rules.map((r) => el("li", {}, _("{rules}: {games}, {wins}", {
    rules: r.name, games: ngettext("{n} game", "{n} games", r.games), wins: ngettext("{n} win", "{n} wins", r.wins) })));
  const ratings = p.ratings.map((r) => el("div", { class: "rating" },
    el("p", {}, el("strong", {}, r.family),
       _(" {mu} \u00b1 {sigma} (ordinal {ordinal}), ", { mu: r.mu.toFixed(1), sigma: r.sigma.toFixed(1), ordinal: r.ordinal.toFixed(1) }),
       ngettext("{n} rated game", "{n} rated games", r.games)),
    graph(r)));
  $("profile").replaceChildren(
    el("h3", { class: "profile-h" }, _("{name}'s profile", { name: p.name })),
    el("ul", { class: "profile-rules" }, ...(rules.length ? rules : [el("li", { class: "hint" }, _("No finished games yet."))])),
    ...(ratings.length ? ratings : [el("p", { class: "hint" }, _("No rated games yet: create a rated table to get a rating."))]));
}

// The rating (mu) after each rated game, with its uncertainty (mu +- sigma) as a band.
function graph(r) {
  const W = 320, H = 110, PAD = 8;
  const pts = [{ mu: 25, sigma: 25 / 3 }, ...r.points];  // from where every account starts
  const lo = Math.min(...pts.map((p) => p.mu - p.sigma)), hi = Math.max(...pts.map((p) => p.mu + p.sigma));
  const x = (i) => PAD + (W - 2 * PAD) * (pts.length === 1 ? 0.5 : i / (pts.length - 1));
  const y = (v) => H - PAD - (H - 2 * PAD) * (hi === lo ? 0.5 : (v - lo) / (hi - lo));
  const line = pts.map((p, i) => `${x(i).toFixed(1)},${y(p.mu).toFixed(1)}`).join(" ");
  const band = [...pts.map((p, i) => `${x(i).toFixed(1)},${y(p.mu + p.sigma).toFixed(1)}`),
                ...pts.map((p, i) => `${x(i).toFixed(1)},${y(p.mu - p.sigma).toFixed(1)}`).reverse()].join(" ");
  return svg("svg", { class: "rating-graph", viewBox: `0 0 ${W} ${H}`, role: "img",
                      "aria-label": _("{family} rating over {games}: from 25.0 to {mu}", {
                        family: r.family, games: ngettext("{n} rated game", "{n} rated games", r.points.length), mu: r.mu.toFixed(1) }) },
    svg("polygon", { class: "rating-band", points: band }),
    svg("polyline", { class: "rating-line", points: line }),
    ...pts.map((p, i) => svg("circle", { class: "rating-dot", cx: x(i).toFixed(1), cy: y(p.mu).toFixed(1), r: "2.5" })));
}
