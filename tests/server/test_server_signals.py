"""How a server process takes the signals that stop it: Ctrl+C (SIGINT, to the terminal's
whole process group) and the supervisor's SIGTERM ask for the one graceful stop in either
order; only a second Ctrl+C quits at once, without the app's shutdown."""

from __future__ import annotations

import signal

import pytest

from spades.server.listen import Server, make_server


def server() -> tuple[Server, list[int]]:
    stops: list[int] = []
    made = make_server(object(), "127.0.0.1", 0)
    made.on_exit = lambda: stops.append(1)
    return made, stops


@pytest.mark.parametrize("order", [
    (signal.SIGINT,), (signal.SIGTERM,),
    (signal.SIGINT, signal.SIGTERM), (signal.SIGTERM, signal.SIGINT),
])
def test_a_ctrl_c_and_the_supervisors_sigterm_ask_for_a_graceful_stop(
        order: tuple[int, ...]) -> None:
    made, stops = server()
    for sig in order:
        made.handle_exit(sig, None)
    assert made.should_exit
    assert not made.force_exit, "a graceful stop runs the app's shutdown"
    assert len(stops) == len(order)


@pytest.mark.parametrize("order", [
    (signal.SIGINT, signal.SIGINT),
    (signal.SIGTERM, signal.SIGINT, signal.SIGINT),
    (signal.SIGINT, signal.SIGTERM, signal.SIGINT),
])
def test_a_second_ctrl_c_stops_at_once(order: tuple[int, ...]) -> None:
    made, _ = server()
    for sig in order:
        made.handle_exit(sig, None)
    assert made.should_exit and made.force_exit
