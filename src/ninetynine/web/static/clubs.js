// The lobby's clubs area, for a signed-in account: my clubs (each with its invite link to
// copy), a form to create one, and, opened at an invite link (/c/TOKEN), a button to join.
// The server (/api/clubs, docs/server.md) decides who may do what; this page only asks.
import { $, api, el, plural } from "./dom.js";

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
  $("club-join-text").textContent = signedIn ? "You were invited to a club."
    : "You were invited to a club: sign up or sign in above to join it.";
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
  if (!clubs.length) $("club-list").append(el("li", { class: "hint" }, "No clubs yet: create one, or open a club's invite link."));
}

function item(club) {
  const show = el("button", { type: "button", class: "quiet" }, "Invite link");
  const li = el("li", { class: "club" },
    el("span", { class: "club-name" }, el("strong", {}, club.name), " ",
       el("span", { class: "hint" }, plural(club.members, "member", "members"), club.owner ? ", yours" : "")),
    show);
  if (club.owner) li.append(webhookButton(club));
  show.addEventListener("click", () => act(async () => {
    const page = await api(`/api/clubs/${encodeURIComponent(club.id)}`);
    const link = el("input", { readonly: "", class: "club-link", "aria-label": `Invite link to ${club.name}`,
                               value: `${location.origin}/c/${page.invite}` });
    show.replaceWith(link);
    link.select();
    navigator.clipboard?.writeText(link.value).catch(() => {});  // selected, to copy by hand too
  }));
  return li;
}

async function create() {
  const name = $("club-name").value.trim();
  if (!name) { $("club-name").focus(); throw new Error("Type a name for the club first."); }
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
  $("club-joined").textContent = `You joined ${club.name}.`;
}

// The owner's webhook (a Discord or Slack channel's URL): "your turn" at the club's
// turn-based tables is posted there.
function webhookButton(club) {
  const open = el("button", { type: "button", class: "quiet" }, "Webhook");
  open.addEventListener("click", () => act(async () => {
    const { url } = await api(`/api/clubs/${encodeURIComponent(club.id)}/webhook`);
    const id = `webhook-${club.id}`;
    const input = el("input", { id, type: "url", maxlength: "500", class: "club-link", placeholder: "https://discord.com/api/webhooks/...", value: url || "" });
    const saved = el("span", { class: "hint", role: "status" });
    const form = el("form", { class: "club-form webhook-form" },
      el("div", { class: "field" }, el("label", { for: id }, `Webhook for "your turn" in ${club.name}`), input),
      el("button", { type: "submit" }, "Save webhook"), saved);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      act(async () => {
        saved.textContent = "";
        const res = await api(`/api/clubs/${encodeURIComponent(club.id)}/webhook`, { url: input.value.trim() });
        saved.textContent = res.url ? "Saved." : "Removed.";
      });
    });
    open.replaceWith(form);
    input.focus();
  }));
  return open;
}
