// A live table: the connection, the frames the server sends (shown one by one, with a
// pause at the end of a hand), the player's moves, chat, and the end of the game.
// The server is authoritative: this page shows the view it is sent and sends actions with
// the state id it saw.
import { $, api, bindToggle, el, icon, prefs, saveName, savedName, tokenKey } from "./dom.js";
import { cardLabel, cardName, cardParts, minus, moveName } from "./cards.js";
import {
  cardNotes, counterOf, describeCard, hideBubbles, livesIcons, livesText, renderCenter, renderHand,
  passCard, renderSeats, seatLabel, seatNameOf, seatRect, showBubble, slideToPile,
} from "./board.js";
import { announce, readerMode, readOut, speak, turnCue } from "./cues.js";
import { _, lang, ngettext } from "./i18n.js";
import { coachFrame, initCoach, showCoach } from "./coach.js";
import { duration, notifyButton, turnNotice } from "./turns.js";

let tableId = null, ws = null, retry = 0, watching = false;
let last = null, rules = null;  // the frame on screen and the table's card labels
let choiceFor = null;
const queue = [];  // frames waiting while the end of a hand is on screen
let holding = false, holdTimer = null;
const HAND_PAUSE_MS = 6000;

const seatName = (n) => seatNameOf(last?.table?.seats)(n);

export function showTable(id, { watch = false } = {}) {
  tableId = id;
  watching = watch;
  document.body.classList.toggle("watching", watching);
  $("table").hidden = false;
  setupControls();
  const token = localStorage.getItem(tokenKey(id));
  if (token || watching) return connect();
  seatOrJoin(id);
}

// This page's token was replaced at another device (it reopened the seat): remembered for
// the reload, so that this page does not take the seat back and the two do not take it
// from each other in turn. A reload after that takes it back, as the player asks.
const movedKey = (id) => `nn-seat-moved-${id}`;

// No token for this table here (a new device, a cleared browser): a signed-in player who
// holds a seat gets it back from the account (a fresh token; the old one's connections
// are closed); anybody else may take an open seat or watch.
async function seatOrJoin(id) {
  const moved = sessionStorage.getItem(movedKey(id));
  sessionStorage.removeItem(movedKey(id));
  const signedIn = await api("/api/account/me").then((r) => !!r.account, () => false);
  if (!signedIn) return offerSeat(id);
  if (moved) return offerSeat(id, _("Your seat was opened on another device: reload this page to play here."));
  try {
    const res = await api(`/api/tables/${encodeURIComponent(id)}/seat`, {});
    localStorage.setItem(tokenKey(id), res.token);
  } catch {
    return offerSeat(id);  // the account holds no seat here (no_seat)
  }
  connect();
}

// No seat of this browser's: take an open one, or watch.
function offerSeat(id, note = "") {
  $("join-panel").hidden = false;
  $("join-error").textContent = note;
  $("join-name").value = savedName();
  api(`/api/tables/${id}`).then((t) => {
    if (t.status !== "waiting") { $("join").hidden = true; $("join-h").textContent = _("This game has started"); }
    $("join-rules").textContent = `${t.rules.name} \u00b7 ${t.seats.map(seatLabel).join(", ")}`;
  }).catch((e) => { if (e.status === 404) missing(); else $("join-error").textContent = e.message; });
  $("join").addEventListener("click", async () => {
    try {
      saveName($("join-name").value);
      const res = await api(`/api/tables/${id}/join`, { name: $("join-name").value.trim() || null });
      localStorage.setItem(tokenKey(id), res.token);
      $("join-panel").hidden = true;
      connect();
    } catch (e) { $("join-error").textContent = e.message; }
  });
  $("watch").addEventListener("click", () => {
    watching = true;
    document.body.classList.add("watching");
    $("join-panel").hidden = true;
    connect();
  });
}

