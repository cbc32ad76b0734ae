// The account window (loaded when first opened): an account is never needed; it adds cloud
// saves across devices. Sign up, sign in, forgot password, and once signed in: devices,
// download my games, sign out (here or everywhere), delete the account. After signing in
// with games made on this device, it asks once whether to move them into the account.
// Every refusal shows the server's own sentence; the server decides everything.

import { api, currentSession, HttpError, startSession } from "./net.js";

let dialog = null;
let body = null;
let view = "signin"; // the view shown when signed out: signin, signup, reset, newpass
let resetToken = null;
let notice = null; // said once at the top of the account view (a password just changed)

function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v == null) continue;
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c != null));
  return node;
}

function sentence(text) {
  if (!text) return "";
  const s = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

function said(error) {
  if (error instanceof HttpError && error.status === 0) return "The table's server cannot be reached; try again when it is back.";
  return sentence(error.message || "That did not work");
}

function field(label, attrs, hint) {
  const id = `acct-${attrs.name}-${Math.random().toString(36).slice(2, 8)}`;
  const input = h("input", { id, required: true, ...attrs });
  const parts = [h("label", { for: id, text: label }), input];
  if (hint) {
    const hintId = `${id}-hint`;
    input.setAttribute("aria-describedby", hintId);
    parts.push(h("p", { id: hintId, class: "hint", text: hint }));
  }
  return h("div", { class: "field" }, ...parts);
}

function button(text, onClick, attrs) {
  const b = h("button", { type: "button", text, ...attrs });
  b.addEventListener("click", onClick);
  return b;
}

/** A form whose submit runs ``action(values)``; a refusal is shown in its alert line and
 * nothing else changes. */
function form(title, fields, submit, action, extra) {
  const error = h("p", { class: "error", role: "alert" });
  const done = h("p", { class: "hint", role: "status" });
  const headingId = `acct-form-${Math.random().toString(36).slice(2, 8)}`;
  const heading = h("h3", { id: headingId, text: title, tabindex: "-1" });
  const go = h("button", { type: "submit", class: "primary", text: submit });
  const f = h("form", { class: "account-form", "aria-labelledby": headingId, novalidate: true }, heading, ...fields, error, done,
    h("div", { class: "form-actions" }, go, ...(extra || [])));
  f.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    done.textContent = "";
    const values = Object.fromEntries(new FormData(f));
    for (const input of f.querySelectorAll("input[required]")) {
      if (!input.value) {
        error.textContent = `${sentence(input.labels[0].textContent)} is needed.`;
        input.focus();
        return;
      }
    }
    go.disabled = true;
    try {
      const message = await action(values);
      if (message) done.textContent = message;
    } catch (e) {
      error.textContent = said(e);
      const first = f.querySelector("input[type=password]") || f.querySelector("input");
      if (first) first.focus();
    } finally {
      go.disabled = false;
    }
  });
  return f;
}

const EMAIL = (autocomplete) => field("Email", { name: "email", type: "email", autocomplete, inputmode: "email" });
const PASSWORD_HINT = "At least 10 characters, not a common password and not your email.";

function intro() {
  return h("p", { class: "hint", text: "You don't need an account: your games are saved on this table's server " +
    "automatically. An account adds cloud saves: sign in on another device and your games are there." });
}

function signedOut() {
  if (view === "signup") {
    return [intro(), form("Create an account", [EMAIL("username"),
      field("Password", { name: "password", type: "password", autocomplete: "new-password", minlength: "10" }, PASSWORD_HINT)],
    "Create account", async (v) => signedIn(await api.accountAction("signup", { email: v.email, password: v.password })),
    [button("I have an account", () => show("signin"))])];
  }
  if (view === "reset") {
    return [form("Forgot your password", [EMAIL("username")], "Send me a reset link", async (v) => {
      await api.accountAction("reset", { email: v.email });
      return "If an account has this email, a link to choose a new password is on its way. " +
        "(A server without email writes the link in its log, for whoever runs it.)";
    }, [button("Back to sign in", () => show("signin"))])];
  }
  if (view === "newpass") {
    return [form("Choose a new password", [
      field("New password", { name: "password", type: "password", autocomplete: "new-password", minlength: "10" }, PASSWORD_HINT)],
    "Set the password", async (v) => {
      const answer = await api.accountAction("reset/confirm", { token: resetToken, password: v.password });
      resetToken = null;
      view = "signin";
      // the server signs this device in with the new password (an older one only changed it)
      notice = currentSession().account ? "Your password is changed; you are signed in."
        : "Your password is changed: sign in with it.";
      if (currentSession().account) return signedIn(answer);
      render();
      return null;
    }, [button("Cancel", () => { resetToken = null; show("signin"); })])];
  }
  return [intro(), form("Sign in", [EMAIL("username"),
    field("Password", { name: "password", type: "password", autocomplete: "current-password" })],
  "Sign in", async (v) => signedIn(await api.accountAction("signin", { email: v.email, password: v.password })),
  [button("Create an account", () => show("signup")), button("Forgot your password?", () => show("reset"))])];
}

