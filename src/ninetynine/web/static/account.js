// The lobby's account area: sign up, sign in and recover with passkeys (WebAuthn), add a
// passkey, sign another device in by a one-time link (#link=TOKEN, a fragment no server
// sees), sign out, delete. Accounts are optional: a guest sees a few buttons and plays as before. The server
// (/api/account, docs/server.md) keeps the session in an HttpOnly cookie, so this page only
// asks who is signed in and never holds a secret, except the recovery code it shows once.
import { renderClubs } from "./clubs.js";
import { $, api } from "./dom.js";
import { claimSeats, renderGames } from "./games.js";
import { _, ngettext } from "./i18n.js";
import { renderTurns } from "./turns.js";

// base64url (WebAuthn's JSON) <-> bytes, by hand: not every browser has
// PublicKeyCredential.parseCreationOptionsFromJSON or a credential's toJSON.
export function fromB64(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
}

export function toB64(buffer) {
  let bin = "";
  for (const byte of new Uint8Array(buffer)) bin += String.fromCharCode(byte);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const withIds = (list) => (list || []).map((c) => ({ ...c, id: fromB64(c.id) }));

function creationOptions(o) {
  return { ...o, challenge: fromB64(o.challenge), user: { ...o.user, id: fromB64(o.user.id) },
           excludeCredentials: withIds(o.excludeCredentials) };
}

function requestOptions(o) {
  return { ...o, challenge: fromB64(o.challenge), allowCredentials: withIds(o.allowCredentials) };
}

// A credential as PublicKeyCredential.toJSON() writes it, which the server reads.
function credentialJSON(cred) {
  const r = cred.response, response = { clientDataJSON: toB64(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  } else {
    response.authenticatorData = toB64(r.authenticatorData);
    response.signature = toB64(r.signature);
    if (r.userHandle) response.userHandle = toB64(r.userHandle);
  }
  return { id: cred.id, rawId: toB64(cred.rawId), type: cred.type, response,
           authenticatorAttachment: cred.authenticatorAttachment ?? null,
           clientExtensionResults: cred.getClientExtensionResults() };
}

const hasPasskeys = () => !!(window.PublicKeyCredential && navigator.credentials && window.isSecureContext);

let account = null;  // {id, name, passkeys} while signed in
let linkHint = "";  // what the link to sign another device in does (said again once copied)

const passkeys = (n) => ngettext("{n} passkey", "{n} passkeys", n);

export async function showAccount() {
  $("sign-up").addEventListener("click", () => {
    if (!$("account-name").value) $("account-name").value = $("name").value.trim();  // the table name, a start
    openForm("sign-up-form", "account-name");
  });
  $("recover").addEventListener("click", () => openForm("recover-form", "recovery-input"));
  $("delete-account").addEventListener("click", () => openForm("delete-form", "delete-confirm"));
  $("add-passkey").addEventListener("click", () => act(addPasskey));
  $("link-form").addEventListener("submit", (ev) => ev.preventDefault());
  $("link-device").addEventListener("click", () => act(makeLink));
  $("link-copy").addEventListener("click", () => {
    $("link-url").select();
    navigator.clipboard?.writeText($("link-url").value).catch(() => {});  // selected, to copy by hand too
    $("link-hint").textContent = _("Copied.") + " " + linkHint;
  });
  $("sign-in").addEventListener("click", () => act(signIn));
  $("sign-out").addEventListener("click", () => act(signOut));
  $("sign-up-form").addEventListener("submit", (ev) => { ev.preventDefault(); act(signUp); });
  $("recover-form").addEventListener("submit", (ev) => { ev.preventDefault(); act(recover); });
  $("delete-form").addEventListener("submit", (ev) => { ev.preventDefault(); act(remove); });
  for (const b of document.querySelectorAll("#account [data-cancel]")) b.addEventListener("click", cancel);
  for (const f of document.querySelectorAll("#account form")) {
    f.addEventListener("keydown", (ev) => { if (ev.key === "Escape") cancel(); });
  }
  $("recovery-done").addEventListener("click", () => {
    $("recovery-panel").hidden = true;
    $("recovery-code").textContent = "";  // gone from the page, as promised
    render();
    $("sign-out").focus();  // a code is shown only on signing in
  });
  const link = /^#link=([A-Za-z0-9_-]{20,100})$/.exec(location.hash);
  if (link) {  // opened at another device's link: it signs this one in, once
    history.replaceState(null, "", location.pathname + location.search);  // the token leaves the address bar
    await act(() => useLink(link[1]));
    if (account) return;
  }
  try { account = (await api("/api/account/me")).account; } catch { account = null; }
  render();
}

async function useLink(token) {
  const focus = signedIn(await api("/api/account/link/use", { token }));
  $("account-note").textContent = hasPasskeys()
    ? _("This device is signed in as {name} by a link. Add a passkey to sign in here without one.", { name: account.name })
    : _("This device is signed in as {name} by a link.", { name: account.name });
  return focus;
}

async function addPasskey() {
  closeForms();
  const { publicKey } = await api("/api/account/register/options", {});
  const cred = await navigator.credentials.create({ publicKey: creationOptions(publicKey) });
  account = (await api("/api/account/register/verify", { credential: credentialJSON(cred) })).account;
  render();
  $("account-note").textContent = _("Passkey added: this account has {passkeys}.", { passkeys: passkeys(account.passkeys) });
  return "add-passkey";
}

async function makeLink() {
  closeForms();
  const { token, seconds } = await api("/api/account/link", {});
  $("link-url").value = `${location.origin}/#link=${token}`;
  const minutes = Math.round(seconds / 60);
  linkHint = ngettext("It signs one device in to {name}, once, within {n} minute. Keep it to yourself: whoever opens it is signed in.",
                      "It signs one device in to {name}, once, within {n} minutes. Keep it to yourself: whoever opens it is signed in.",
                      minutes, { name: account.name });
  $("link-hint").textContent = linkHint;
  $("link-form").hidden = false;
  $("link-url").select();
  return "link-url";
}

function render() {
  const guest = !account;
  // the name in bold, where the sentence in the language puts it
  const [before, after = ""] = _("Signed in as {name}.").split("{name}");
  $("account-state").replaceChildren(...(guest ? [_("Playing as a guest.")]
    : [before, Object.assign(document.createElement("strong"), { textContent: account.name }), after]));
  $("account-guest").hidden = !guest;
  $("sign-up").hidden = $("sign-in").hidden = !hasPasskeys();
  $("account-nopasskey").hidden = !guest || hasPasskeys();
  $("account-member").hidden = guest;
  $("account-passkeys").textContent = guest ? "" : _("This account has {passkeys}.", { passkeys: passkeys(account.passkeys) });
  if (guest) $("account-more").open = false;
  $("add-passkey").hidden = guest || !hasPasskeys();
  if (guest) $("account-note").textContent = "";
  $("delete-label").textContent = guest ? "" : _("Type the account's name, {name}, to delete it", { name: account.name });
  renderClubs(account);
  renderGames(account);
  renderTurns(account);
}

function openForm(form, field) {
  closeForms();
  $(form).hidden = false;
  $(field).focus();
}

// Escape or Cancel: the form closes and focus goes back to the button that opened it.
function cancel() {
  const form = [...document.querySelectorAll("#account form")].find((f) => !f.hidden);
  closeForms();
  const opener = { "sign-up-form": "sign-up", "recover-form": "recover", "delete-form": "delete-account",
                   "link-form": "link-device" }[form?.id];
  if (opener) $(opener).focus();
}

function closeForms() {
  for (const id of ["sign-up-form", "recover-form", "delete-form", "link-form"]) $(id).hidden = true;
  $("account-error").textContent = "";
}

// Runs one step; the server's refusal (or the browser's) is one line under the buttons.
async function act(step) {
  $("account-error").textContent = "";
  const busy = [...document.querySelectorAll("#account button")];
  busy.forEach((b) => { b.disabled = true; });
  const before = document.activeElement;
  let focus = null;  // a button takes focus once enabled again (a refusal: back where it was)
  try {
    focus = await step();
  } catch (e) {
    $("account-error").textContent = browserRefusal(e) ?? e.message;
  } finally {
    busy.forEach((b) => { b.disabled = false; });
  }
  (focus ? $(focus) : before)?.focus();
}

// A browser's refusal says little a person can use: name what happened instead.
function browserRefusal(e) {
  if (e.name === "NotAllowedError") return _("The passkey was not used (cancelled, or it timed out): try again when you are ready.");
  if (e.name === "InvalidStateError") return _("This device has a passkey for this account already: sign in with it.");
  if (e.name === "SecurityError") return _("This browser refused a passkey for this address: open the page by its name (https, or localhost).");
  return null;
}

function signedIn(res) {
  account = res.account;
  closeForms();
  if (res.recovery_code) {
    // it breaks between groups only, and copies without anything added
    $("recovery-code").replaceChildren(...res.recovery_code.split("-").flatMap(
      (group, i) => (i ? ["-", document.createElement("wbr"), group] : [group])));
    $("recovery-panel").hidden = false;
  }
  render();
  return res.recovery_code ? "recovery-h" : "sign-out";
}

async function signUp() {
  const name = $("account-name").value.trim();
  if (!name) { $("account-name").focus(); throw new Error(_("Type a name for the account first.")); }
  const { publicKey } = await api("/api/account/register/options", { name });
  const cred = await navigator.credentials.create({ publicKey: creationOptions(publicKey) });
  const focus = signedIn(await api("/api/account/register/verify", { credential: credentialJSON(cred) }));
  await claimSeats();  // the seats this browser played as a guest are the new account's
  return focus;
}

async function signIn() {
  closeForms();
  const { publicKey } = await api("/api/account/signin/options", {});
  const cred = await navigator.credentials.get({ publicKey: requestOptions(publicKey) });
  const focus = signedIn(await api("/api/account/signin/verify", { credential: credentialJSON(cred) }));
  await claimSeats();
  return focus;
}

async function recover() {
  const code = $("recovery-input").value.trim();
  if (!code) { $("recovery-input").focus(); throw new Error(_("Type the recovery code first.")); }
  const focus = signedIn(await api("/api/account/recover", { code }));
  $("recovery-input").value = "";
  return focus;
}

async function signOut() {
  closeForms();
  await api("/api/account/signout", {});
  account = null;
  render();
  return hasPasskeys() ? "sign-in" : "recover";
}

async function remove() {
  await api("/api/account/delete", { confirm: $("delete-confirm").value });
  account = null;
  $("delete-confirm").value = "";
  closeForms();
  render();
  $("account-state").textContent = _("The account is deleted. Playing as a guest.");
  return hasPasskeys() ? "sign-up" : "recover";
}
