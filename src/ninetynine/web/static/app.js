// The browser client: a lobby and a table. The server is authoritative; this page only
// shows the view it is sent and sends actions with the state id it saw.
const $ = (id) => document.getElementById(id);
const RANKS = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };
const SUITS = { S: ["Spades", "\u2660"], H: ["Hearts", "\u2665"], D: ["Diamonds", "\u2666"], C: ["Clubs", "\u2663"] };
const ACTIONS = { down: "Lay down", pass: "Pass", draw: "Draw a card", nodraw: "Do not draw" };

// A card, then what tells its plays apart: a value (AS+11), a total it sets (AS=57) or
// the seat it names to play next (5S>3).
function cardParts(text) {
  const m = /^(10|[2-9AJQK])([SHDC])(?:([+-]\d+)|=(\d+)|>(\d+))?$/.exec(text);
  return m ? { rank: m[1], suit: m[2], value: m[3], to: m[4], target: m[5] } : null;
}
const seatName = (n) => last?.table?.seats?.[n - 1]?.name || `Seat ${n}`;
function choiceLabel(action) {
  const p = cardParts(action);
  return p.value || (p.target ? seatName(Number(p.target)) : `= ${p.to}`);
}
function cardName(text) {
  const p = cardParts(text);
  if (!p) return ACTIONS[text] || text;
  return `${RANKS[p.rank] || p.rank} of ${SUITS[p.suit][0]}` + (p.value ? ` as ${p.value}` : "") +
    (p.to ? `, setting the total to ${p.to}` : "") + (p.target ? `, ${seatName(Number(p.target))} plays next` : "");
}
function turnNote(v) {  // what a no-draw chain asks of the player to act
  if (v.plays_left) return `Play ${v.plays_left} more card${v.plays_left === 1 ? "" : "s"} without drawing.`;
  if (v.chain) return `Play ${v.chain === 1 ? "a card" : `${v.chain} cards in a row`} without drawing, or answer with another no-draw card.`;
  return "";
}
function cardFace(text) {
  const p = cardParts(text);
  return p ? `${p.rank}${SUITS[p.suit][1]}` : text;
}
function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}
async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}
const tokenKey = (id) => `nn-token-${id}`;
const savedName = () => localStorage.getItem("nn-name") || "";

// Lobby ------------------------------------------------------------------------------
let presetList = [], botLevels = ["easy", "medium", "hard"];
async function showLobby() {
  $("lobby").hidden = false;
  botLevels = (await api("/api/config")).bots;  // the levels this server offers
  $("name").value = savedName();
  $("name").addEventListener("change", () => localStorage.setItem("nn-name", $("name").value));
  presetList = await api("/api/presets");
  for (const p of presetList) $("rules").append(el("option", { value: p.id }, `${p.id}: ${p.name}`));
  const describe = () => {
    const p = presetList.find((x) => x.id === $("rules").value);
    $("rules-desc").textContent = p ? p.description : "";
  };
  $("rules").addEventListener("change", describe);
  describe();
  $("players").addEventListener("input", seatKinds);
  seatKinds();
  $("create-form").addEventListener("submit", createTable);
  $("refresh").addEventListener("click", listTables);
  listTables();
}
function seatKinds() {
  const box = $("seat-kinds");
  const n = Math.max(2, Math.min(10, Number($("players").value) || 2));
  box.querySelectorAll(".field").forEach((l) => l.remove());
  for (let i = 2; i <= n; i++) {
    const sel = el("select", { id: `seat-${i}` });
    sel.append(el("option", { value: "" }, "a friend (invite)"));
    for (const level of botLevels) sel.append(el("option", { value: level }, `bot: ${level}`));
    const field = el("div", { class: "field" });
    field.append(el("label", { for: `seat-${i}` }, `Seat ${i}`), " ", sel);
    box.append(field);
  }
}
async function createTable(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const n = Number($("players").value);
  const bots = {};
  for (let i = 2; i <= n; i++) { const v = $(`seat-${i}`)?.value; if (v) bots[i] = v; }
  const body = { name: $("name").value.trim() || null, rules: $("rules").value, players: n, bots,
                 clock: $("clock").value ? Number($("clock").value) : null, public: $("public").checked };
  const file = $("house").files[0];
  if (file) body.house_rules = await file.text();
  try {
    localStorage.setItem("nn-name", $("name").value);
    const res = await api("/api/tables", body);
    localStorage.setItem(tokenKey(res.table), res.token);
    location.href = res.invite;
  } catch (e) { $("create-error").textContent = e.message; }
}
async function listTables() {
  const ul = $("open-tables");
  ul.replaceChildren();
  const tables = await api("/api/tables");
  if (!tables.length) ul.append(el("li", {}, "No public tables yet. Create one!"));
  for (const t of tables) {
    const li = el("li");
    const open = t.seats.filter((s) => s.kind === "open").length;
    const what = t.status === "waiting" ? `${open} open seat${open === 1 ? "" : "s"}` : "playing";
    li.append(el("span", {}, `${t.rules.name}: ${t.seats.map((s) => s.name).join(", ")} (${what}) `));
    li.append(el("a", { href: `/t/${t.id}` }, t.status === "waiting" ? "Join" : "Watch"));
    ul.append(li);
  }
}