/** After signing in or up: ask once about this device's games, else show the account.
 * Signed out later (here or elsewhere), the window opens at "Sign in" again. */
function signedIn(answer) {
  view = "signin";
  const count = answer && answer.move_games ? Number(answer.move_games.count) : 0;
  if (count > 0) {
    askMove(count);
    return null;
  }
  render();
  return null;
}

function askMove(count) {
  const games = count === 1 ? "the game" : `the ${count} games`;
  const error = h("p", { class: "error", role: "alert" });
  const choose = (move) => async () => {
    error.textContent = "";
    try {
      await api.accountAction("move", { move });
      render();
    } catch (e) {
      error.textContent = said(e);
    }
  };
  const heading = h("h3", { text: "Games on this device", tabindex: "-1" });
  body.replaceChildren(h("section", { class: "account-move", "aria-labelledby": "acct-move-q" }, heading,
    h("p", { id: "acct-move-q", class: "question", text: `Move ${games} on this device into your account?` }),
    h("p", { class: "hint", text: "Moved, they are listed on every device you sign in on. Kept apart, they " +
      "stay with this device and come back when you sign out. You are asked this once." }),
    error,
    h("div", { class: "form-actions" },
      button("Move", choose(true), { class: "primary" }), button("Keep apart", choose(false)))));
  heading.focus();
}

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleString();
}

async function accountView() {
  const session = currentSession();
  const status = h("p", { class: "error", role: "alert" });
  const heading = h("h3", { text: `Signed in as ${session.account.email}`, tabindex: "-1" });
  const told = notice ? h("p", { class: "done", role: "status", text: notice }) : null;
  notice = null;
  const zip = h("a", { href: api.gamesZipUrl, download: "spades-games.zip", class: "button-link",
    text: "Download my games", "aria-label": "Download my games (a zip of game records)" });
  const act = (name, label) => button(label, async () => {
    status.textContent = "";
    try {
      await api.accountAction(name);
      view = "signin";
      render();
    } catch (e) {
      status.textContent = said(e);
    }
  });
  const devices = h("ul", { class: "devices", "aria-labelledby": "acct-devices" }, h("li", { class: "hint", text: "Loading…" }));
  const part = h("div", { class: "account" }, heading, told,
    h("p", { class: "hint", text: "Your games are saved in your account: every device signed in lists them." }),
    h("div", { class: "form-actions" }, zip, act("signout", "Sign out"), act("signout-everywhere", "Sign out everywhere")),
    status,
    h("h3", { id: "acct-devices", text: "Devices signed in" }), devices,
    form("Delete the account", [field("Your password, to confirm", { name: "password", type: "password",
      autocomplete: "current-password" }, "This deletes the account and every game in it, for good.")],
    "Delete my account and its games", async (v) => {
      await api.accountAction("delete", { password: v.password });
      view = "signin";
      render();
      return null;
    }));
  body.replaceChildren(part);
  heading.focus();
  try {
    const data = await api.account();
    devices.replaceChildren(...(data.devices || []).map((d) => h("li", null,
      h("span", { text: d.label || "A device" }),
      d.this_device ? h("strong", { text: " (this device)" }) : null,
      d.last_seen ? ` — last seen ${when(d.last_seen)}` : "")));
    if (!devices.children.length) devices.append(h("li", { class: "hint", text: "Only this one." }));
  } catch (e) {
    devices.replaceChildren(h("li", { class: "error", text: said(e) }));
  }
}

function show(name) {
  view = name;
  render();
}

function render() {
  if (currentSession().account) {
    accountView();
    return;
  }
  const told = notice ? h("p", { class: "done", role: "status", text: notice }) : null;
  notice = null;
  body.replaceChildren(...(told ? [told] : []), ...signedOut());
  const first = body.querySelector("h3");
  if (first) first.focus();
}

/** Open the account window (``opener`` gets focus back when it closes); ``token``: a
 * password reset link's, to choose a new password; ``signIn``: at "Sign in" (the table
 * was signed out), whatever the window showed last. */
export async function openAccount(opener, token, { signIn = false } = {}) {
  if (!dialog) {
    // the window's style sheet, added once: the page opens without it
    const css = h("link", { rel: "stylesheet", href: new URL("../css/account.css", import.meta.url).href });
    document.head.append(css);
  }
  dialog = document.getElementById("dlg-account");
  body = document.getElementById("account-body");
  if (token) {
    resetToken = token;
    view = "newpass";
  } else if (signIn) {
    view = "signin";
  }
  for (const d of document.querySelectorAll("dialog[open]")) if (d !== dialog) d.close();
  if (!dialog.open) dialog.showModal();
  dialog.addEventListener("close", () => opener && opener.focus(), { once: true });
  body.replaceChildren(h("p", { class: "hint", role: "status", text: "Loading…" }));
  try {
    await startSession();
  } catch (e) {
    body.replaceChildren(h("p", { class: "error", role: "alert", text: said(e) }));
    return;
  }
  render();
}
