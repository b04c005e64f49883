// A finished game (or an uploaded record) stepped through on the table view, forward and
// back, from one seat's view or with every hand open.
import { $, api, el } from "./dom.js";
import { _, lang, ngettext } from "./i18n.js";
import { moveName } from "./cards.js";
import { cardNotes, describeCard, renderCenter, renderHand, renderSeats, showBubble, hideBubbles } from "./board.js";

let data = null, step = 0, source = null;

// source: {table: id} for a finished table, {shared: token} for a shared game (/s/TOKEN),
// or {record: text} for an uploaded record.
// The first load's error is thrown to the caller (the page it was asked from says why).
export async function showReplay(src, seat = null, review = false) {
  source = src;
  data = await fetchReplay(seat);
  $("table").hidden = false;
  document.body.classList.add("replaying");
  $("replay-bar").hidden = false;
  $("hand-section").hidden = true;
  $("back-link").href = src.table ? `/t/${src.table}` : "/";
  $("back-link").textContent = src.table ? _("Back to the table") : _("Back to the lobby");
  setup();
  showData(0);
  if (review && data.seat) runReview();  // asked for from a link ("Review" in My games)
}

const fetchReview = (seat) => source.table ? api(`/api/tables/${source.table}/review?seat=${seat}`)
  : source.shared ? api(`/api/shared/${source.shared}/review?seat=${seat}`)
  : api("/api/review", { record: source.record, seat });

const FLAGS = { "?!": () => _("inaccuracy"), "?": () => _("mistake"), "??": () => _("blunder") };
const pct = (x) => new Intl.NumberFormat(lang, { style: "percent" }).format(Math.round(100 * x) / 100);
const fixed = (x) => new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }).format(x);
// the replay's words in the page's language (the talk, the calls, the cards' labels)
const inLanguage = (path) => `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang)}`;

// The seat on screen, decision by decision beside the coach's move: each a link to its step.
function resetReview() {
  $("review").hidden = !data.seat;
  $("review-go").hidden = false;
  $("review-go").textContent = data.seat
    ? _("Review {name}'s decisions with the coach", { name: data.names[data.seat - 1] }) : "";
  $("review-status").textContent = "";
  $("review-list").replaceChildren();
}

async function runReview() {
  const seat = data.seat, name = data.names[seat - 1];
  $("review-go").hidden = true;
  $("review-status").textContent = _("The coach is going through {name}'s decisions\u2026", { name });
  let found;
  try {
    found = await fetchReview(seat);
  } catch (e) {
    $("review-go").hidden = false;
    $("review-status").textContent = e.message;
    return;
  }
  if (data.seat !== seat) return;  // the view changed meanwhile
  const differ = found.decisions.filter((d) => !d.agrees);  // another suit, or a tie, agrees
  const flagged = found.decisions.filter((d) => d.flag).length;
  $("review-status").textContent =
    ngettext("{name} had {n} real choice;", "{name} had {n} real choices;", found.decisions.length, { name }) +
    ngettext(" the coach would have played differently {n} time", " the coach would have played differently {n} times",
             differ.length) +
    (flagged ? ngettext(", and flags {n} of them.", ", and flags {n} of them.", flagged) : _(", and flags none of them."));
  $("review-list").replaceChildren(...differ.map((d) => {
    const at = data.steps.findIndex((x) => x.moves === d.action_number - 1);  // just before it
    const name = (a) => moveName(data.steps[at].view, a, (n) => data.names[n - 1]);
    const b = el("button", { type: "button", class: `decision${d.flag ? " flagged" : ""}` },
      el("span", { class: "where" }, _("Move {move} \u00b7 hand {hand} \u00b7 total {total}",
                                       { move: at + 1, hand: d.hand, total: d.total })),
      el("span", {}, _("played {played} (hand {played_hand}), coach {best} (hand {best_hand})", {
        played: name(d.played), played_hand: pct(figures(d, d.played).lose_hand),
        best: name(d.best), best_hand: pct(figures(d, d.best).lose_hand) })),
      el("span", { class: "cost" }, _("cost {cost} \u00b1 {error}", { cost: fixed(d.cost), error: d.error === null ? "?" : fixed(d.error) }) +
        (d.flag ? ` ${d.flag} ${FLAGS[d.flag]()}` : "")));
    b.addEventListener("click", () => go(at));
    return el("li", {}, b);
  }));
}
const figures = (d, action) => d.advice.moves.find((m) => m.actions.includes(action));

