// The lobby's clubs area, for a signed-in account: my clubs (each a link to its page, with
// its invite link to copy), a form to create one, and, opened at an invite link (/c/TOKEN),
// a button to join. And a club's own page (/club/ID): its members, its tables, its invite
// link, and what its owner (or a member) may do there.
// The server (/api/clubs, docs/server.md) decides who may do what; this page only asks.
import { $, api, defaultLevel, el, saveName, savedName, tokenKey } from "./dom.js";
import { _, ngettext } from "./i18n.js";

const members = (n) => ngettext("{n} member", "{n} members", n);

const INVITE = /^\/c\/([A-Za-z0-9_-]{16,64})$/;
let invite = INVITE.exec(location.pathname)?.[1] ?? null;  // the token this page was opened at
let signedIn = false;
let wired = false;

function wire() {
  wired = true;
  $("club-form").addEventListener("submit", (ev) => { ev.preventDefault(); act(create); });
  $("club-join-button").addEventListener("click", () => act(join));
}

// Called by the account area whenever who is signed in changes.
export function renderClubs(account) {
  if (!wired) wire();
  signedIn = !!account;
  $("clubs").hidden = !signedIn && !invite;
  $("club-form").hidden = $("club-list").hidden = !signedIn;
  $("club-join").hidden = !invite;
  $("club-join-button").hidden = !signedIn;
  $("club-join-text").textContent = signedIn ? _("You were invited to a club.")
    : _("You were invited to a club: sign up or sign in above to join it.");
  $("club-error").textContent = "";
  if (signedIn) act(list);
}

async function act(step) {
  $("club-error").textContent = "";
  try {
    await step();
  } catch (e) {
    $("club-error").textContent = e.message;
  }
}

async function list() {
  const { clubs } = await api("/api/clubs");
  $("club-list").replaceChildren(...clubs.map(item));
  if (!clubs.length) $("club-list").append(el("li", { class: "hint" }, _("No clubs yet: create one, or open a club's invite link.")));
}

function item(club) {
  const show = el("button", { type: "button", class: "quiet" }, _("Invite link"));
  const board = el("button", { type: "button", class: "quiet" }, _("Leaderboard"));
  const li = el("li", { class: "club" },
    el("span", { class: "club-name" }, el("a", { href: `/club/${encodeURIComponent(club.id)}` }, el("strong", {}, club.name)), " ",
       el("span", { class: "hint" }, club.owner ? _("{members}, yours", { members: members(club.members) }) : members(club.members))),
    show, board);
  board.addEventListener("click", () => act(async () => {
    const { families } = await api(`/api/clubs/${encodeURIComponent(club.id)}/leaderboard`);
    const shown = families.length ? families.flatMap((f) => [
      el("strong", {}, f.family),
      el("ol", { class: "leaderboard", "aria-label": _("{club} leaderboard, {family}", { club: club.name, family: f.family }) },
         ...f.players.map((p) => el("li", {}, ngettext("{name} {rating} ({n} rated game)", "{name} {rating} ({n} rated games)", p.games,
                                                        { name: p.name, rating: p.ordinal.toFixed(1) }))))])
      : [el("span", { class: "hint" }, _("No rated games in this club yet."))];
    board.replaceWith(el("div", { class: "club-board" }, ...shown));
  }));
  if (club.owner) li.append(webhookButton(club));
  show.addEventListener("click", () => act(async () => {
    const page = await api(`/api/clubs/${encodeURIComponent(club.id)}`);
    const link = el("input", { readonly: "", class: "club-link", "aria-label": _("Invite link to {club}", { club: club.name }),
                               value: `${location.origin}/c/${page.invite}` });
    show.replaceWith(link);
    link.select();
    navigator.clipboard?.writeText(link.value).catch(() => {});  // selected, to copy by hand too
  }));
  return li;
}

async function create() {
  const name = $("club-name").value.trim();
  if (!name) { $("club-name").focus(); throw new Error(_("Type a name for the club first.")); }
  await api("/api/clubs", { name });
  $("club-name").value = "";
  await list();
}

async function join() {
  const club = await api("/api/clubs/join", { token: invite });
  invite = null;
  history.replaceState(null, "", "/");
  $("club-join").hidden = true;
  await list();
  $("club-joined").textContent = _("You joined {club}.", { club: club.name });
}

