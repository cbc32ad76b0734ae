// The player's settings, kept on this device (localStorage): tap twice to play, the speed of
// the card animations, a four-colour deck and the size of the cards.

const KEY = "spades.settings";
const SPEEDS = { off: 0, fast: 0.6, normal: 1, slow: 1.6 };
const SIZES = ["small", "normal", "large"];

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

const saved = load();
const touch = window.matchMedia("(pointer: coarse)").matches;
const still = window.matchMedia("(prefers-reduced-motion: reduce)");

export const settings = {
  tapTwice: typeof saved.tapTwice === "boolean" ? saved.tapTwice : touch,
  speed: saved.speed in SPEEDS ? saved.speed : "normal",
  fourColour: saved.fourColour === true,
  cardSize: SIZES.includes(saved.cardSize) ? saved.cardSize : "normal",
};

export function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // private mode or full storage: the settings last for this visit
  }
}

/** How long animations take, as a factor of the normal speed: 0 when motion is off (the
 * setting, or the system's "reduce motion"). */
export function motion() {
  return still.matches ? 0 : SPEEDS[settings.speed];
}

/** The settings the style sheet reads, on the root element. */
export function apply() {
  const root = document.documentElement;
  root.classList.toggle("four-colour", settings.fourColour);
  root.dataset.cards = settings.cardSize;
  root.dataset.motion = motion() ? "on" : "off";
}

export function bindSettings(dialog) {
  const tap = dialog.querySelector("#set-tap-twice");
  const four = dialog.querySelector("#set-four-colour");
  const speed = dialog.querySelector("#set-speed");
  const size = dialog.querySelector("#set-card-size");
  const show = () => {
    tap.checked = settings.tapTwice;
    four.checked = settings.fourColour;
    speed.value = settings.speed;
    size.value = settings.cardSize;
  };
  const changed = () => {
    settings.tapTwice = tap.checked;
    settings.fourColour = four.checked;
    if (speed.value in SPEEDS) settings.speed = speed.value;
    if (SIZES.includes(size.value)) settings.cardSize = size.value;
    save();
    apply();
  };
  for (const input of [tap, four, speed, size]) input.addEventListener("change", changed);
  still.addEventListener("change", apply);
  apply();
  show();
  return show;
}
