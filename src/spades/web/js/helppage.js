// The help page on its own (help.html?preset=NAME): the rules of any variant, and the keys.

import { helpHtml } from "./help.js";

const select = document.getElementById("help-preset");
const body = document.getElementById("help-body");

/** On its own page the rules' title is the page's h1 and every section one level below it,
 * with no level skipped (h1, h2, h3: what a screen reader's heading list expects). */
function outline(root) {
  const headings = [...root.querySelectorAll("h1, h2, h3, h4, h5, h6")];
  if (!headings.length) return;
  const shift = Number(headings[0].tagName[1]) - 1;
  let previous = 0;
  headings.forEach((h, i) => {
    const level = i === 0 ? 1 : Math.min(Math.max(2, Number(h.tagName[1]) - shift), previous + 1);
    previous = level;
    if (h.tagName === `H${level}`) return;
    const replacement = document.createElement(`h${level}`);
    replacement.append(...h.childNodes);
    for (const attr of h.attributes) replacement.setAttribute(attr.name, attr.value);
    h.replaceWith(replacement);
  });
}

function show(data, name) {
  const p = data.presets.find((x) => x.name === name) || data.presets[0];
  select.value = p.name;
  body.innerHTML = helpHtml({ ...p.options, name: p.name },
    { label: p.label, names: p.seats, you: p.you, table: p.table });
  outline(body);
  document.title = `How to play: ${p.label}`;
}

async function start() {
  let data;
  try {
    const response = await fetch("/api/presets");
    data = await response.json();
  } catch {
    body.innerHTML = "<h1>How to play Spades</h1><p>The rules come from the table's server, " +
      "which cannot be reached.</p>";
    return;
  }
  for (const p of data.presets) select.append(new Option(p.label, p.name));
  const wanted = new URLSearchParams(location.search).get("preset") || data.default_preset;
  show(data, wanted);
  select.addEventListener("change", () => {
    history.replaceState(null, "", `?preset=${encodeURIComponent(select.value)}`);
    show(data, select.value);
  });
}

start();