// A club's page ---------------------------------------------------------------------------

let club = null;  // the page as the server last sent it

export async function showClub(id) {
  $("club-page").hidden = false;
  wirePage(id);
  try {
    const presets = await api("/api/presets");
    $("club-table-rules").replaceChildren(...presets.map((p) => el("option", { value: p.id }, `${p.name} (${p.id})`)));
  } catch { /* the form says why when it is used */ }
  await load(id);
}

async function load(id) {
  try {
    show(await api(`/api/clubs/${encodeURIComponent(id)}`));
  } catch (e) {
    missingClub(e);
  }
}

// Not a member (never was, removed, the club deleted) or not signed in: one page that says so.
function missingClub(e) {
  $("club-main").hidden = true;
  $("club-missing").hidden = false;
  $("club-missing-h").textContent = e.status === 401 ? _("Sign in to see this club") : _("You are not a member of this club");
  $("club-missing-text").textContent = e.status === 401
    ? _("Clubs are for signed-in members: sign in on the lobby, then open this page again.")
    : _("The owner may have removed you, or the club is gone (the server says: {why}). Ask a member for its invite link.", { why: e.message });
  document.title = "Ninety-Nine";
}

function show(page) {
  club = page;
  const owner = page.owner === page.you;
  document.title = `${page.name} · Ninety-Nine`;
  $("club-missing").hidden = true;
  $("club-main").hidden = false;
  $("club-title").textContent = page.name;
  $("club-role").textContent = members(page.members.length) + " · " + (owner ? _("you are its owner") : _("you are a member"));
  $("club-rename-form").hidden = !owner;
  $("club-rename").value = page.name;
  $("club-rotate").hidden = !owner;
  $("club-delete").hidden = !owner;
  $("club-leave").hidden = owner;
  $("club-end-h").textContent = owner ? _("Delete") : _("Leave");
  $("club-invite").value = `${location.origin}/c/${page.invite}`;
  $("club-members").replaceChildren(...page.members.map((m) => member(m, owner)));
  const live = page.tables.filter((t) => t.status === "waiting" || t.status === "playing");
  $("club-tables-state").textContent = live.length ? "" : _("No tables going: start one for the club.");
  $("club-tables").replaceChildren(...live.map(tableItem));
}

function member(m, owner) {
  const you = m.id === club.you;
  const li = el("li", { class: "club-member" },
    el("span", { class: "member-name" }, el("strong", {}, m.name),
       m.owner ? el("span", { class: "badge" }, _("owner")) : null, you ? el("span", { class: "hint" }, " " + _("(you)")) : null));
  if (owner && !m.owner) {
    const b = el("button", { type: "button", class: "quiet", "aria-label": _("Remove {name}", { name: m.name }) }, _("Remove"));
    b.addEventListener("click", () => confirmThen(
      _("Remove {name} from {club}? They lose access to its tables at once.", { name: m.name, club: club.name }),
      _("Remove {name}", { name: m.name }), async () => {
        await api(`/api/clubs/${encodeURIComponent(club.id)}/remove`, { account: m.id });
        await load(club.id);
      }));
    li.append(b);
  }
  return li;
}

function tableItem(t) {
  const waiting = t.status === "waiting";
  const mine = localStorage.getItem(tokenKey(t.id));
  const open = t.seats.filter((s) => s.kind === "open").length;
  const who = t.seats.filter((s) => s.kind !== "open").map((s) => s.name).join(", ");
  const [href, label] = mine ? [`/t/${t.id}`, _("Back to it")] : waiting ? [`/t/${t.id}`, _("Join")] : [`/t/${t.id}?watch=1`, _("Watch")];
  return el("li", { class: "listing" },
    el("div", { class: "what" }, el("strong", {}, t.rules.name),
       el("span", { class: `badge ${t.status}` }, waiting ? ngettext("{n} open seat", "{n} open seats", open) : _("playing")),
       ...(t.rated ? [el("span", { class: "badge" }, _("rated"))] : []),
       ...(t.turn_based ? [el("span", { class: "badge" }, _("turn-based"))] : [])),
    el("p", { class: "who" }, who),
    el("a", { class: "button", href }, label, el("span", { class: "visually-hidden" }, " " + _("{rules} with {who}", { rules: t.rules.name, who }))));
}

