// One tab stop per group (the hand, the bid pad, a row of choices): Left/Right, Home/End
// move inside it, Tab leaves it. The group remembers which item was current.

const groups = new WeakMap();

function items(group) {
  return [...group.querySelectorAll("[data-rove]")];
}

/** Make ``item`` the group's tab stop (and focus it when ``focus``). */
export function setCurrent(group, item, focus = false) {
  for (const el of items(group)) el.tabIndex = el === item ? 0 : -1;
  groups.set(group, item && item.dataset.key);
  if (focus && item) item.focus();
}

/** After the group's items were rebuilt: keep the remembered item current, else the first
 * preferred one (``prefer`` picks, e.g. a playable card; with ``strict`` also when the
 * remembered one is not preferred), else the first. */
export function restore(group, prefer, strict = false) {
  const all = items(group);
  if (!all.length) return;
  const key = groups.get(group);
  const hadFocus = group.dataset.hadFocus === "1";
  let item = all.find((el) => el.dataset.key === key);
  if (prefer && (!item || (strict && !prefer(item)))) item = all.find(prefer) || item;
  setCurrent(group, item || all[0], hadFocus);
  group.dataset.hadFocus = "";
}

/** Call before rebuilding a group's items, so that focus comes back to it afterwards. */
export function remember(group) {
  group.dataset.hadFocus = group.contains(document.activeElement) ? "1" : "";
}

export function makeRoving(group) {
  group.addEventListener("keydown", (event) => {
    const all = items(group);
    const at = all.indexOf(document.activeElement);
    if (at < 0) return;
    let next = -1;
    if (event.key === "ArrowRight") next = Math.min(at + 1, all.length - 1);
    else if (event.key === "ArrowLeft") next = Math.max(at - 1, 0);
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = all.length - 1;
    if (next < 0) return;
    event.preventDefault();
    setCurrent(group, all[next], true);
  });
  group.addEventListener("focusin", (event) => {
    const item = event.target.closest("[data-rove]");
    if (item && group.contains(item)) setCurrent(group, item);
  });
}
