// Cards: reading the server's notation, naming cards in words, and drawing faces, backs
// and the counters players hold (pennies, tokens, corners...) as SVG, from code.
import { prefs, svg } from "./dom.js";
import { _ } from "./i18n.js";

// the words, translated where they are shown (the catalogs hold the core's card names)
const RANK_WORDS = { A: () => _("Ace"), J: () => _("Jack"), Q: () => _("Queen"), K: () => _("King") };
const SUITS = { S: () => _("Spades"), H: () => _("Hearts"), D: () => _("Diamonds"), C: () => _("Clubs") };
// CN99's jokers (FAMILIES.md \u00a712): ranks of their own, no suit, written SJ and BJ
const JOKER_WORDS = { SJ: () => _("Small Joker"), BJ: () => _("Big Joker") };
const ACTION_WORDS = { down: () => _("Lay down"), pass: () => _("Pass"), draw: () => _("Draw a card"),
                       nodraw: () => _("Do not draw") };
export const actionName = (a) => ACTION_WORDS[a]?.() ?? a;

// A move in words in the position ``v`` it is made in (a pass there may decline an extra turn).
export function moveName(v, text, seatName) {
  if (cardParts(text)) return cardName(text, seatName);
  return text === "pass" && v.may_decline ? _("Decline the extra turn") : actionName(text);
}

// A card (a rank and a suit, or a joker: SJ, BJ), then what tells its plays apart: a value
// (AS+11), a total it sets (AS=57) or the seat it names (5S>3). A joker's suit is null.
const CARD = /^(?:(10|[2-9AJQK])([SHDC])|([SB]J))(?:([+-]\d+)|=(\d+)|>(\d+))?$/;
export function cardParts(text) {
  const m = CARD.exec(text);
  if (!m) return null;
  const card = m[3] ?? m[1] + m[2];
  return { rank: m[3] ?? m[1], suit: m[2] ?? null, card, value: m[4], to: m[5], target: m[6] };
}

export const isRed = (suit) => suit === "H" || suit === "D";
// A suit's ink: red and black, or with the four-colour deck (a preference, as the
// terminal's --deck four-colour) diamonds blue and clubs green, so no two suits look alike.
const INK = { S: "#161616", H: "#c0182b", D: "#c0182b", C: "#161616" };
const FOUR_INK = { ...INK, D: "#1a4fb0", C: "#16703a" };
const fourColours = () => prefs.get("four-colour", false);
export const inkOf = (suit) => (fourColours() ? FOUR_INK : INK)[suit];
// the class that colours a card written as text (a held card's chip): its ink's name
export const inkClass = (suit) => (fourColours() ? { H: "red", D: "blue", C: "green" } : { H: "red", D: "red" })[suit] ?? "";
const SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
// A card as people read it on screen, as the server's talk writes it: "A\u2666", "10\u2663".
export function cardText(card) {
  const p = cardParts(card);
  return p ? p.rank + (SYMBOLS[p.suit] ?? "") : card;
}
export const minus = (text) => text.replace("-", "\u2212");  // a real minus sign

// The table talk as a screen reader should say it: each card in words ("Ten of Hearts"),
// not its symbols ("10\u2665"), which readers spell out or skip.
const SUIT_OF_SYMBOL = Object.fromEntries(Object.entries(SYMBOLS).map(([s, sym]) => [sym, s]));
export const inWords = (text) =>
  text.replace(/(10|[2-9AJQK])([\u2660\u2665\u2666\u2663])/g, (_m, rank, sym) => cardName(rank + SUIT_OF_SYMBOL[sym]))
    .replace(/\b[SB]J\b/g, (joker) => JOKER_WORDS[joker]());

export function cardName(text, seatName = (n) => _("Seat {n}", { n })) {
  const p = cardParts(text);
  if (!p) return actionName(text);
  const named = p.suit ? _("{rank} of {suit}", { rank: RANK_WORDS[p.rank]?.() ?? p.rank, suit: SUITS[p.suit]() })
    : JOKER_WORDS[p.rank]();
  return named +
    (p.value ? _(" as {value}", { value: minus(p.value) }) : "") +
    (p.to ? _(", setting the total to {total}", { total: p.to }) : "") +
    (p.target ? _(", {name} plays next", { name: seatName(Number(p.target)) }) : "");
}

// What a card does under the table's rules ({label, special}), from the sync's `rules`.
export function cardLabel(rules, card) {
  const p = cardParts(card);
  if (!rules || !p) return null;
  return rules.suits?.[p.card] || rules.ranks?.[p.rank] || null;
}

