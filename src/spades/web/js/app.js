// The installable app: the service worker that keeps the table's files on this device, and
// the version check. The server says its version (GET /api/version); the page knows the
// version it was loaded with (the service worker's, or the server's when it came from the
// network). A page older than the server is told to reload: it must not talk an old
// protocol. When the server cannot be reached, the page says so plainly.

let pageVersion = null; // the version of the files this page runs
let registration = null;
let notice = null;

function bar() {
  if (!notice) notice = document.getElementById("app-notice");
  return notice;
}

function show(text, button) {
  const box = bar();
  if (!box) return;
  box.replaceChildren(text);
  if (button) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "primary";
    b.textContent = button[0];
    b.addEventListener("click", button[1]);
    box.append(" ", b);
  }
  box.hidden = false;
}

function clear() {
  const box = bar();
  if (box) box.hidden = true;
}

/** The version in the service worker's address (sw.js?v=...), if one runs this page. */
function workerVersion(worker) {
  if (!worker) return null;
  try {
    return new URL(worker.scriptURL).searchParams.get("v");
  } catch {
    return null;
  }
}

async function serverVersion() {
  const answer = await fetch("/api/version", { cache: "no-store" });
  if (!answer.ok) throw new Error(`the server answered ${answer.status}`);
  const data = await answer.json();
  return String(data.version);
}

/** Reload onto the new version: let the new service worker (installed, or still
 * installing) take over first, so that the reload gets the new files. */
function reload() {
  const worker = registration && (registration.waiting || registration.installing);
  if (!worker) {
    location.reload();
    return;
  }
  navigator.serviceWorker.addEventListener("controllerchange", () => location.reload());
  const skip = () => worker.postMessage("skip-waiting");
  if (worker.state === "installed") skip();
  else worker.addEventListener("statechange", () => { if (worker.state === "installed") skip(); });
  setTimeout(() => location.reload(), 5000);
}

async function register(version) {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  try {
    registration = await navigator.serviceWorker.register(`/sw.js?v=${encodeURIComponent(version)}`,
      { scope: "/" });
  } catch {
    registration = null; // the table works without it, only slower to open
  }
}

/** Ask the server for its version: tell the player to reload when this page is older (the
 * new files are fetched meanwhile), or that the server cannot be reached. Called at start
 * and whenever the table's connection comes back. True when the page may talk to it. */
export async function checkVersion() {
  let version;
  try {
    version = await serverVersion();
  } catch {
    show("The table's server cannot be reached. Your games are saved on it; this page " +
      "connects again by itself when it is back.");
    return false;
  }
  if (pageVersion === null) pageVersion = version;
  await register(version);
  if (pageVersion !== version) {
    show("A new version of the table is on the server: reload to play on.", ["Reload", reload]);
    return false;
  }
  clear();
  return true;
}

/** The server refused this page as older than itself (its socket said so): reload. */
export function mustReload() {
  show("A new version of the table is on the server: reload to play on.", ["Reload", reload]);
}

/** At start: the version this page was loaded with, then the check. */
export function startApp() {
  const sw = "serviceWorker" in navigator ? navigator.serviceWorker.controller : null;
  pageVersion = workerVersion(sw);
  return checkVersion();
}
