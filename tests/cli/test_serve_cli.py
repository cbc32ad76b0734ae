"""`spades serve` configured by flags and environment variables (flags win), and a real
server answering only to its host names (docs/self-hosting.md)."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from spades.cli.main import build_parser, main
from spades.cli.serve import ENVIRONMENT, configure

ROOT = Path(__file__).resolve().parents[2]


def parsed(*argv: str, **environ: str) -> tuple[argparse.Namespace, str | None]:
    args = build_parser().parse_args(["serve", *argv])
    return args, configure(args, environ)


def test_every_flag_has_an_environment_variable_and_help_names_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    text = capsys.readouterr().out
    flags = [a for a in build_parser()._subparsers._group_actions[0]  # type: ignore[union-attr]
             .choices["serve"]._actions if a.dest != "help"]
    assert {a.dest for a in flags} == set(ENVIRONMENT)
    for variable in ENVIRONMENT.values():
        assert f"[{variable}]" in " ".join(text.split()), variable
    for variable in ("SPADES_DB", "SPADES_HOST", "SPADES_PORT", "SPADES_ALLOWED_HOSTS",
                     "SPADES_PER_ADDRESS", "SPADES_TRUSTED_PROXY"):
        assert variable in ENVIRONMENT.values()


def test_without_flags_or_environment_the_defaults_hold() -> None:
    args, problem = parsed()
    assert problem is None
    assert (args.host, args.port, args.db, args.pace, args.workers) == (
        "127.0.0.1", 8000, None, 0.6, None)
    assert args.allowed_host == [] and args.trusted_proxy == []
    assert args.per_address is None and args.head_timeout is None


def test_the_environment_sets_what_no_flag_gives() -> None:
    args, problem = parsed(
        SPADES_HOST="0.0.0.0", SPADES_PORT="8123", SPADES_DB="sqlite:///x.db",
        SPADES_PACE="0.1", SPADES_WORKERS="2", SPADES_PER_ADDRESS="500",
        SPADES_HEAD_TIMEOUT="4.5", SPADES_ALLOWED_HOSTS="cards.lan, table.example.org",
        SPADES_TRUSTED_PROXY="127.0.0.1,10.0.0.0/8")
    assert problem is None
    assert (args.host, args.port, args.db, args.pace, args.workers, args.per_address,
            args.head_timeout) == ("0.0.0.0", 8123, "sqlite:///x.db", 0.1, 2, 500, 4.5)
    assert args.allowed_host == ["cards.lan", "table.example.org"]
    assert args.trusted_proxy == ["127.0.0.1", "10.0.0.0/8"]


def test_flags_win_over_the_environment() -> None:
    args, problem = parsed(
        "--port", "9000", "--allowed-host", "a.lan", "--allowed-host", "b.lan,c.lan",
        "--trusted-proxy", "::1", "--pace", "0",
        SPADES_PORT="8123", SPADES_ALLOWED_HOSTS="env.lan", SPADES_TRUSTED_PROXY="10.0.0.1",
        SPADES_PACE="3")
    assert problem is None
    assert args.port == 9000 and args.pace == 0.0
    assert args.allowed_host == ["a.lan", "b.lan", "c.lan"]
    assert args.trusted_proxy == ["::1"]


@pytest.mark.parametrize("variable, value, words", [
    ("SPADES_PORT", "eighty", "SPADES_PORT (for --port) should be a whole number: 'eighty'"),
    ("SPADES_PACE", "fast", "SPADES_PACE (for --pace) should be a number of seconds"),
    ("SPADES_PER_ADDRESS", "1.5", "SPADES_PER_ADDRESS (for --per-address) should be a whole"),
    ("SPADES_PORT", "70000", "--port should be between 0 and 65535"),
    ("SPADES_TRUSTED_PROXY", "proxy.lan", "--trusted-proxy takes IP addresses or networks"),
])
def test_a_bad_environment_value_is_named_with_what_it_should_be(
        variable: str, value: str, words: str) -> None:
    _, problem = parsed(**{variable: value})
    assert problem is not None and words in problem


def test_a_bad_value_exits_2_with_the_message_before_serving(tmp_path: Path) -> None:
    env = {**os.environ, "SPADES_PORT": "eighty", "SPADES_DB": f"sqlite:///{tmp_path}/g.db"}
    done = subprocess.run([sys.executable, "-m", "spades.cli.main", "serve"], env=env,
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2
    assert "SPADES_PORT (for --port) should be a whole number" in done.stderr
    assert not (tmp_path / "g.db").exists()  # nothing was created


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str, host: str) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.mark.timeout(120)
def test_a_server_configured_by_the_environment_answers_only_to_its_names(
        tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "SPADES_PORT": str(port),
           "SPADES_DB": f"sqlite:///{tmp_path / 'games.db'}", "SPADES_WORKERS": "0",
           "SPADES_ALLOWED_HOSTS": "cards.lan,Table.Example.org"}
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "spades.cli.main", "serve"], env=env,
                                stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        url = f"http://127.0.0.1:{port}/api/health"
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                status, body = get(url, f"127.0.0.1:{port}")
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        assert status == 200 and '"ok":true' in body
        for host in (f"localhost:{port}", f"[::1]:{port}", "cards.lan", f"cards.lan:{port}",
                     "table.example.org"):
            assert get(url, host)[0] == 200, host
        for host in ("rebind.attacker.example", f"cards.lan.attacker.example:{port}"):
            status, body = get(url, host)
            assert status == 400 and "does not answer to that host name" in body
            assert "attacker" not in body
        assert (tmp_path / "games.db").exists()
    finally:
        proc.terminate()
        proc.wait(15)


def test_every_flag_is_in_the_table_of_docs_self_hosting() -> None:
    text = (ROOT / "docs" / "self-hosting.md").read_text(encoding="utf-8")
    table = [line for line in text.splitlines() if line.startswith("| `--")]
    for dest, variable in ENVIRONMENT.items():
        assert any(f"| `{variable}` |" in row for row in table), (dest, variable)


def test_the_limits_are_flags_and_environment_variables() -> None:
    from spades.cli.serve import account_settings

    args, problem = parsed("--signup-limit", "2/minute", "--unfinished-games", "7",
                           SPADES_GAMES_LIMIT="4/minute;30/hour", SPADES_HASH_WORKERS="3",
                           SPADES_SIGNIN_DELAY="0.5", SPADES_DEVICE_SECRET="s3cret",
                           SPADES_RESET_LIMIT_ADDRESS="20/hour")
    assert problem is None
    settings = account_settings(args, "127.0.0.1")
    assert isinstance(settings, dict)
    accounts, games = settings["account_limits"], settings["game_limits"]
    assert (accounts.signups_per_address, accounts.hash_workers, accounts.slow_delay) == (
        "2/minute", 3, 0.5)
    assert accounts.signups_in_all == "30/minute"  # not given: the default
    assert (accounts.resets_per_email, accounts.resets_per_address) == ("3/hour", "20/hour")
    assert (games.per_player, games.unfinished) == ("4/minute;30/hour", 7)
    assert settings["device_secret"] == "s3cret"
    _, problem = parsed(SPADES_GAMES_LIMIT="lots")
    assert problem is not None and "SPADES_GAMES_LIMIT (for --games-limit) should be a rate" \
        in problem
    args, problem = parsed("--hash-workers", "0")
    assert problem is None and "at least 1" in str(account_settings(args, "127.0.0.1"))


def test_several_processes_need_postgresql_and_redis(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    assert main(["serve", "--db", db, "--port", "0", "--processes", "2"]) == 2
    said = capsys.readouterr().err
    assert "--processes 2 needs PostgreSQL (--db postgresql+psycopg://...) and Redis" in said
    assert not (tmp_path / "games.db").exists()  # refused before the store was touched
    assert main(["serve", "--db", db, "--port", "0", "--processes", "3", "--redis",
                 "redis://127.0.0.1:1/0"]) == 2
    said = capsys.readouterr().err
    assert "needs PostgreSQL" in said and "Redis (--redis" not in said
    assert main(["serve", "--db", db, "--port", "0", "--processes", "0"]) == 2
    assert "--processes must be at least 1" in capsys.readouterr().err


def test_workers_are_shared_out_among_the_processes() -> None:
    from spades.cli.serve import workers_of

    cores = os.cpu_count() or 1
    assert workers_of(argparse.Namespace(workers=None, processes=1)) is None
    assert workers_of(argparse.Namespace(workers=3, processes=2)) == 3
    assert workers_of(argparse.Namespace(workers=None, processes=2)) == max(1, cores // 2)
    assert workers_of(argparse.Namespace(workers=None, processes=4 * cores)) == 1


def test_each_of_several_processes_on_one_port_allows_its_share_of_the_caps() -> None:
    from spades.cli.processes import listening

    def guard(processes: int, **given: Any) -> Any:
        args = argparse.Namespace(**{"per_address": None, "head_timeout": None,
                                     "refusals": None, "processes": processes,
                                     "host": "127.0.0.1", "port": 0, "trusted_proxy": [],
                                     **given})
        return listening(object(), args).config.http.guard

    alone, shared = guard(1), guard(2)
    assert (alone.per_address, alone.refusals) == (50, 20)
    assert (shared.per_address, shared.refusals) == (25, 10)
    three = guard(3, per_address=100, refusals=0)
    assert (three.per_address, three.refusals) == (34, 0)  # 0: no cap, on each
