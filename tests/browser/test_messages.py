"""Message texts on the table (issue 12 items 5 and 7): why the game ended, from the server's
reason; a stale intent said in a player's words, and the table shown as it is now."""

from __future__ import annotations

from typing import Any

import pytest
from tablekit import ServerProcess, Table

#: Keeps the page's websockets within reach, to send what a second tab would have sent.
KEEP_SOCKETS = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = function (...args) {
    const ws = new Real(...args);
    window.__sockets.push(ws);
    return ws;
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
})();
"""


def test_a_stale_intent_is_said_in_a_players_words(page: Any, server: ServerProcess) -> None:
    page.add_init_script(KEEP_SOCKETS)
    table = Table(page, server.url)
    table.start(level="easy")
    while table.wait_decision() != "bid":
        table.act_with_mouse()
    table.act_with_mouse()  # the bid: the table moves on
    while table.wait_decision() != "play":
        table.act_with_mouse()
    now = table.synced()["version"]
    # what a tab left behind sends: an intent from an older version of the table
    page.evaluate("""v => {
      const ws = window.__sockets.filter((s) => s.readyState === 1).pop();
      ws.send(JSON.stringify({type: "act", version: v, action: {bid: 3}}));
    }""", now - 1)
    table.wait_frames(lambda frames: any(f["type"] == "error" for f in frames), "the refusal")
    error = table.errors()[-1]
    assert error["code"] == "stale"
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    text = toast.inner_text()
    assert text == "The table had moved on; here it is now."
    assert "version" not in text and str(now) not in text
    # the view is the table as it is now, and it still plays
    assert table.synced()["version"] == now
    assert table.act_with_mouse() == "play"


@pytest.mark.parametrize("reason,words", [
    ("boston", "Boston"), ("moon", "moon"), ("mercy", "mercy rule"),
    ("target", "reached the target of 500"),
])
def test_the_end_of_game_says_the_servers_reason(
        page: Any, server: ServerProcess, reason: str, words: str) -> None:
    page.goto(server.url)
    scores = {"mercy": [-47, -330], "target": [510, 200]}.get(reason, [350, 120])
    text = page.evaluate("""async ([reason, scores]) => {
      const { endReason } = await import("./js/dialogs.js");
      const v = {sides: [[0, 2], [1, 3]], scores, winner: 0,
                 rules: {target_score: 500, losing_score: -200}};
      return endReason(v, ["You", "Bramble", "Juniper", "Clover"], reason);
    }""", [reason, scores])
    assert words in text, text
