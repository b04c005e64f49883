// The table as people see it: seats around the felt (the viewer at the bottom), the total,
// the pile and the stock in the middle, the direction of play, and a hand of cards.
// Live play and replays both draw through here; neither keeps game logic of its own.
import { $, el, reducedMotion } from "./dom.js";
import { _, ngettext, ntranslated } from "./i18n.js";
import { cardBack, cardFace, cardLabel, cardName, cardParts, cardText, counterIcon, inkClass } from "./cards.js";

// What a life is called at this table: {one, many} from the view, "life" otherwise.
export function counterOf(view) {
  return view.counter || { one: "life", many: "lives" };
}
// A count of the table's counter in words: the core's catalogs hold each counter's forms
// ("{n} penny", "{n} pennies"), looked up by the English the view names it with.
export const counted = (n, c) => ntranslated(`{n} ${c.one}`, `{n} ${c.many}`, n);
export function livesText(view, i) {
  if (view.scoring === "game_points") return ngettext("{n} point", "{n} points", view.scores[i]);
  return counted(view.lives[i], counterOf(view));
}

// Lives as icons: one per life up to five, then one icon and the count.
export function livesIcons(view, i) {
  const box = el("span", { class: "lives", role: "img", "aria-label": livesText(view, i) });
  if (view.scoring === "game_points") {
    box.append(counterIcon("point"), el("span", { class: "count" }, String(view.scores[i])));
    return box;
  }
  const n = view.lives[i], one = counterOf(view).one;
  if (n > 5) box.append(counterIcon(one), el("span", { class: "count" }, `\u00d7${n}`));
  else for (let k = 0; k < n; k++) box.append(counterIcon(one));
  if (n === 0) box.append(el("span", { class: "count" }, "0"));
  return box;
}

// Where seat k (counted from the bottom seat, in the direction of play) sits around the felt:
// -1..1 across and down. Clockwise play runs bottom, left, top, right, as at a real table.
function place(k, n) {
  const a = (2 * Math.PI * k) / n;
  return { x: -Math.sin(a), y: Math.cos(a) };
}

// A seat's name: its player's, or for a seat nobody has taken yet, "Seat 2" in the page's
// language (the server stores that placeholder in English, as a name).
export const seatLabel = (s) => (s.kind === "open" ? _("Seat {n}", { n: s.seat }) : s.name);
export const seatNameOf = (seats) => (n) => (seats?.[n - 1] ? seatLabel(seats[n - 1]) : _("Seat {n}", { n }));

// One seat: name, lives, cards held, dealer button, turn ring, speech bubble.
function seatItem(li, s, scene) {
  const { view: v, me } = scene, i = s.seat - 1;
  const mine = s.seat === me;
  li.className = "seat";
  li.classList.toggle("active", v.turn === s.seat && v.phase !== "over");
  li.classList.toggle("me", mine);
  li.classList.toggle("out", !v.alive[i]);
  li.classList.toggle("sat-out", v.alive[i] && !v.in_hand[i]);
  const marks = [];
  if (v.turn === s.seat && v.phase !== "over") marks.push(_("to play"));
  if (!v.alive[i]) marks.push(_("out")); else if (!v.in_hand[i]) marks.push(_("out of this hand"));
  if (s.kind === "open") marks.push(_("open seat"));
  if (s.kind === "human" && !s.connected) marks.push(_("away"));
  if (s.bot_playing) marks.push(_("a bot plays"));
  const avatar = el("span", { class: `avatar a${i % 8}`, "aria-hidden": "true" },
                    s.kind === "open" ? "?" : (s.name.trim()[0] || "?").toUpperCase());
  const ring = el("span", { class: "ring", "aria-hidden": "true" });
  const name = el("strong", {}, `${seatLabel(s)}${mine && scene.you !== false ? _(" (you)") : ""}`);  // you: false, a shared game's seat
  const held = el("span", { class: "held", role: "img", "aria-label": ngettext("{n} card", "{n} cards", v.hand_sizes[i]) });
  const open = scene.hands?.[i];
  if (open) {  // every hand open (a replay): each card as it reads, "A\u2666 10\u2663", not a tiny face
    held.classList.add("open");
    held.append(...open.map((c) => el("span", { class: `chip ${inkClass(cardParts(c).suit)}`.trim() }, cardText(c))));
    held.setAttribute("aria-label", open.length ? _("holds {cards}", { cards: open.map((c) => cardName(c)).join(_(", ")) })
                                                : _("holds nothing"));
  } else {
    // the cards of this hand the viewer knows (a swap or a take showed them) face up, the rest as backs
    const known = mine ? [] : v.known?.[i] || [];
    held.append(...known.map((c) => el("span", { class: `chip known ${inkClass(cardParts(c).suit)}`.trim() }, cardText(c))));
    for (let k = known.length; k < Math.min(v.hand_sizes[i], 7); k++) held.append(el("span", { class: "mini" }, cardBack()));
    if (known.length) {
      held.setAttribute("aria-label", ngettext("{n} card", "{n} cards", v.hand_sizes[i]) +
                        _(", you know {cards}", { cards: known.map((c) => cardName(c)).join(_(", ")) }));
    }
  }
  const parts = [ring, avatar, el("span", { class: "who" }, name, livesIcons(v, i)), held];
  if (v.dealer === s.seat) parts.push(el("span", { class: "dealer", role: "img", "aria-label": _("Dealer") }, "D"));
  if (marks.length) parts.push(el("em", { class: "marks" }, marks.join(_(", "))));
  const bubble = li.querySelector(".bubble") || el("p", { class: "bubble", hidden: "" });
  li.replaceChildren(...parts, bubble);
}

