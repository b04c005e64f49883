// Installable and offline: the service worker (/sw.js) keeps the client in a cache, and the
// page says plainly when it cannot reach the server, and again when it can.
import { $ } from "./dom.js";
import { _ } from "./i18n.js";

export function installOffline() {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  const show = () => { $("offline").hidden = navigator.onLine; };
  addEventListener("online", show);
  addEventListener("offline", show);
  show();
}

// A request that got no answer at all (no network, or the server is down): say so.
export function unreachable() {
  $("offline").hidden = false;
}