// Table ------------------------------------------------------------------------------
let tableId = null, ws = null, last = null, mySeat = null, retry = 0, watching = false;
let choiceFor = null;

function showTable(id) {
  tableId = id;
  $("table").hidden = false;
  const token = localStorage.getItem(tokenKey(id));
  if (token || watching) return connect();
  $("join-panel").hidden = false;
  $("join-name").value = savedName();
  api(`/api/tables/${id}`).then((t) => {
    if (t.status !== "waiting") { $("join").hidden = true; $("join-h").textContent = "This game has started"; }
  }).catch((e) => { $("join-error").textContent = e.message; });
  $("join").addEventListener("click", async () => {
    try {
      localStorage.setItem("nn-name", $("join-name").value);
      const res = await api(`/api/tables/${id}/join`, { name: $("join-name").value.trim() || null });
      localStorage.setItem(tokenKey(id), res.token);
      $("join-panel").hidden = true;
      connect();
    } catch (e) { $("join-error").textContent = e.message; }
  });
  $("watch").addEventListener("click", () => { watching = true; $("join-panel").hidden = true; connect(); });
}
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  $("conn").textContent = "Connecting\u2026";
  ws.onopen = () => {
    retry = 0;
    ws.send(JSON.stringify({ type: "hello", token: localStorage.getItem(tokenKey(tableId)) }));
  };
  ws.onmessage = (m) => onMessage(JSON.parse(m.data));
  ws.onclose = (ev) => {
    if (ev.code === 4000) return;
    $("conn").textContent = "Connection lost: reconnecting\u2026";
    setTimeout(connect, Math.min(5000, 300 * 2 ** retry++));
  };
}
function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }

function onMessage(msg) {
  if (msg.type === "error") {
    $("error").textContent = msg.message;
    if (msg.code === "bad_token") { localStorage.removeItem(tokenKey(tableId)); location.reload(); }  // join or watch instead
    if (msg.code === "no_table") $("conn").textContent = msg.message;
    return;
  }
  if (msg.type === "rematch") {
    const token = localStorage.getItem(tokenKey(tableId));
    if (token) localStorage.setItem(tokenKey(msg.table), token);
    location.href = `/t/${msg.table}`;
    return;
  }
  if (msg.type === "pong") return;
  $("conn").textContent = "";
  if (msg.type === "sync") $("log").replaceChildren();
  for (const e of msg.events) if (e.text) addLog(e.text);
  handSummary(msg.events);
  if (msg.state !== last?.state) $("error").textContent = "";
  last = msg;
  render(msg);
}
// End of a hand: who went over and what it cost, until the next hand's first card.
const HAND_END = new Set(["Busted", "LifeLost", "LifeGained", "PlayerOut", "SatOut", "HandEnded",
                          "HandScored", "BorderCrossed", "InstantHand"]);
