// The player's settings, kept in this browser.

const KEY = "spades.settings";
const PACE_MS = { calm: 700, quick: 350, instant: 0 };

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
  pace: saved.pace in PACE_MS ? saved.pace : "calm",
};

export function save() {
  localStorage.setItem(KEY, JSON.stringify(settings));
}

/** How long each card of another player stays alone on the table before the next one. */
export function paceMs() {
  return PACE_MS[settings.pace];
}

export function bindSettings(dialog) {
  const tap = dialog.querySelector("#set-tap-twice");
  const paces = dialog.querySelectorAll("input[name=pace]");
  const show = () => {
    tap.checked = settings.tapTwice;
    for (const p of paces) p.checked = p.value === settings.pace;
  };
  tap.addEventListener("change", () => { settings.tapTwice = tap.checked; save(); });
  for (const p of paces) {
    p.addEventListener("change", () => { if (p.checked) { settings.pace = p.value; save(); } });
  }
  show();
  return show;
}
