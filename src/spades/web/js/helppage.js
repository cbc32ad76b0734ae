// The help page on its own (help.html?preset=NAME): the rules of any variant, and the keys.

import { helpHtml } from "./help.js";

const select = document.getElementById("help-preset");
const body = document.getElementById("help-body");

function show(data, name) {
  const p = data.presets.find((x) => x.name === name) || data.presets[0];
  select.value = p.name;
  body.innerHTML = helpHtml({ ...p.options, name: p.name },
    { label: p.label, names: p.seats, you: p.you, table: p.table })
    .replace("<h2>", "<h1>").replace("</h2>", "</h1>");
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
