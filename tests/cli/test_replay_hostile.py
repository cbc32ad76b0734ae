"""`spades replay` on records built to hurt: each is refused with exit code 2 and a message
(never a traceback), a huge file is refused unread, and nothing in a record can drive the
terminal (escape sequences in names or in what an error message quotes)."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spades.cli.main import main
from spades.cli.replay import MAX_NAME, MAX_RECORD_BYTES
from spades.engine import apply, find_preset, legal_actions, new_game, record_of

# What a terminal obeys: OSC (set the window title, ends with BEL), CSI (clear the screen),
# the 8-bit CSI, and a right-to-left override that reorders what follows it.
HOSTILE = ("\x1b]0;owned\x07", "\x1b[2J", "\x9b2J", "\u202e")
CONTROL = ("\x1b", "\x07", "\x9b", "\u202e")


def spades(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "spades.cli.main", *args], input=stdin,
                          capture_output=True, timeout=60)


def a_record(actions: int = 60, players: list[str] | None = None) -> dict[str, Any]:
    """A real partnership record: the first ``actions`` actions of a random game."""
    state = new_game(find_preset("partnership"), seed=3)
    rng = random.Random(3)
    for _ in range(actions):
        state = apply(state, rng.choice(legal_actions(state)))
    return record_of(state, players or ["North", "East", "South", "West"])


def assert_refused(result: subprocess.CompletedProcess[bytes], *words: str) -> str:
    err = result.stderr.decode()
    assert result.returncode == 2, err
    assert "Traceback" not in err
    assert result.stdout == b""
    assert err.startswith("spades replay: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err
    return err


def test_a_record_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    text = json.dumps(a_record(players=["Zoë", "Bob", "Ann", "Al"]), ensure_ascii=False)
    path.write_bytes(text.encode("latin-1"))
    assert_refused(spades("replay", str(path)), "not UTF-8", "0xeb")


def test_a_utf8_record_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    text = json.dumps(a_record(players=["Zoë", "Bob", "Ann", "Al"]), ensure_ascii=False)
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    result = spades("replay", str(path))
    assert result.returncode == 0, result.stderr.decode()
    assert "Zoë & Ann" in result.stdout.decode()


def test_json_nested_100000_deep() -> None:
    for deep in ("[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000):
        assert_refused(spades("replay", "-", stdin=deep.encode()), "nested too deeply")


def test_an_integer_over_4300_digits() -> None:
    data = json.dumps(a_record()).replace('"first_dealer": ', '"first_dealer": ' + "9" * 5000)
    assert "9" * 5000 in data
    assert_refused(spades("replay", "-", stdin=data.encode()), "integer longer than 4300 digits")


def test_nan_and_infinity_are_not_json_numbers() -> None:
    for constant in ("NaN", "Infinity", "-Infinity"):
        data = re.sub(r'"first_dealer": \d+', f'"first_dealer": {constant}',
                      json.dumps(a_record()))
        assert constant in data
        err = assert_refused(spades("replay", "-", stdin=data.encode()), "not a JSON number")
        assert "is not JSON" not in err


def test_a_record_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    """The limit is stated, and a 256 MB file is not read: the process stays small (before
    the limit it read the whole file, and a 68 MB record took 1 GB)."""
    big = tmp_path / "big.json"
    with big.open("wb") as file:  # sparse: no disk used
        file.truncate(256 * 1024 * 1024)
    # the process's own peak (VmHWM, kB): ru_maxrss would include the pytest worker's memory,
    # which a child started by vfork and exec inherits in its count
    peak = ("import sys; from spades.cli.main import main; code = main(sys.argv[1:]); "
            "print(next(line.split()[1] for line in open('/proc/self/status') "
            "if line.startswith('VmHWM')), file=sys.stderr); sys.exit(code)")
    result = subprocess.run([sys.executable, "-c", peak, "replay", str(big)],
                            capture_output=True, timeout=60)
    message, rss_kb = result.stderr.decode().rsplit("\n", 2)[:2]
    assert result.returncode == 2, message
    assert "larger than 8 MB" in message and "Traceback" not in message
    assert int(rss_kb) < 200 * 1024, f"peak RSS {int(rss_kb) // 1024} MB"


def test_the_limit_holds_on_standard_input_and_is_generous() -> None:
    record = json.dumps(a_record(actions=400)).encode()
    assert len(record) * 100 < MAX_RECORD_BYTES  # many whole games fit under the limit
    padded = record + b" " * (MAX_RECORD_BYTES - len(record))
    assert spades("replay", "-", stdin=padded).returncode == 0
    assert_refused(spades("replay", "-", stdin=padded + b" "), "larger than 8 MB")


def test_names_cannot_drive_the_terminal(tmp_path: Path) -> None:
    names = [f"Ann{HOSTILE[0]}", f"Bob{HOSTILE[1]}", f"Cy{HOSTILE[2]}", f"Di{HOSTILE[3]}"]
    path = tmp_path / "names.json"
    path.write_text(json.dumps(a_record(players=names)))
    result = spades("replay", str(path))
    out = result.stdout.decode()
    assert result.returncode == 0, result.stderr.decode()
    assert "Hand 1 " in out
    for code in CONTROL:
        assert code not in out
    # the names are still there, with their escapes shown
    assert "Ann\\x1b]0;owned\\x07 & Cy\\x9b2J" in out
    assert "Bob\\x1b[2J & Di\\u202e" in out


def test_a_lone_surrogate_in_a_name_is_shown_not_a_crash(tmp_path: Path) -> None:
    """JSON may carry "\\ud800", which no terminal encoding can print as it is."""
    path = tmp_path / "surrogate.json"
    path.write_text(json.dumps(a_record(players=["A\ud800", "B", "C", "D"])))
    result = spades("replay", str(path))
    assert result.returncode == 0, result.stderr.decode()
    assert "A\\ud800 & C" in result.stdout.decode()


def test_a_huge_name_is_cut_short(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text(json.dumps(a_record(actions=200, players=["N" * 100_000, "E", "S", "W"])))
    result = spades("replay", str(path))
    assert result.returncode == 0, result.stderr.decode()
    out = result.stdout.decode()
    assert "N" * (MAX_NAME - 3) + "..." in out and "N" * MAX_NAME not in out
    assert len(out) < 10_000


def test_error_messages_cannot_drive_the_terminal(tmp_path: Path) -> None:
    data = a_record()
    data["\x1b[2J" + "x" * 100_000] = 1  # an unknown field, quoted in the message
    data["hands"][0]["actions"][5] = {"seat": 1, "play": "\x1b]0;owned\x07"}
    path = tmp_path / "\x1b[2J.json"
    path.write_text(json.dumps(data))
    err = assert_refused(spades("replay", str(path)), "unknown field")
    for code in CONTROL:
        assert code not in err
    assert len(err) < 1000
    del data["\x1b[2J" + "x" * 100_000]
    path.write_text(json.dumps(data))
    err = assert_refused(spades("replay", str(path)), "hand 1, action 6")
    for code in CONTROL:
        assert code not in err


def _mutate(data: Any, rng: random.Random, value: Any) -> Any:
    """``data`` with one node, chosen by ``rng``, replaced by ``value``."""
    if isinstance(data, dict) and data and rng.random() < 0.8:
        key = rng.choice(sorted(data))
        return {**data, key: _mutate(data[key], rng, value)}
    if isinstance(data, list) and data and rng.random() < 0.8:
        i = rng.randrange(len(data))
        return [*data[:i], _mutate(data[i], rng, value), *data[i + 1:]]
    return value


JSON = st.recursive(st.none() | st.booleans() | st.integers(-(10**40), 10**40)
                    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)
                    | st.sampled_from(["AS", "2C", "nil", "blind-nil", "keep", "BJ", "house"]),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), value=JSON)
def test_any_damaged_record_exits_0_or_2_without_a_traceback(seed: int, value: Any) -> None:
    """Whatever node of a real record is replaced by whatever JSON, replay prints a sheet or
    refuses with a message: no exception escapes."""
    data = _mutate(BASE, random.Random(seed), value)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        path.write_text(json.dumps(data))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["replay", str(path)])
    assert code in (0, 2), err.getvalue()
    assert (code == 2) == bool(err.getvalue()), err.getvalue()


BASE = a_record(actions=80)
