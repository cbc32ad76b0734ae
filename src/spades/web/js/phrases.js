// A few words at a table with friends: a fixed set of phrases and emoji reactions (the
// server's list, GET /api/presets "phrases"; no free text anywhere), said from the Say window,
// shown by the speaker's seat for a few seconds and announced in the live region. Anyone can
// mute them on this device.

import { announce, toast } from "./announce.js";
import { openDialog } from "./windows.js";

const $ = (id) => document.getElementById(id);
const MUTE_KEY = "spades.mute-phrases";
/** How long a phrase stays by its seat (ms). */
const SHOWN_MS = 4000;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

/** Whether a phrase is an emoji reaction (no letters). */
export function isReaction(text) {
  return !/\p{L}/u.test(text);
}

export function muted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false;
  }
}

function setMuted(on) {
  try {
    if (on) localStorage.setItem(MUTE_KEY, "1");
    else localStorage.removeItem(MUTE_KEY);
  } catch {
    // private mode: for this visit
  }
}

export class Phrases {
  /** ``list()``: a promise of the server's phrases [{name, text}]; ``send(message)``. */
  constructor({ list, send }) {
    this.list = list;
    this.send = send;
    this.said = new Map(); // seat -> {text, until}
    this.dialog = null;
  }

  /** A ``phrase`` message: by the seat for a few seconds, and in the live region. */
  heard(msg, you) {
    if (muted()) return;
    const who = msg.seat === you ? "You" : msg.name;
    this.said.set(msg.seat, { text: msg.text, until: performance.now() + SHOWN_MS });
    announce(`${who}: ${msg.text}`);
    this.decorate();
    setTimeout(() => this.decorate(), SHOWN_MS + 50);
  }

  /** The phrases by their seats, put back after every drawing of the felt. */
  decorate() {
    const now = performance.now();
    for (const box of document.querySelectorAll("#felt .seat[data-seat]")) {
      for (const old of box.querySelectorAll(".said")) old.remove();
      const said = this.said.get(Number(box.dataset.seat));
      if (!said || said.until <= now || muted()) continue;
      // shown, not read out again: the live region said it once
      const bubble = el("span", `said${isReaction(said.text) ? " emoji" : ""}`, said.text);
      bubble.setAttribute("aria-hidden", "true");
      box.append(bubble);
    }
  }

  reset() {
    this.said.clear();
  }

  async open(opener) {
    if (!this.dialog) this.dialog = this.build();
    const body = this.dialog.querySelector(".say-body");
    try {
      const phrases = await this.list();
      body.replaceChildren(...this.buttons(phrases));
    } catch (e) {
      body.replaceChildren(el("p", "error", e.message));
    }
    this.dialog.querySelector("#say-mute").checked = muted();
    openDialog(this.dialog);
    const first = body.querySelector("button");
    if (first) first.focus();
    this.opener = opener;
  }

  buttons(phrases) {
    const words = el("div", "phrases");
    const faces = el("div", "reactions");
    for (const p of phrases) {
      const reaction = isReaction(p.text);
      const b = el("button", "", p.text);
      b.type = "button";
      b.dataset.phrase = p.name;
      if (reaction) b.setAttribute("aria-label", `React ${p.name.replace(/-/g, " ")}`);
      b.addEventListener("click", () => {
        if (!this.send({ type: "phrase", phrase: p.name })) toast("Not connected to the table yet; try again in a moment.");
        this.dialog.close();
      });
      (reaction ? faces : words).append(b);
    }
    return [words, faces];
  }

  build() {
    const dialog = el("dialog");
    dialog.id = "dlg-say";
    dialog.setAttribute("aria-labelledby", "say-title");
    const title = el("h2", "", "Say to the table");
    title.id = "say-title";
    const mute = el("input");
    mute.type = "checkbox";
    mute.id = "say-mute";
    mute.addEventListener("change", () => {
      setMuted(mute.checked);
      if (mute.checked) this.said.clear();
      this.decorate();
      announce(mute.checked ? "Phrases are muted on this device." : "Phrases are shown again.");
    });
    const label = el("label", "mute");
    label.append(mute, " Mute everyone's phrases on this device");
    const close = el("form");
    close.method = "dialog";
    const done = el("button", "primary", "Close");
    close.append(done);
    dialog.append(title, el("p", "hint", "A few words, shown by your seat for a moment."), el("div", "say-body"), label, close);
    document.body.append(dialog);
    return dialog;
  }
}