// A link to a table the server does not have: say so, with the way back to the lobby.
function missing() {
  $("join-panel").hidden = true;
  $("board").hidden = true;
  $("missing-panel").hidden = false;
  $("conn").textContent = "";
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${tableId}?lang=${encodeURIComponent(lang)}`);  // its talk in it
  $("conn").textContent = _("Connecting…");
  ws.onopen = () => {
    retry = 0;
    ws.send(JSON.stringify({ type: "hello", token: watching ? null : localStorage.getItem(tokenKey(tableId)) }));
  };
  ws.onmessage = (m) => onMessage(JSON.parse(m.data));
  ws.onclose = (ev) => {
    if (ev.code === 4000) return;  // refused for good: the message says why
    $("conn").textContent = _("Connection lost: reconnecting…");
    setTimeout(connect, Math.min(5000, 300 * 2 ** retry++));
  };
}
const send = (msg) => { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); };

function onMessage(msg) {
  switch (msg.type) {
    case "error":
      showError(msg.said || msg.message);
      if (msg.code === "bad_token") {
        localStorage.removeItem(tokenKey(tableId));
        sessionStorage.setItem(movedKey(tableId), "1");
        location.reload();
      }
      if (msg.code === "no_table") { ws.onclose = null; missing(); }
      return;
    case "rematch": {
      const token = localStorage.getItem(tokenKey(tableId));
      if (token && !watching) localStorage.setItem(tokenKey(msg.table), token);
      location.href = `/t/${msg.table}${watching ? "?watch=1" : ""}`;
      return;
    }
    case "chat": addChat(msg); return;
    case "pong": return;
    case "coach": if (last) showCoach(msg, last.state, (a) => moveName(last.view, a, seatName)); return;
    case "sync":
      queue.length = 0;
      release(false);
      $("conn").textContent = "";
      present(msg, true);
      return;
    case "update":
      queue.push(msg);
      drain();
  }
}

function drain() {
  while (queue.length && !holding) present(queue.shift(), false);
}

// One frame on screen: the talk, the calls, the card that moved, the moments.
function present(msg, sync) {
  if (msg.rules) rules = msg.rules;
  if (sync) {
    $("log").replaceChildren();
    for (const line of msg.chat || []) addChat(line);
  }
  const reading = !sync && readerMode();  // (a sync's events were heard, or happened before)
  for (const e of msg.events) {
    if (!e.text) continue;
    addLog(e.text, e.kind);
    if (reading) readOut(e.text);
  }
  const played = sync ? undefined : msg.events.filter((e) => e.kind === "CardPlayed").at(-1);
  const from = played && (played.seat === last?.view.seat
    ? document.querySelector(`#hand button[data-card="${played.card}"]`)?.getBoundingClientRect()
    : seatRect(played.seat));
  if (msg.state !== last?.state) showError("");
  const before = last?.view;
  last = msg;
  render(msg);
  const v = msg.view;
  turnCue(v.seat !== null && v.turn === v.seat && v.phase !== "over", sync);
  coachFrame(msg, myTurn(v));
  if (sync) {  // the latest call of this hand, still in the air
    $("hand-summary").hidden = true;
    const start = msg.events.findLastIndex((e) => e.kind === "HandStarted");
    const call = msg.events.slice(start + 1).findLast((e) => e.kind === "TotalCalled");
    if (call) showBubble(call.seat, call.said ?? call.call);  // as said in the page's language
    return;
  }
  if (played) slideToPile(from);
  for (const e of msg.events) {  // hands swapped, a card taken, a hand stripped or filled: cards seen to move
    if (e.kind === "HandsSwapped") { passCard(e.seat, e.target); passCard(e.target, e.seat); }
    else if (e.kind === "CardTaken") passCard(e.target, e.seat);
    else if (e.kind === "HandStripped") passCard(e.target, "stock");
    else if (e.kind === "PlayerRevived" || e.kind === "HandFilled") passCard("stock", e.target);
  }
  if (msg.events.some((e) => e.kind === "HandStarted")) hideBubbles();
  for (const e of msg.events.filter((x) => x.kind === "TotalCalled")) {
    showBubble(e.seat, e.said ?? e.call);  // the call in the page's language (the server's said)
    if (!reading) announce(e.text);  // its line of talk, in the page's language (else read as an event)
    speak(e.said ?? e.call);
  }
  if (v.phase !== "over" && msg.events.some((e) => HAND_PAUSE.has(e.kind))) handEnd(msg.events, v, before);
}