export function renderSeats(scene) {
  const ul = $("seats"), seats = scene.seats, n = seats.length;
  const bottom = scene.me || 1;
  ul.classList.toggle("many", n > 6);
  const items = [];
  for (const s of seats) {
    const li = ul.querySelector(`li[data-seat="${s.seat}"]`) || el("li", { "data-seat": s.seat });
    seatItem(li, s, scene);
    const k = (s.seat - bottom + n) % n;
    const p = place(k, n);
    li.style.setProperty("--sx", p.x.toFixed(3));
    li.style.setProperty("--sy", p.y.toFixed(3));
    li.classList.toggle("top", p.y < -0.3);
    li.classList.toggle("left", p.x < -0.5);
    li.classList.toggle("right", p.x > 0.5);
    items.push(li);
  }
  ul.replaceChildren(...items);  // reading order: seat 1, 2, 3...
}

// A call as a speech bubble at its seat: only the latest call shows.
export function showBubble(seat, text) {
  for (const b of document.querySelectorAll("#seats .bubble")) b.hidden = true;
  const bubble = document.querySelector(`#seats li[data-seat="${seat}"] .bubble`);
  if (!bubble) return;
  bubble.textContent = text;
  bubble.hidden = false;
}
export const hideBubbles = () => { for (const b of document.querySelectorAll("#seats .bubble")) b.hidden = true; };

// The middle of the table ------------------------------------------------------------
export function renderCenter(scene) {
  const v = scene.view;
  $("total").textContent = String(v.total);
  $("limit").textContent = _("of {limit}", { limit: v.limit });
  const ratio = Math.max(0, Math.min(1, v.total / v.limit));
  const arc = $("gauge-arc");
  arc.setAttribute("stroke-dasharray", `${(ratio * 100).toFixed(1)} 100`);
  arc.setAttribute("class", ratio >= 0.9 ? "hot" : ratio >= 0.7 ? "warm" : "cool");
  const ccw = v.direction === "ccw";
  $("direction").classList.toggle("ccw", ccw);
  $("direction-text").textContent = ccw ? _("Play goes counter-clockwise") : _("Play goes clockwise");
  // the pile: the last cards fanned, each at its own small angle
  const pile = $("pile"), start = v.pile_size - v.pile.length;
  const cards = v.pile.map((c, k) => {
    const idx = start + k, span = el("span", { class: "pile-card", "data-card": c }, cardFace(c));
    const angle = ((idx * 37) % 19) - 9;
    span.style.setProperty("--k", String(k - v.pile.length + 1));
    span.style.setProperty("--rot", `${angle}deg`);
    return span;
  });
  pile.replaceChildren(...cards);
  pile.setAttribute("aria-label", v.pile.length ? _("Pile, top card {card}", { card: cardName(v.pile.at(-1)) })
                                                : _("Pile, empty"));
  const stack = $("stock").querySelector(".stack");
  if (!stack.firstChild) stack.append(cardBack(), cardBack());
  $("stock-count").textContent = String(v.stock_size);
  $("stock").setAttribute("aria-label", ngettext("Stock: {n} card", "Stock: {n} cards", v.stock_size));
  $("stock").classList.toggle("empty", v.stock_size === 0);
  const pot = $("pot");
  pot.hidden = !v.pot;
  if (v.pot) pot.textContent = _("Pot: {amount}", { amount: counted(v.pot, counterOf(v)) });
}