// Suit shapes in a 100 x 100 box, drawn once into a hidden sprite and used by reference.
const SUIT_PATHS = {
  H: "M50 92C30 72 2 52 2 28 2 12 14 2 28 2c10 0 18 6 22 15C54 8 62 2 72 2c14 0 26 10 26 26 0 24-28 44-48 64Z",
  D: "M50 2 88 50 50 98 12 50Z",
  S: "M50 2C38 22 4 40 4 64c0 14 11 24 24 24 9 0 15-4 19-10-1 10-6 16-15 20h36c-9-4-14-10-15-20 4 6 10 10 19 10 13 0 24-10 24-24C96 40 62 22 50 2Z",
  C: "M50 4a21 21 0 0 0-17 33A21 21 0 1 0 46 70c-1 12-6 20-16 26h40C60 90 55 82 54 70a21 21 0 1 0 13-33A21 21 0 0 0 50 4Z",
};

export function installSprite() {
  if (document.getElementById("nn-sprite")) return;
  const defs = svg("defs");
  for (const [s, d] of Object.entries(SUIT_PATHS)) {
    defs.append(svg("symbol", { id: `suit-${s}`, viewBox: "0 0 100 100" }, svg("path", { d })));
  }
  const lattice = svg("pattern", { id: "back-lattice", width: "10", height: "10", patternUnits: "userSpaceOnUse",
                                   patternTransform: "rotate(45)" },
    svg("rect", { width: "10", height: "10", fill: "#8e1b2c" }),
    svg("path", { d: "M0 5H10M5 0V10", stroke: "#c9a04e", "stroke-width": "1.2", opacity: ".55" }));
  defs.append(lattice);
  const sprite = svg("svg", { id: "nn-sprite", "aria-hidden": "true", class: "sprite" }, defs);
  document.body.prepend(sprite);
}

const pip = (suit, x, y, size, flip = false) => svg("use", {
  href: `#suit-${suit}`, x: String(x - size / 2), y: String(y - size / 2), width: String(size), height: String(size),
  ...(flip ? { transform: `rotate(180 ${x} ${y})` } : {}),
});

// Pip positions on a 100 x 140 face: three columns, rows from the top.
const L = 34, M = 50, R = 66;
const PIPS = {
  2: [[M, 32], [M, 108]],
  3: [[M, 32], [M, 70], [M, 108]],
  4: [[L, 32], [R, 32], [L, 108], [R, 108]],
  5: [[L, 32], [R, 32], [M, 70], [L, 108], [R, 108]],
  6: [[L, 32], [R, 32], [L, 70], [R, 70], [L, 108], [R, 108]],
  7: [[L, 32], [R, 32], [M, 51], [L, 70], [R, 70], [L, 108], [R, 108]],
  8: [[L, 32], [R, 32], [M, 51], [L, 70], [R, 70], [M, 89], [L, 108], [R, 108]],
  9: [[L, 32], [R, 32], [L, 57], [R, 57], [M, 70], [L, 83], [R, 83], [L, 108], [R, 108]],
  10: [[L, 32], [R, 32], [M, 45], [L, 57], [R, 57], [L, 83], [R, 83], [M, 95], [L, 108], [R, 108]],
};

// A crown, a tiara and a cap over the court cards' letters.
const COURT_HATS = {
  K: "M30 44 34 26 42 36 50 22 58 36 66 26 70 44Z",
  Q: "M32 44C36 34 40 30 44 36 46 28 54 28 56 36 60 30 64 34 68 44Z",
  J: "M32 44C32 33 41 27 50 27S68 33 68 44ZM57 29C62 19 70 16 76 18 70 20 64 24 61 31Z",
};

function corner(rank, suit, color) {
  return svg("g", { fill: color },
    svg("text", { x: "11", y: "22", "text-anchor": "middle", "font-size": rank === "10" ? "17" : "19",
                  "font-weight": "700", "font-family": "DejaVu Sans, sans-serif",
                  "letter-spacing": rank === "10" ? "-1.5" : "0" }, rank),
    pip(suit, 11, 32, 13));
}

// A joker's face: JOKER down its corners and a star, outlined in black on the small joker,
// filled red on the big one (as printed packs tell them apart: in colour and without).
const STAR = "M50 40 57.6 59.5 78.5 60.7 62.3 73.9 67.6 94.3 50 83 32.4 94.3 37.7 73.9 21.5 60.7 42.4 59.5Z";
function jokerFace(face, rank) {
  const big = rank === "BJ", color = big ? INK.H : INK.S;
  const down = () => svg("text", { x: "11", y: "20", fill: color, "text-anchor": "middle", "font-size": "12",
                                   "font-weight": "700", "font-family": "DejaVu Sans, sans-serif" },
    ...[..."JOKER"].map((ch, i) => svg("tspan", { x: "11", dy: i ? "12" : "0" }, ch)));
  const flipped = down();
  flipped.setAttribute("transform", "rotate(180 50 70)");
  face.append(svg("path", { d: STAR, transform: "translate(-5 -5) scale(1.1)", fill: big ? color : "none",
                            stroke: color, "stroke-width": "2.5", "stroke-linejoin": "round" }), down(), flipped);
  return face;
}