// The end of a hand ----------------------------------------------------------------------
const HAND_PAUSE = new Set(["HandEnded", "LifeLost", "PlayerOut"]);
const HAND_END = new Set(["Busted", "LaidDown", "Passed", "LifeLost", "LifeGained", "PlayerOut", "SatOut",
                          "HandEnded", "HandScored", "BorderCrossed", "InstantHand", "SixtyNine"]);
const endLines = (events) => events.filter((e) => HAND_END.has(e.kind) && e.text).map((e) => e.text);

// The pause shows the table as the hand ended (the new state has the next deal under way):
// the last total and pile, and each seat's lives now, with what the hand cost.
function handEnd(events, v, before) {
  const box = $("hand-summary");
  const seats = last.table.seats;
  const played = events.findLast((e) => e.kind === "CardPlayed");
  if (before) {
    const pile = played ? [...before.pile, played.card].slice(-8) : before.pile;
    renderCenter({ view: { ...before, pile, pile_size: before.pile_size + (played ? 1 : 0),
                           total: played ? played.after : before.total, pot: v.pot } });
    showTitle(last.table, before.hand_no);
  }
  const cost = {};
  for (const e of events) if (e.kind === "LifeLost") cost[e.seat] = (cost[e.seat] || 0) + e.amount;
  const hit = new Set(events.filter((e) => e.seat && ["LifeLost", "PlayerOut", "Busted", "BorderCrossed"].includes(e.kind))
    .map((e) => e.seat));
  $("hand-summary-lines").replaceChildren(...endLines(events).map((t) => el("li", {}, t)));
  $("hand-summary-lives").replaceChildren(...seats.map((s) => el("li", { class: hit.has(s.seat) ? "hit" : "" },
    el("span", { class: "name" }, seatLabel(s)), livesIcons(v, s.seat - 1),
    cost[s.seat] ? el("span", { class: "cost" }, `\u2212${cost[s.seat]}`) : null)));
  hideBubbles();
  $("prompt").textContent = _("End of the hand.");
  box.hidden = false;
  holding = true;
  if (!readerMode()) announce(endLines(events).join(" "));  // (else each was read as it came)
  $("next-hand").focus({ preventScroll: true });
  holdTimer = setTimeout(() => release(true), HAND_PAUSE_MS);
}
function release(go) {
  clearTimeout(holdTimer);
  const hadFocus = $("hand-summary").contains(document.activeElement);
  holding = false;
  $("hand-summary").hidden = true;
  if (last) showTitle(last.table, last.view.hand_no);
  if (go) drain();
  // the game over focuses its own result, and a hand that ended among the frames just
  // shown its own button
  if (!hadFocus || !$("summary").hidden || holding) return;
  (document.querySelector("#hand button.legal") || $("hand").firstElementChild || $("prompt")).focus({ preventScroll: true });
}

// Drawing the frame ----------------------------------------------------------------------
// the rules and where the table is: while a hand's end is on screen, that hand's number
function showTitle(t, handNo) {
  const status = { waiting: _("waiting for players"), playing: _("hand {n}", { n: handNo }), over: _("game over"),
                   abandoned: _("abandoned") };
  $("rules-name").textContent = `${t.rules.name} \u00b7 ${status[t.status] || t.status}`;
}
function render(msg) {
  const v = msg.view, t = msg.table;
  $("board").hidden = false;
  $("board").dataset.state = String(msg.state);  // the state id on screen (tests wait on it)
  showTitle(t, v.hand_no);
  $("invite").value = `${location.origin}/t/${t.id}`;
  $("invite-box").classList.toggle("compact", t.status !== "waiting");
  const scene = { view: v, seats: t.seats, me: v.seat, rules };
  renderSeats(scene);
  renderCenter(scene);
  renderMyHand(msg);
  renderPrompt(v, t, msg.stuck);
  renderSummary(msg);
  clock(t, v);
  if (t.turn_based && !watching) {
    if (!notifyWired) { notifyWired = true; notifyButton($("notify")); }
    turnNotice(myTurn(v), t);
  }
}
let notifyWired = false;

