// The player's settings, kept in this browser.

const KEY = "spades.settings";

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

const saved = load();
const touch = window.matchMedia("(pointer: coarse)").matches;

export const settings = {
  tapTwice: typeof saved.tapTwice === "boolean" ? saved.tapTwice : touch,
};

export function save() {
  localStorage.setItem(KEY, JSON.stringify(settings));
}

export function bindSettings(dialog) {
  const tap = dialog.querySelector("#set-tap-twice");
  const show = () => { tap.checked = settings.tapTwice; };
  tap.addEventListener("change", () => { settings.tapTwice = tap.checked; save(); });
  show();
  return show;
}
