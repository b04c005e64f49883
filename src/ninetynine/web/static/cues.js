// Cues that reach a player who is not looking: a chime and the tab title on their turn,
// calls spoken aloud (off until asked for), and live regions for screen readers.
import { $, el, prefs } from "./dom.js";
import { _ } from "./i18n.js";
import { inWords } from "./cards.js";

let audio = null;

// Browsers let a page make sound only after a click or a key: the context starts then.
function startAudio() {
  if (audio || !window.AudioContext) return;
  audio = new AudioContext();
}
addEventListener("pointerdown", startAudio, { once: true });
addEventListener("keydown", startAudio, { once: true });

function chime() {
  if (!audio || !prefs.get("sound", true)) return;
  const now = audio.currentTime;
  for (const [k, freq] of [[0, 660], [1, 880]]) {
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    const t = now + k * 0.12;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.18, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start(t);
    osc.stop(t + 0.4);
  }
}

let myTurn = false;
export function turnCue(isMine, quiet = false) {
  if (isMine && !myTurn && !quiet) { chime(); announce(_("Your turn.")); }
  myTurn = isMine;
  document.title = isMine ? _("Your turn · {game}", { game: _("Ninety-Nine") }) : _("Ninety-Nine");
}

export function speak(text) {
  if (!prefs.get("speech", false) || !window.speechSynthesis) return;
  const u = new SpeechSynthesisUtterance(text);
  u.rate = 1.1;
  u.lang = document.documentElement.lang || "en";  // the page's language: a voice that says it
  speechSynthesis.speak(u);
}

// The screen-reader mode (a preference, off until asked for): every line of table talk and
// every cue is read once, in the order it happened, each a new entry of a log region
// (which screen readers read as entries are added, and never again), cards in words.
export const readerMode = () => prefs.get("reader", false);
const READ_KEPT = 50;  // entries kept in the region: it is heard, not looked at
export function readOut(text) {
  const region = $("reader");
  region.append(el("p", {}, inWords(text)));
  while (region.childElementCount > READ_KEPT) region.firstElementChild.remove();
}

// Polite announcements, gathered over one frame; the region is cleared first, so the same
// text twice in a row is read twice. In the screen-reader mode they join the log instead,
// in their place among the events.
let pending = [];
export function announce(text) {
  if (readerMode()) return readOut(text);
  if (!pending.length) {
    $("announce").textContent = "";
    requestAnimationFrame(() => { $("announce").textContent = pending.join(" "); pending = []; });
  }
  pending.push(text);
}