function renderPrompt(v, t, stuck) {  // stuck: why no card may be played, from the engine
  const open = t.seats.filter((s) => s.kind === "open").length;
  let text;
  if (t.status === "waiting") text = ngettext("Waiting for {n} more player: send them the invite link.",
                                                    "Waiting for {n} more players: send them the invite link.", open);
  else if (v.phase === "over") text = _("The game is over.");
  else if (v.seat !== null && v.turn === v.seat) {  // what this turn asks, where it is more than a card
    const note = stuck || turnNote(v);
    text = note ? _("Your turn. {note}", { note }) : _("Your turn: play a card.");
  }
  else if (v.turn) text = _("{name} to play.", { name: seatName(v.turn) });
  else text = _("Dealing…");
  if (v.seat === null && t.status !== "waiting") text = _("You are watching. {text}", { text });
  $("prompt").textContent = text;
}
function turnNote(v) {  // what a no-draw chain, or an extra turn, asks of the player to act
  if (v.plays_left) return ngettext("Play {n} more card without drawing.", "Play {n} more cards without drawing.", v.plays_left);
  if (v.chain) {
    return ngettext("Play a card without drawing, or answer with another no-draw card.",
                    "Play {n} cards in a row without drawing, or answer with another no-draw card.", v.chain);
  }
  if (v.may_decline && v.phase === "play") return _("The reverse gives you another turn: play a card, or decline it.");
  return "";
}
function playsOf(v, card) {
  return v.legal.filter((a) => cardParts(a)?.card === card);
}
function myTurn(v) { return v.seat !== null && v.turn === v.seat && v.phase !== "over"; }

function renderMyHand(msg) {
  const v = msg.view;
  $("hand-section").hidden = v.seat === null;
  if (v.seat === null) return;
  const mine = myTurn(v);
  renderHand($("hand"), v.hand, (b, c, i) => {
    const legal = mine && playsOf(v, c).length > 0;
    const totals = legal ? msg.options?.[c]?.plays.map((p) => p.total) : null;
    const label = cardNotes(b, rules, c, totals, v.limit);
    b.classList.toggle("legal", legal);
    b.classList.toggle("refused", mine && !legal);
    b.setAttribute("aria-label", describeCard(c, label, totals, v.limit) + (mine && !legal ? _(": cannot be played now") : ""));
    if (i < 9) b.setAttribute("aria-keyshortcuts", String(i + 1)); else b.removeAttribute("aria-keyshortcuts");
  });
  const extras = mine ? v.legal.filter((a) => !cardParts(a)) : [];
  const extra = $("extra");
  const labels = extras.map((a) => moveName(v, a));
  if (labels.join() !== [...extra.children].map((b) => b.textContent).join()) {
    extra.replaceChildren(...extras.map((a, i) => el("button", { type: "button", class: "action", "data-action": a }, labels[i])));
  }
  if (choiceFor && !(mine && playsOf(v, choiceFor).length)) closeChoice();
}

function tapCard(card) {
  const v = last?.view;
  if (!v) return;
  if (!myTurn(v)) {
    showError(v.phase === "over" ? _("The game is over.")
      : v.turn ? _("It is {name}'s turn.", { name: seatName(v.turn) }) : _("Wait for the deal."));
    return;
  }
  const plays = playsOf(v, card);
  if (!plays.length) {
    showError(last.options?.[card]?.refused?.why || _("{card} cannot be played now.", { card: cardName(card) }));
    const b = $("hand").querySelector(`button[data-card="${card}"]`);
    b?.classList.remove("shake");
    requestAnimationFrame(() => b?.classList.add("shake"));
    return;
  }
  if (plays.length === 1) act(plays[0]);
  else openChoice(card, plays);
}

