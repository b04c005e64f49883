// The browser client: plain modules, no build step. The address says which page this is:
// / the lobby, /t/ID a table (?watch=1 to watch it, ?replay=1[&seat=N] its replay, &review=1
// with the coach's review of that seat started), /c/TOKEN the lobby offering to join a club
// (clubs.js reads the token), /club/ID a club's page, /s/TOKEN a shared game's replay.
import { $ } from "./dom.js";
import { installSprite } from "./cards.js";
import { _, loadLanguage } from "./i18n.js";
import { installOffline, unreachable } from "./offline.js";
import { showClub } from "./clubs.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./play.js";
import { showReplay } from "./replay.js";

installOffline();
if (!(await loadLanguage())) unreachable();  // first: every page speaks the chosen language
installSprite();
const path = location.pathname;
const m = /^\/t\/([A-Za-z0-9_-]+)$/.exec(path);
const shared = /^\/s\/([^/]+)$/.exec(path);
const club = /^\/club\/([A-Za-z0-9_-]+)$/.exec(path);
const query = new URLSearchParams(location.search);
if (shared) {
  showReplay({ shared: shared[1] }).catch((e) => {
    // a link that opens nothing: say so, with the way to the lobby
    $("table").hidden = false;
    $("missing-h").textContent = _("This shared game does not exist");
    $("missing-text").textContent = e.message;
    $("missing-panel").hidden = false;
  });
} else if (club) {
  showClub(club[1]);
} else if (!m) {
  showLobby();
} else if (query.has("replay")) {
  showReplay({ table: m[1] }, Number(query.get("seat")) || null, query.has("review")).catch((e) => {
    $("conn").textContent = e.message;
  });
} else {
  showTable(m[1], { watch: query.has("watch") });
}