function handSummary(events) {
  const box = $("hand-summary");
  const ended = events.filter((e) => HAND_END.has(e.kind) && e.text);
  if (events.some((e) => ["HandEnded", "LifeLost", "PlayerOut", "GameOver"].includes(e.kind))) {
    box.replaceChildren(el("strong", {}, "End of the hand: "), ...ended.map((e) => el("span", {}, `${e.text} `)));
    box.hidden = false;
  } else if (events.some((e) => e.kind === "CardPlayed")) {
    box.hidden = true;
  }
}
let deadline = null;
setInterval(() => {
  if (deadline !== null) $("clock-left").textContent = `${Math.max(0, Math.ceil((deadline - Date.now()) / 1000))} s`;
}, 500);

function addLog(text) {
  const log = $("log");
  log.append(el("li", {}, text));
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}
function render(msg) {
  const v = msg.view, t = msg.table;
  mySeat = v.seat;
  $("board").hidden = false;
  $("rules-name").textContent = `${t.rules.name} \u00b7 ${t.status === "waiting" ? "waiting for players" : t.status}`;
  $("invite").value = `${location.origin}/t/${t.id}`;
  $("total").textContent = v.total;
  $("limit").textContent = ` / ${v.limit}`;
  $("direction").textContent = v.direction === "cw" ? "\u21bb clockwise" : "\u21ba counter-clockwise";
  const turnSeat = v.turn ? t.seats[v.turn - 1] : null;
  $("turn").textContent = !turnSeat ? "\u2014" : v.turn === v.seat ? "You" : turnSeat.name;
  $("clock-box").hidden = t.clock_left === null;
  deadline = t.clock_left === null ? null : Date.now() + t.clock_left * 1000;
  $("clock-left").textContent = t.clock_left === null ? "" : `${Math.ceil(t.clock_left)} s`;
  $("pile").replaceChildren(...v.pile.slice(-3).map((c) => el("span", { class: `card mini s${cardParts(c).suit}`, "aria-label": cardName(c) }, cardFace(c))));
  renderSeats(v, t);
  renderHand(v);
  renderSummary(v, t);
}
function renderSeats(v, t) {
  const ul = $("seats");
  ul.replaceChildren();
  for (const s of t.seats) {
    const i = s.seat - 1;
    const marks = [];
    if (v.turn === s.seat) marks.push("to play");
    if (!v.alive[i]) marks.push("out"); else if (!v.in_hand[i]) marks.push("out of this hand");
    if (s.kind === "open") marks.push("open seat");
    if (s.kind === "human" && !s.connected) marks.push("away");
    if (s.bot_playing) marks.push("bot playing");
    const lives = v.scoring === "game_points" ? `${v.scores[i]} points` : `${v.lives[i]} lives`;
    const li = el("li", { class: `seat${v.turn === s.seat ? " active" : ""}${s.seat === v.seat ? " me" : ""}` });
    li.append(el("strong", {}, `${s.name}${s.seat === v.seat ? " (you)" : ""}`));
    li.append(el("span", {}, ` ${lives}, ${v.hand_sizes[i]} cards`));
    if (marks.length) li.append(el("em", {}, ` \u2014 ${marks.join(", ")}`));
    ul.append(li);
  }
}
function renderHand(v) {
  $("hand-section").hidden = v.seat === null;
  const hand = $("hand"), extra = $("extra");
  const focusIndex = [...hand.children].indexOf(document.activeElement);  // keep keyboard focus
  const extraFocused = extra.contains(document.activeElement);
  hand.replaceChildren(); extra.replaceChildren();
  const myTurn = v.turn === v.seat && v.phase !== "over";
  const byCard = {};
  for (const a of v.legal) { const p = cardParts(a); if (p) (byCard[p.rank + p.suit] ||= []).push(a); }
  v.hand.forEach((c, i) => {
    const legal = myTurn && byCard[c];
    const b = el("button", { type: "button", class: `card s${cardParts(c).suit}${legal ? " legal" : ""}`,
      "aria-label": `${cardName(c)}${legal ? ", playable" : ", not playable now"}`, "data-card": c },
      cardFace(c));
    b.setAttribute("aria-disabled", String(!legal));  // still focusable, so it can be read
    b.addEventListener("click", () => playCard(c, byCard[c]));
    if (i < 9) b.setAttribute("aria-keyshortcuts", String(i + 1));
    hand.append(b);
  });
  if (myTurn && turnNote(v)) extra.append(el("p", { class: "note", role: "status" }, turnNote(v)));
  for (const a of v.legal) if (!cardParts(a)) {
    const b = el("button", { type: "button", class: "action", "data-action": a }, ACTIONS[a] || a);
    b.addEventListener("click", () => act(a));
    extra.append(b);
  }
  if (focusIndex >= 0 || extraFocused) {
    const target = hand.querySelector("button.legal") || extra.querySelector("button") ||
                   hand.children[Math.min(Math.max(focusIndex, 0), hand.children.length - 1)];
    if (target) target.focus();
  }
  if (choiceFor && !(myTurn && byCard[choiceFor])) { choiceFor = null; }
  $("choice").hidden = !choiceFor;
}
function playCard(card, options) {
  if (!options) return;
  if (options.length === 1) return act(options[0]);
  choiceFor = card;
  const box = $("choice"), first = cardParts(options[0]);
  const pick = (a) => { choiceFor = null; box.hidden = true; act(a); };
  const question = first.target ? "who plays next?" : first.to ? "set the total to" : "play as";
  box.setAttribute("aria-label", `${cardName(card)}: ${question}`);
  box.replaceChildren(el("span", {}, `${cardName(card)}: ${question} `));
  if (first.to) {  // any total from 0 to the limit: typed, not a row of buttons
    const top = Math.max(...options.map((a) => Number(cardParts(a).to)));
    const input = el("input", { type: "number", min: "0", max: String(top), "aria-label": `New total, 0 to ${top}` });
    const go = el("button", { type: "button" }, "Play");
    const submit = () => {
      const a = options.find((o) => cardParts(o).to === String(Number(input.value)));
      if (a && input.value !== "") pick(a); else $("error").textContent = `Type a total from 0 to ${top}.`;
    };
    go.addEventListener("click", submit);
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") submit(); });
    box.append(input, go);
    box.hidden = false;
    input.focus();
    return;
  }
  for (const a of options) {
    const b = el("button", { type: "button", "data-action": a, "aria-label": cardName(a) }, choiceLabel(a));
    b.addEventListener("click", () => pick(a));
    box.append(b);
  }
  box.hidden = false;
  box.querySelector("button").focus();
}
function act(action) {
  if (!last) return;
  send({ type: "act", state: last.state, action });
}
function renderSummary(v, t) {
  const over = v.phase === "over";
  $("summary").hidden = !over;
  if (!over) return;
  const names = (v.outcome?.winners || []).map((w) => t.seats[w - 1].name);
  $("summary-text").textContent = names.length
    ? `${names.join(" and ")} win${names.length === 1 ? "s" : ""} (${v.outcome.reason.replaceAll("_", " ")}).`
    : "Nobody wins.";
  $("record-link").href = `/api/tables/${t.id}/record`;
  $("rematch").hidden = v.seat === null;
}

function setupTableControls() {
  $("copy").addEventListener("click", () => navigator.clipboard?.writeText($("invite").value));
  $("rematch").addEventListener("click", () => send({ type: "rematch" }));
  $("leave").addEventListener("click", () => { send({ type: "leave" }); location.href = "/"; });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") { choiceFor = null; $("choice").hidden = true; return; }
    const n = Number(e.key);
    if (n >= 1 && n <= 9) { const b = $("hand").children[n - 1]; if (b && b.classList.contains("legal")) b.click(); }
  });
  setInterval(() => send({ type: "ping" }), 20000);
}

const m = /^\/t\/([A-Za-z0-9_-]+)$/.exec(location.pathname);
if (m) { setupTableControls(); showTable(m[1]); } else { showLobby(); }
