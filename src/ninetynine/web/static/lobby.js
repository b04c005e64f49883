// The lobby: play against bots in one click, the public tables as they come and go (a
// live feed, no Refresh button), a table set up by hand, and a record to replay.
import { $, api, defaultLevel, el, saveName, savedName, tokenKey } from "./dom.js";
import { _, ngettext } from "./i18n.js";
import { cardFace } from "./cards.js";
import { showReplay } from "./replay.js";
import { showAccount } from "./account.js";

let presetList = [], botLevels = ["easy", "medium", "hard"];

export async function showLobby() {
  $("lobby").hidden = false;
  $("hero-cards").replaceChildren(...["AS", "10H", "KS", "4D", "9C"].map((c) => el("span", { class: "hero-card" }, cardFace(c))));
  $("name").value = savedName();
  $("name").addEventListener("change", () => saveName($("name").value));
  $("play-now").addEventListener("click", playNow);
  $("create-form").addEventListener("submit", createTable);
  $("turn-based").addEventListener("change", () => {  // hours or days instead of seconds
    $("turn-clock-field").hidden = !$("turn-based").checked;
    $("clock").closest(".field").hidden = $("turn-based").checked;
  });
  $("record-file").addEventListener("change", replayFile);
  follow();
  showAccount();  // optional: a guest's play does not wait for it
  botLevels = (await api("/api/config")).bots;  // the levels this server offers
  presetList = await api("/api/presets");
  for (const p of presetList) $("rules").append(el("option", { value: p.id }, `${p.name} (${p.id})`));
  $("rules").addEventListener("change", describe);
  describe();
  $("players").addEventListener("input", seatKinds);
  seatKinds();
}

function describe() {
  const p = presetList.find((x) => x.id === $("rules").value);
  $("rules-desc").textContent = p ? p.description : "";
  if (p) { $("players").min = String(p.players[0]); $("players").max = String(p.players[1]); }
}

// A bot level in words; a level this page does not know (a server's own) as the server names it.
const LEVELS = { easy: () => _("easy"), medium: () => _("medium"), hard: () => _("hard") };

function seatKinds() {
  const box = $("seat-kinds");
  const n = Math.max(2, Math.min(12, Number($("players").value) || 2));
  const kept = Object.fromEntries([...box.querySelectorAll("select")].map((s) => [s.id, s.value]));
  box.querySelectorAll(".field").forEach((f) => f.remove());
  for (let i = 2; i <= n; i++) {
    const sel = el("select", { id: `seat-${i}` });
    sel.append(el("option", { value: "" }, _("a friend (invite)")));
    for (const level of botLevels) {
      sel.append(el("option", { value: level }, _("bot: {level}", { level: LEVELS[level]?.() ?? level })));
    }
    sel.value = kept[`seat-${i}`] ?? defaultBot();  // Create at once plays: no wait for friends
    box.append(el("div", { class: "field" }, el("label", { for: `seat-${i}` }, _("Seat {n}", { n: i })), sel));
  }
}

async function startTable(body, errorBox) {
  errorBox.textContent = "";
  try {
    saveName($("name").value);
    const res = await api("/api/tables", body);
    localStorage.setItem(tokenKey(res.table), res.token);
    location.href = res.invite;
  } catch (e) { errorBox.textContent = e.message; }
}

const defaultBot = () => defaultLevel(botLevels);

// You and three bots of the middle level, the standard rules.
function playNow() {
  const level = defaultBot();
  startTable({ name: $("name").value.trim() || null, rules: "P", players: 4,
               bots: { 2: level, 3: level, 4: level } }, $("play-now-error"));
}

async function createTable(ev) {
  ev.preventDefault();
  const n = Number($("players").value);
  const bots = {};
  for (let i = 2; i <= n; i++) { const v = $(`seat-${i}`)?.value; if (v) bots[i] = v; }
  const body = { name: $("name").value.trim() || null, rules: $("rules").value, players: n, bots,
                 clock: $("clock").value ? Number($("clock").value) : null, public: $("public").checked };
  if (!$("rated-field").hidden && $("rated").checked) body.rated = true;  // signed in only
  if ($("turn-based").checked) {
    body.turn_based = true;
    body.clock = Number($("turn-clock").value) * Number($("turn-unit").value);
  }
  const file = $("house").files[0];
  if (file) body.house_rules = await file.text();
  startTable(body, $("create-error"));
}

async function replayFile() {
  const file = $("record-file").files[0];
  if (!file) return;
  $("replay-upload-error").textContent = "";
  try {
    await showReplay({ record: await file.text() });
    $("lobby").hidden = true;
  } catch (e) { $("replay-upload-error").textContent = e.message; }
}

// The public tables, pushed by the server whenever they change.
let retry = 0;
function follow() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const feed = new WebSocket(`${proto}://${location.host}/ws/lobby`);
  feed.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.type === "lobby") { retry = 0; listTables(msg.tables); }
  };
  feed.onclose = () => {
    $("feed-state").textContent = _("Reconnecting to the lobby\u2026");
    setTimeout(follow, Math.min(10000, 500 * 2 ** retry++));
  };
}

function listTables(tables) {
  const live = tables.filter((t) => t.status === "waiting" || t.status === "playing");
  $("feed-state").textContent = live.length ? "" : _("No public tables right now: start one, or play the bots.");
  $("open-tables").replaceChildren(...live.map((t) => {
    const open = t.seats.filter((s) => s.kind === "open").length;
    const waiting = t.status === "waiting";
    const who = t.seats.filter((s) => s.kind !== "open").map((s) => s.name).join(", ");
    const link = el("a", { class: "button", href: waiting ? `/t/${t.id}` : `/t/${t.id}?watch=1` },
                    waiting ? _("Join") : _("Watch"),
                    el("span", { class: "visually-hidden" }, _(" {rules} with {who}", { rules: t.rules.name, who })));
    return el("li", { class: "listing" },
      el("div", { class: "what" }, el("strong", {}, t.rules.name),
         el("span", { class: `badge ${t.status}` },
            waiting ? ngettext("{n} open seat", "{n} open seats", open) : _("playing"))),
      el("p", { class: "who" }, who), link);
  }));
}