// A card laid on the pile glides there from where it was (a hand card or a seat).
export function slideToPile(from) {
  if (!from || reducedMotion()) return;
  const top = $("pile").lastElementChild;
  if (!top) return;
  const to = top.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  top.animate([{ transform: `translate(${dx}px, ${dy}px) scale(.8) rotate(0deg)`, opacity: 0.6 }, {}],
              { duration: 380, easing: "cubic-bezier(.2,.7,.3,1)", composite: "add" });
}
// A card changing hands (a swap, a take, a strip, a revival): a card back glides from one
// place to the other, a seat (by number) or the stock ("stock").
const placeRect = (at) => (at === "stock" ? $("stock").getBoundingClientRect() : seatRect(at));
export function passCard(from, to) {
  const a = placeRect(from), b = placeRect(to);
  if (!a || !b || reducedMotion()) return;
  const card = el("span", { class: "flying", "aria-hidden": "true" }, cardBack());
  card.style.left = `${a.left + a.width / 2}px`;
  card.style.top = `${a.top + a.height / 2}px`;
  document.body.append(card);
  const there = `translate(calc(-50% + ${b.left - a.left}px), calc(-50% + ${b.top - a.top}px))`;
  card.animate([{ transform: "translate(-50%, -50%)" }, { transform: there }],
               { duration: 520, easing: "cubic-bezier(.2,.7,.3,1)", fill: "forwards" })
    .finished.then(() => card.remove(), () => card.remove());
}
export function seatRect(seat) {
  return document.querySelector(`#seats li[data-seat="${seat}"] .avatar`)?.getBoundingClientRect() || null;
}

// A hand ---------------------------------------------------------------------------------
// Cards are kept by identity between renders (a card that stays is the same button), so
// focus and a pointer on a card survive the updates of other players' moves.
export function renderHand(box, cards, describe) {
  const old = new Map();
  for (const b of box.children) (old.get(b.dataset.card) || old.set(b.dataset.card, []).get(b.dataset.card)).push(b);
  const out = cards.map((c, i) => {
    const b = old.get(c)?.shift() || el("button", { type: "button", class: "card", "data-card": c }, cardFace(c));
    describe(b, c, i);
    return b;
  });
  const focused = box.contains(document.activeElement) ? [...box.children].indexOf(document.activeElement) : -1;
  box.replaceChildren(...out);
  if (focused >= 0 && !box.contains(document.activeElement)) out[Math.min(focused, out.length - 1)]?.focus();
}

// What a card says about itself: its effect under these rules, and the total it makes.
export function cardNotes(button, rules, card, totals, limit) {
  const label = cardLabel(rules, card);
  let tag = button.querySelector(".tag");
  if (label?.special) {
    tag ||= button.appendChild(el("span", { class: "tag" }));
    tag.textContent = label.label;
  } else tag?.remove();
  let after = button.querySelector(".after");
  if (totals?.length) {
    after ||= button.appendChild(el("span", { class: "after" }));
    const unique = [...new Set(totals)];
    after.textContent = unique.length > 3 ? _("any") : unique.join(" / ");
    after.classList.toggle("over", unique.every((t) => t > limit));
  } else after?.remove();
  return label;
}

export function describeCard(card, label, totals, limit) {
  const parts = [cardName(card)];
  if (label?.special) parts[0] += `, ${label.label}`;
  if (totals?.length) {
    const unique = [...new Set(totals)];
    const said = unique.join(_(" or "));
    parts.push(unique.length > 3 ? _("sets any total")
      : unique.every((t) => t > limit) ? _("makes {totals}, over the limit", { totals: said })
      : _("makes {totals}", { totals: said }));
  }
  return parts.join(": ");
}

export { cardParts };
