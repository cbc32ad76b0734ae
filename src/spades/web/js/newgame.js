// The new-game screen: the variant, the computer players' level and the house rules of
// seed 004 that apply to it, all as the server offers them (GET /api/presets).

const LAST_KEY = "spades.newgame";

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === true) node.setAttribute(k, "");
    else if (v !== false && v != null) node.setAttribute(k, v);
  }
  if (text != null) node.textContent = text;
  return node;
}

function lastChoice() {
  try {
    return JSON.parse(localStorage.getItem(LAST_KEY) || "{}");
  } catch {
    return {};
  }
}

export class NewGameForm {
  constructor(form, onStart) {
    this.form = form;
    this.onStart = onStart;
    this.data = null;
    this.select = form.querySelector("#new-preset");
    this.select.addEventListener("change", () => this.showPreset(this.select.value, {}));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  load(data) {
    this.data = data;
    const last = lastChoice();
    this.select.replaceChildren();
    for (const p of data.presets) {
      this.select.append(el("option", { value: p.name }, p.label));
    }
    const levels = this.form.querySelector("#new-level");
    levels.replaceChildren();
    const level = last.level || data.default_level;
    for (const l of data.levels) {
      const label = el("label");
      label.append(el("input", { type: "radio", name: "level", value: l.name, checked: l.name === level }),
        ` ${l.label}`);
      levels.append(label);
    }
    const preset = data.presets.some((p) => p.name === last.preset) ? last.preset : data.default_preset;
    this.select.value = preset;
    this.showPreset(preset, last.preset === preset ? last.house_rules || {} : {});
  }

  preset(name) {
    return this.data.presets.find((p) => p.name === name);
  }

  showPreset(name, chosen) {
    const p = this.preset(name);
    if (!p) return;
    this.form.querySelector("#new-variant-help").textContent =
      p.help ? p.help.charAt(0).toUpperCase() + p.help.slice(1) + "." : "";
    // Your seat, your partner and the sides are the server's (p.you, p.table): none assumed.
    const seats = p.seats;
    const partner = p.table.partner_of[p.you];
    const mine = p.table.side_of[p.you];
    const against = p.table.sides.filter((_, i) => i !== mine).flat().map((s) => seats[s]);
    const seatText = partner != null
      ? `You and your partner ${seats[partner]} against ${against.join(" and ")}.`
      : `You against ${against.join(", ")}, each for themselves.`;
    this.form.querySelector("#new-seats").textContent = seatText;
    this.form.querySelector("#new-level-hint").textContent = partner != null
      ? `${seats[partner]}, your partner, plays at the same level.` : "Every computer player plays at this level.";
    const target = this.form.querySelector("#new-target");
    const toggles = this.form.querySelector(".toggles");
    target.replaceChildren();
    toggles.replaceChildren();
    const targetBox = target.closest("fieldset");
    targetBox.hidden = true;
    for (const rule of p.house_rules) {
      const value = rule.name in chosen ? chosen[rule.name] : rule.default;
      if (rule.name === "target_score") {
        targetBox.hidden = false;
        for (const choice of rule.choices) {
          const label = el("label");
          label.append(el("input", { type: "radio", name: "target_score", value: String(choice),
            checked: choice === value }), ` ${choice}`);
          target.append(label);
        }
      } else {
        const label = el("label", { title: rule.help || "" });
        label.append(el("input", { type: "checkbox", name: rule.name, checked: Boolean(value) }),
          ` ${rule.label}`);
        toggles.append(label);
      }
    }
    toggles.closest("fieldset").hidden = !toggles.childElementCount;
    const link = this.form.querySelector("#new-help-link");
    link.href = `/help.html?preset=${encodeURIComponent(name)}`;
    this.form.querySelector("#new-error").textContent = "";
  }

  values() {
    const name = this.select.value;
    const p = this.preset(name);
    const house = {};
    for (const rule of p.house_rules) {
      if (rule.name === "target_score") {
        const checked = this.form.querySelector("input[name=target_score]:checked");
        if (checked) house.target_score = Number(checked.value);
      } else {
        house[rule.name] = this.form.querySelector(`input[name="${rule.name}"]`).checked;
      }
    }
    const level = this.form.querySelector("input[name=level]:checked");
    return { preset: name, level: level ? level.value : this.data.default_level, house_rules: house };
  }

  async submit() {
    const body = this.values();
    const error = this.form.querySelector("#new-error");
    const button = this.form.querySelector("#new-start");
    error.textContent = "";
    button.setAttribute("aria-disabled", "true");
    try {
      localStorage.setItem(LAST_KEY, JSON.stringify(body));
      await this.onStart(body);
    } catch (e) {
      error.textContent = e.message;
    } finally {
      button.removeAttribute("aria-disabled");
    }
  }

  focus() {
    this.select.focus();
  }
}