// What a play that names a seat asks, by what the seat is for (the rules' "names").
const NAMED = {
  challenge: (card) => _("The {card}: whom do you challenge?", { card }),
  swap: (card) => _("The {card}: whose hand do you take for yours?", { card }),
  take: (card) => _("The {card}: whom do you take a card from?", { card }),
  strip: (card) => _("The {card}: whose hand do you strip to one card?", { card }),
  revive: (card) => _("The {card}: whom do you bring back, or whose hand do you fill up?", { card }),
};

// Choosing a card's value, the total it sets, or a seat: who plays next, whom to challenge,
// whose hand to swap for one's own, whom to take a card from.
function openChoice(card, plays) {
  choiceFor = card;
  const box = $("choice"), first = cardParts(plays[0]);
  const totalOf = (a) => last.options?.[card]?.plays.find((p) => p.action === a)?.total;
  const named = first.target && NAMED[cardLabel(rules, card)?.names];
  const question = first.target ? _("who plays next?") : first.to ? _("set the total to") : _("play as");
  const makes = first.target && totalOf(plays[0]) !== undefined ? _(" (total {total})", { total: totalOf(plays[0]) }) : "";
  const asked = named ? `${named(cardName(card))}${makes}` : `${cardName(card)}${makes}: ${question}`;
  box.setAttribute("aria-label", named ? named(cardName(card)) : `${cardName(card)}: ${question}`);
  const cancel = el("button", { type: "button", class: "cancel", "aria-label": _("Cancel") },
                    icon("M6 4.6 12 10.6 18 4.6 19.4 6 13.4 12 19.4 18 18 19.4 12 13.4 6 19.4 4.6 18 10.6 12 4.6 6Z"));
  cancel.addEventListener("click", closeChoice);
  box.replaceChildren(el("p", { class: "question" }, asked));
  if (first.to) {  // any total from 0 to the limit: typed, not a row of buttons
    const top = Math.max(...plays.map((a) => Number(cardParts(a).to)));
    const input = el("input", { type: "number", min: "0", max: String(top), inputmode: "numeric",
                                "aria-label": _("New total, 0 to {top}", { top }) });
    const go = el("button", { type: "button", class: "primary" }, _("Play"));
    const submit = () => {
      const a = plays.find((o) => cardParts(o).to === String(Number(input.value)));
      if (a && input.value !== "") act(a); else showError(_("Type a total from 0 to {top}.", { top }));
    };
    go.addEventListener("click", submit);
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") submit(); });
    box.append(el("div", { class: "options" }, input, go, cancel));
    box.hidden = false;
    input.focus();
    return;
  }
  const buttons = plays.map((a) => {
    const p = cardParts(a), total = totalOf(a);
    const text = p.target ? seatName(Number(p.target)) : `${minus(p.value)} \u2192 ${total ?? "?"}`;
    // (a seat named for anything but the next turn: its name says it, the question the rest)
    const said = named ? text : `${cardName(a)}${total !== undefined && !p.target ? `, making ${total}` : ""}`;
    const b = el("button", { type: "button", class: "primary", "data-action": a, "aria-label": said }, text);
    b.addEventListener("click", () => act(a));
    return b;
  });
  box.append(el("div", { class: "options" }, ...buttons, cancel));
  box.hidden = false;
  buttons[0].focus();
}
function closeChoice() {
  const had = $("choice").contains(document.activeElement);
  const card = choiceFor;
  choiceFor = null;
  $("choice").hidden = true;
  $("choice").replaceChildren();
  if (had) $("hand").querySelector(`button[data-card="${card}"]`)?.focus();
}