// A step that cannot be undone asks first, in a dialog; the server's refusal is shown on the page.
function confirmThen(text, yes, step) {
  const box = $("club-confirm");
  $("club-confirm-text").textContent = text;
  $("club-confirm-yes").textContent = yes;
  box.onclose = null;
  $("club-confirm-yes").onclick = () => { box.close(); pageAct(step); };
  box.showModal();
  $("club-confirm-no").focus();
}

async function pageAct(step) {
  $("club-page-error").textContent = "";
  try {
    await step();
  } catch (e) {
    $("club-page-error").textContent = e.message;
  }
}

let pageWired = false;
function wirePage(id) {
  if (pageWired) return;
  pageWired = true;
  const path = () => `/api/clubs/${encodeURIComponent(id)}`;
  $("club-confirm-no").addEventListener("click", () => $("club-confirm").close());
  $("club-rename-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    pageAct(async () => show(await api(`${path()}/rename`, { name: $("club-rename").value.trim() })));
  });
  $("club-invite-copy").addEventListener("click", () => {
    $("club-invite").select();
    navigator.clipboard?.writeText($("club-invite").value).catch(() => {});
    $("club-invite-state").textContent = _("Copied.");
  });
  $("club-rotate").addEventListener("click", () => pageAct(async () => {
    const { invite: fresh } = await api(`${path()}/invite`, {});
    club.invite = fresh;
    $("club-invite").value = `${location.origin}/c/${fresh}`;
    $("club-invite-state").textContent = _("A new invite link: the old one opens nothing from now on.");
  }));
  $("club-leave").addEventListener("click", () => confirmThen(_("Leave {club}? You need a new invite to come back.", { club: club.name }),
    _("Leave the club"), async () => { await api(`${path()}/leave`, {}); location.href = "/"; }));
  $("club-delete").addEventListener("click", () => confirmThen(_("Delete {club} for everyone? Its tables close, and this cannot be undone.", { club: club.name }),
    _("Delete the club"), async () => { await api(`${path()}/delete`, {}); location.href = "/"; }));
  $("club-table-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    pageAct(async () => {
      const me = (await api("/api/account/me")).account;
      const name = savedName() || me?.name || null;
      const players = Number($("club-table-players").value), count = Number($("club-table-bots").value);
      if (!(count >= 0 && count < players)) throw new Error(_("Bots: expected 0 to {most}, as you take a seat of the {seats}.", { most: players - 1, seats: players }));
      const level = defaultLevel((await api("/api/config")).bots);
      const bots = {};
      for (let seat = players - count + 1; seat <= players; seat++) bots[seat] = level;
      const body = { name, rules: $("club-table-rules").value || "P", players, club: id, public: false, bots };
      if ($("club-table-rated").checked) body.rated = true;
      if ($("club-table-turns").checked) Object.assign(body, { turn_based: true, clock: 86400 });
      const res = await api("/api/tables", body);
      if (name) saveName(name);
      localStorage.setItem(tokenKey(res.table), res.token);
      location.href = res.invite;
    });
  });
}

// The owner's webhook (a Discord or Slack channel's URL): "your turn" at the club's
// turn-based tables is posted there.
function webhookButton(club) {
  const open = el("button", { type: "button", class: "quiet" }, _("Webhook"));
  open.addEventListener("click", () => act(async () => {
    const { url } = await api(`/api/clubs/${encodeURIComponent(club.id)}/webhook`);
    const id = `webhook-${club.id}`;
    const input = el("input", { id, type: "url", maxlength: "500", class: "club-link", placeholder: "https://discord.com/api/webhooks/...", value: url || "" });
    const saved = el("span", { class: "hint", role: "status" });
    const form = el("form", { class: "club-form webhook-form" },
      el("div", { class: "field" }, el("label", { for: id }, _("Webhook for \"your turn\" in {club}", { club: club.name })), input),
      el("button", { type: "submit" }, _("Save webhook")), saved);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      act(async () => {
        saved.textContent = "";
        const res = await api(`/api/clubs/${encodeURIComponent(club.id)}/webhook`, { url: input.value.trim() });
        saved.textContent = res.url ? _("Saved.") : _("Removed.");
      });
    });
    open.replaceWith(form);
    input.focus();
  }));
  return open;
}
