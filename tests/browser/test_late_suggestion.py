"""The bid suggestion follows the turn to bid (the server sends the turn at once): the bid
pad moves to it when it comes, unless the person has already moved on the pad."""

from __future__ import annotations

from typing import Any

from tablekit import ServerProcess

PAD = """async ([moves, suggested]) => {
  const { BidPad } = await import("/js/bidpad.js");
  const pad = new BidPad(() => {});
  document.body.append(pad.root);
  const bids = ["nil", 1, 2, 3, 4, 5, 6];
  pad.render(bids, null, true);  // the turn, its suggestion not yet come
  const current = () => pad.root.querySelector('[tabindex="0"]').dataset.bid;
  const first = current();
  pad.root.querySelector('[tabindex="0"]').focus();
  for (const key of moves) {
    document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
  }
  const moved = current();
  pad.render(bids, suggested, false);  // the suggestion comes
  const after = current();
  const focused = document.activeElement.dataset.bid;
  pad.render(bids, suggested, false);  // the same state again (a sync)
  const again = current();
  pad.root.remove();
  return { first, moved, after, focused, again };
}"""


def test_the_pad_moves_to_a_suggestion_that_comes_late(page: Any,
                                                        server: ServerProcess) -> None:
    page.goto(server.url)
    got = page.evaluate(PAD, [[], 4])
    # without a suggestion the pad starts on the lowest number, never on nil
    assert got["first"] == "1"
    assert got["moved"] == "1"
    assert (got["after"], got["focused"], got["again"]) == ("4", "4", "4")


def test_the_pad_stays_where_the_person_moved_it(page: Any, server: ServerProcess) -> None:
    page.goto(server.url)
    got = page.evaluate(PAD, [["ArrowRight", "ArrowRight"], 5])
    assert (got["first"], got["moved"]) == ("1", "3")
    assert (got["after"], got["focused"], got["again"]) == ("3", "3", "3")