function act(action) {
  if (!last) return;
  closeChoice();
  showError("");
  send({ type: "act", state: last.state, action });
}
function showError(text) { $("error").textContent = text; }

// The turn clock on the acting seat: a ring that empties, and the seconds left.
let deadline = null, clockSeconds = null, longClock = false;
function clock(t, v) {
  longClock = !!t.turn_based;
  deadline = t.clock_left === null || t.clock_left === undefined ? null : Date.now() + t.clock_left * 1000;
  clockSeconds = t.clock;
  tick();
}
function tick() {
  const seat = document.querySelector("#seats li.active");
  if (!seat) return;
  let label = seat.querySelector(".clock");
  if (deadline === null) { label?.remove(); seat.style.removeProperty("--left"); return; }
  const left = Math.max(0, (deadline - Date.now()) / 1000);
  label ||= seat.appendChild(el("span", { class: "clock" }));
  label.textContent = longClock ? duration(left) : `${Math.ceil(left)} s`;
  seat.style.setProperty("--left", String(clockSeconds ? left / clockSeconds : 1));
  seat.classList.add("timed");
}
setInterval(tick, 250);

// Game over: standings, the last hand, rematch and replay --------------------------------
function renderSummary(msg) {
  const v = msg.view, t = msg.table, over = v.phase === "over", appearing = over && $("summary").hidden;
  $("summary").hidden = !over;
  if (!over) return;
  const names = (v.outcome?.winners || []).map((w) => seatName(w));
  $("summary-text").textContent = names.length
    ? ngettext("{names} wins ({why}).", "{names} win ({why}).", names.length,
               { names: names.join(_(" and ")), why: v.outcome.why })
    : _("Nobody wins.");
  const st = msg.standings;
  const lostHead = v.scoring === "game_points" ? _("Points lost") : _("Lost");
  $("standings-lost").textContent = lostHead;
  const ranked = [...(st?.seats || [])].sort((a, b) => a.place - b.place || a.lost - b.lost || a.seat - b.seat);
  $("standings-body").replaceChildren(...ranked.map((s) => el("tr", { class: s.won ? "won" : "" },
    el("td", {}, ordinal(s.place)), el("th", { scope: "row" }, seatName(s.seat) + (s.seat === v.seat ? _(" (you)") : "")),
    el("td", {}, livesIcons(v, s.seat - 1)),
    el("td", {}, String(s.lost)))));
  $("standings-hands").textContent = st ? ngettext("{n} hand played.", "{n} hands played.", st.hands) : "";
  const started = msg.events.findLastIndex((e) => e.kind === "HandStarted");
  const lines = endLines(msg.events.slice(started + 1));  // a sync's events are the whole game
  $("summary-last").replaceChildren(...lines.map((x) => el("li", {}, x)));
  $("record-link").href = `/api/tables/${t.id}/record`;
  $("replay-link").href = `/t/${t.id}?replay=1${v.seat ? `&seat=${v.seat}` : ""}`;
  $("rematch").hidden = v.seat === null;
  $("share").hidden = v.seat === null;  // a player's to share (the server checks it)
  if (appearing) { $("share-box").hidden = true; $("share-error").textContent = ""; }
  const idle = document.activeElement === document.body || document.activeElement?.closest(".hand-area, #hand-summary");
  if (appearing && idle) ($("rematch").hidden ? $("replay-link") : $("rematch")).focus({ preventScroll: true });
  if (appearing) bringIntoView($("summary"));
}
// One public, read-only link to this game's replay and review (the same link each time).
async function shareGame() {
  $("share-error").textContent = "";
  try {
    const id = last.table.id;
    const res = await api(`/api/tables/${id}/share`, { token: localStorage.getItem(tokenKey(id)) });
    $("share-link").value = `${location.origin}${res.link}`;
    $("share-box").hidden = false;
    $("share-link").focus();
    $("share-link").select();
  } catch (e) { $("share-error").textContent = e.message; }
}

