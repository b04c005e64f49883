// The coach at the table: on your turn, each move you may make with its chance of losing
// the hand and the game, worked out by the server from your own view only.
import { $, bindToggle, el } from "./dom.js";
import { _, lang, translated } from "./i18n.js";

let on = false, asked = null, send = () => {};

export function initCoach(sender) {
  send = sender;
  bindToggle($("coach-toggle"), "coach", false, (value) => { on = value; asked = null; $("coach").hidden = true; });
}

const pct = (x) => new Intl.NumberFormat(lang, { style: "percent" }).format(Math.round(100 * x) / 100);

// A new frame on screen: ask about this decision once, when it is ours to make.
export function coachFrame(msg, myTurn) {
  if (!myTurn) { $("coach").hidden = true; return; }
  if (!on || asked === msg.state) return;
  asked = msg.state;
  $("coach-moves").replaceChildren(el("li", { class: "hint" }, _("Thinking\u2026")));
  $("coach").hidden = false;
  send({ type: "coach", state: msg.state });
}

// The server's figures for the decision on screen (older ones are ignored).
// One line a move (its suits together where suits do not matter); the star on the best move,
// or, where the best moves are within the noise of each other, a line that says they tie.
export function showCoach(msg, current, name) {
  if (!on || msg.state !== current) return;
  const star = (m) => m.best && !msg.tied.length;
  $("coach-moves").replaceChildren(...msg.moves.map((m) => el("li", { class: star(m) ? "best" : "" },
    el("span", { class: "move" }, m.actions.map(name).join(" / ")),
    el("span", { class: "figures" }, m.lose_game === null ? _("hand {hand}", { hand: pct(m.lose_hand) })
      : _("hand {hand} \u00b7 game {game}", { hand: pct(m.lose_hand), game: pct(m.lose_game) })),
    star(m) ? el("span", { class: "star", "aria-label": _("the coach's choice") }, "\u2605") : "")),
    ...(msg.tied.length ? [el("li", { class: "hint" }, _("tied: {moves}", { moves: msg.tied.map(name).join(_(", ")) }))] : []),
    // the server's note is one of the core's sentences, marked there for the catalogs
    ...(msg.note ? [el("li", { class: "hint" }, _("Note: {note}.", { note: translated(msg.note) }))] : []));
  $("coach").hidden = false;
}