// A card face as an SVG picture (decorative: the button around it carries the name).
export function cardFace(card) {
  const p = cardParts(card);
  const face = svg("svg", { viewBox: "0 0 100 140", class: "face", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: "1", y: "1", width: "98", height: "138", rx: "9", fill: "#fffdf6", stroke: "#a89f8c", "stroke-width": "1.5" }));
  if (!p.suit) return jokerFace(face, p.rank);
  const color = inkOf(p.suit);
  const body = svg("g", { fill: color });
  if (p.rank === "A") {
    body.append(pip(p.suit, 50, 70, 46));
  } else if (COURT_HATS[p.rank]) {
    body.append(
      svg("rect", { x: "22", y: "18", width: "56", height: "104", rx: "4", fill: isRed(p.suit) ? "#fbe9d0" : "#e6ecf5",
                    stroke: color, "stroke-width": "1.5" }),
      svg("path", { d: COURT_HATS[p.rank], fill: "#d4a32b", stroke: "#7a5a12", "stroke-width": "1.2" }),
      svg("text", { x: "50", y: "88", "text-anchor": "middle", "font-size": "40", "font-weight": "700",
                    "font-family": "DejaVu Serif, serif" }, p.rank),
      pip(p.suit, 50, 108, 16));
  } else {
    const size = Number(p.rank) >= 9 ? 17 : 19;
    for (const [x, y] of PIPS[p.rank]) body.append(pip(p.suit, x, y, size, y > 70));
  }
  face.append(body, corner(p.rank, p.suit, color));
  const flipped = corner(p.rank, p.suit, color);
  flipped.setAttribute("transform", "rotate(180 50 70)");
  face.append(flipped);
  return face;
}

export function cardBack() {
  return svg("svg", { viewBox: "0 0 100 140", class: "face back", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: "1", y: "1", width: "98", height: "138", rx: "9", fill: "#fffdf6", stroke: "#a89f8c", "stroke-width": "1.5" }),
    svg("rect", { x: "8", y: "8", width: "84", height: "124", rx: "5", fill: "url(#back-lattice)" }),
    svg("rect", { x: "8", y: "8", width: "84", height: "124", rx: "5", fill: "none", stroke: "#c9a04e", "stroke-width": "2" }));
}

// What each seat holds, drawn as the rules name it: a life, a penny, a token, a corner...
const COUNTER_ICONS = {
  life: () => [svg("use", { href: "#suit-H", x: "2", y: "2", width: "16", height: "16", fill: "#e0334a" })],
  penny: () => coin("#c8743a", "#8a4a1f", "1"),
  nickel: () => coin("#c9ced6", "#7d8592", "5"),
  coin: () => coin("#e5b93c", "#9a7412", ""),
  chip: () => [svg("circle", { cx: "10", cy: "10", r: "8.5", fill: "#2f6fd0", stroke: "#f2f2f2", "stroke-width": "2.5",
                               "stroke-dasharray": "3.3 3.3" }),
               svg("circle", { cx: "10", cy: "10", r: "4.5", fill: "#f2f2f2" })],
  token: () => [svg("circle", { cx: "10", cy: "10", r: "8.5", fill: "#7b4fc9", stroke: "#3d2370", "stroke-width": "1.5" }),
                svg("path", { d: "M10 4.5l1.6 3.4 3.7.4-2.8 2.5.8 3.7-3.3-1.9-3.3 1.9.8-3.7-2.8-2.5 3.7-.4Z", fill: "#f4e9ff" })],
  corner: () => [svg("path", { d: "M2 2H18L2 18Z", fill: "#6c9a5b", stroke: "#2f5326", "stroke-width": "1.2" }),
                 svg("text", { x: "6.5", y: "10", "font-size": "7", "font-weight": "700", fill: "#1f3b18",
                               "font-family": "DejaVu Sans, sans-serif" }, "$")],
  point: () => [svg("path", { d: "M10 1.5l2.6 5.6 6 .6-4.5 4 1.3 6-5.4-3.1-5.4 3.1 1.3-6-4.5-4 6-.6Z", fill: "#f1c232",
                              stroke: "#8a6a00", "stroke-width": "1" })],
};
function coin(fill, edge, mark) {
  return [svg("circle", { cx: "10", cy: "10", r: "8.5", fill, stroke: edge, "stroke-width": "1.5" }),
          svg("circle", { cx: "10", cy: "10", r: "5.5", fill: "none", stroke: edge, "stroke-width": ".8", opacity: ".7" }),
          ...(mark ? [svg("text", { x: "10", y: "13.2", "text-anchor": "middle", "font-size": "8.5", "font-weight": "700",
                                    fill: edge, "font-family": "DejaVu Sans, sans-serif" }, mark)] : [])];
}

export function counterIcon(one) {
  const kind = Object.keys(COUNTER_ICONS).find((k) => (one || "life").toLowerCase().includes(k)) || "life";
  return svg("svg", { viewBox: "0 0 20 20", class: "counter", "aria-hidden": "true", focusable: "false" },
             ...COUNTER_ICONS[kind]());
}