// The result in view, the page scrolled no further than it needs (the header stays when it can).
function bringIntoView(box) {
  if (getComputedStyle(box).position === "fixed") { scrollTo(0, 0); return; }  // a phone's: under the header
  const r = box.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight) box.scrollIntoView({ block: r.height > innerHeight ? "start" : "nearest" });
}
// a place in English words ("1st"); in the others, as the catalog writes "{n}." (1., 第1名)
const ordinal = (n) => (lang === "en" ? `${n}${["th", "st", "nd", "rd"][(n % 100 > 10 && n % 100 < 14) || n % 10 > 3 ? 0 : n % 10]}`
  : _("{n}.", { n }));

// The talk: the game's events and what people write --------------------------------------
function addLog(text, kind) {
  const log = $("log");
  log.append(el("li", { class: kind === "TotalCalled" ? "call" : "" }, text));
  trim(log);
}
function addChat(line) {
  const log = $("log");
  const mine = last?.view && line.seat !== null && line.seat === last.view.seat;
  log.append(el("li", { class: `chat${mine ? " mine" : ""}` }, el("b", {}, `${line.name}: `), line.text));
  trim(log);
  if (!mine && !prefs.get("mute-chat", false)) announce(_("{name} writes: {text}", { name: line.name, text: line.text }));
}
function trim(log) {
  while (log.children.length > 300) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

let controlsReady = false;
function setupControls() {
  if (controlsReady) return;
  controlsReady = true;
  $("hand").addEventListener("click", (e) => {
    const b = e.target.closest("button.card");
    if (b) tapCard(b.dataset.card);
  });
  $("extra").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-action]");
    if (b) act(b.dataset.action);
  });
  $("next-hand").addEventListener("click", () => release(true));
  $("copy").addEventListener("click", () => {
    navigator.clipboard?.writeText($("invite").value).then(() => announce(_("Invite link copied.")), () => {});
  });
  $("rematch").addEventListener("click", () => send({ type: "rematch" }));
  $("share").addEventListener("click", shareGame);
  $("share-copy").addEventListener("click", () => {
    $("share-link").select();
    navigator.clipboard?.writeText($("share-link").value).then(() => announce(_("Share link copied.")), () => {});
  });
  $("leave").addEventListener("click", () => { send({ type: "leave" }); location.href = "/"; });
  $("chat-name").value = savedName();
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("chat-input").value.trim();
    const name = $("chat-name").value.trim();  // a spectator's own name (a seat has one)
    if (name) saveName(name);
    if (text) send({ type: "chat", text, ...(watching && name ? { name } : {}) });
    $("chat-input").value = "";
  });
  bindToggle($("sound-toggle"), "sound", true);
  bindToggle($("speech-toggle"), "speech", false, (on) => { if (!on) window.speechSynthesis?.cancel(); });
  bindToggle($("mute-toggle"), "mute-chat", false, (on) => $("log").classList.toggle("mute-chat", on));
  // (from then on every announcement joins the reader's log: the polite region falls quiet)
  bindToggle($("reader-toggle"), "reader", false, (on) => { if (on) $("announce").textContent = ""; });
  bindToggle($("colour-toggle"), "four-colour", false, () => {  // the faces drawn again
    $("hand").replaceChildren();
    if (last) render(last);
  });
  initCoach(send);
  $("coach-toggle").addEventListener("click", () => { if (last) coachFrame(last, myTurn(last.view)); });
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape" && choiceFor) { closeChoice(); return; }
    const hand = $("hand");
    if (hand.contains(e.target) && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
      const cards = [...hand.children], i = cards.indexOf(e.target);
      cards[(i + (e.key === "ArrowLeft" ? -1 : 1) + cards.length) % cards.length]?.focus();
      e.preventDefault();
      return;
    }
    const n = Number(e.key);
    if (n >= 1 && n <= 9 && !choiceFor) { const b = hand.children[n - 1]; if (b) { b.focus(); tapCard(b.dataset.card); } }
  });
  setInterval(() => send({ type: "ping" }), 20000);
}