const fetchReplay = (seat) => source.table ? api(inLanguage(`/api/tables/${source.table}/replay${seat ? `?seat=${seat}` : ""}`))
  : source.shared ? api(inLanguage(`/api/shared/${source.shared}/replay${seat ? `?seat=${seat}` : ""}`))
  : api(inLanguage("/api/replay"), { record: source.record, seat });

async function load(seat) {
  $("replay-error").textContent = "";
  try {
    data = await fetchReplay(seat);
  } catch (e) {
    $("replay-error").textContent = e.message;
    return;
  }
  showData(step);
}

function showData(at) {
  const pov = $("replay-seat");
  pov.replaceChildren(el("option", { value: "" }, _("Every hand open")),
    ...data.names.map((n, i) => el("option", { value: String(i + 1) }, _("{name}'s view", { name: n }))));
  pov.value = data.seat ? String(data.seat) : "";
  $("replay-step").max = String(data.steps.length - 1);
  resetReview();
  go(at);
  $("board").hidden = false;
}

function go(i) {
  step = Math.max(0, Math.min(data.steps.length - 1, i));
  const s = data.steps[step], v = s.view;
  const seats = data.names.map((name, k) => ({ seat: k + 1, name, kind: "human", connected: true }));
  const me = data.seat;
  $("rules-name").textContent = _("Replay \u00b7 {rules}", { rules: data.rules.name });
  renderSeats({ view: v, seats, me, hands: v.hands, you: !source.shared });  // a shared game's viewer is no player
  renderCenter({ view: v });
  const shown = me ? v.hand : null;
  $("hand-section").hidden = !shown;
  if (shown) {
    renderHand($("hand"), shown, (b, c) => {
      const label = cardNotes(b, data.rules, c, null, v.limit);
      b.setAttribute("aria-label", describeCard(c, label, null, v.limit));
      b.setAttribute("aria-disabled", "true");
      b.tabIndex = -1;
    });
  }
  $("replay-step").value = String(step);
  $("replay-pos").textContent = step === 0 ? _("The deal")
    : _("Move {step} of {steps}", { step, steps: data.steps.length - 1 });
  $("replay-step").setAttribute("aria-valuetext", $("replay-pos").textContent);
  for (const id of ["replay-first", "replay-back"]) $(id).setAttribute("aria-disabled", String(step === 0));
  for (const id of ["replay-forward", "replay-last"]) {
    $(id).setAttribute("aria-disabled", String(step === data.steps.length - 1));
  }
  // the talk up to this step, its calls as bubbles
  const talk = data.steps.slice(0, step + 1).flatMap((x) => x.talk);
  $("log").replaceChildren(...talk.map((t) => el("li", {}, t)));
  $("log").scrollTop = $("log").scrollHeight;
  hideBubbles();
  for (const c of s.calls) showBubble(c.seat, c.call);
  const end = step === data.steps.length - 1 && v.phase === "over";
  $("replay-end").hidden = !end;
  if (end) {
    const winners = (v.outcome?.winners || []).map((w) => data.names[w - 1]);
    $("replay-end").textContent = winners.length
      ? ngettext("{names} wins ({why}).", "{names} win ({why}).", winners.length,
                 { names: winners.join(_(" and ")), why: v.outcome.why })
      : _("Nobody wins.");
  }
}

let ready = false;
function setup() {
  if (ready) return;
  ready = true;
  $("review-go").addEventListener("click", runReview);
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-back").addEventListener("click", () => go(step - 1));
  $("replay-forward").addEventListener("click", () => go(step + 1));
  $("replay-last").addEventListener("click", () => go(data.steps.length - 1));
  $("replay-step").addEventListener("input", () => go(Number($("replay-step").value)));
  $("replay-seat").addEventListener("change", () => load($("replay-seat").value ? Number($("replay-seat").value) : null));
  document.addEventListener("keydown", (e) => {
    if (!data || ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: data.steps.length - 1 }[e.key];
    if (to !== undefined) { go(to); e.preventDefault(); }
  });
}
