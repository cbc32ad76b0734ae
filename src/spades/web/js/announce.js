// What a screen reader hears: each play, each trick's winner, each score, in one polite
// live region. Messages are appended one per line and old ones dropped.

const MAX_LINES = 6;

export function announce(text) {
  const live = document.getElementById("live");
  if (!live || !text) return;
  const line = document.createElement("p");
  line.textContent = text;
  live.append(line);
  while (live.childElementCount > MAX_LINES) live.firstElementChild.remove();
}

let toastTimer = 0;

/** A message the player must see (an illegal click, a lost connection): shown and spoken. */
export function toast(text, ms = 4000) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, ms);
}
