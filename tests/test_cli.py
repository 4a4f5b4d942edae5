"""The ``boardroom`` command: migrate, export/replay, run (token handling), demo."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.config import Config, ConfigError, load_env_file, parse_env_file
from bot.demo import run_demo
from bot.runtime import Collector
from bot.storage import migration_files
from tests.app_support import fake_bot_module

SECRET = "MTIzNDU2Nzg5.secret-token-value.abcdef"


def test_migrate_creates_and_is_idempotent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "m.db"
    newest = migration_files()[-1].version
    assert cli.main(["migrate", "--db", str(db)]) == 0
    assert f"schema version {newest}" in capsys.readouterr().out
    assert cli.main(["migrate", "--db", str(db)]) == 0
    assert "nothing to do" in capsys.readouterr().out
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_migrate_refuses_a_newer_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "n.db"
    assert cli.main(["migrate", "--db", str(db)]) == 0
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO schema_version VALUES (500, 'future', 0)")
    conn.close()
    assert cli.main(["migrate", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "schema version 500" in err and "upgrade boardroom" in err


async def test_export_then_replay_prints_the_same_result(tmp_path: Path) -> None:
    db = tmp_path / "e.db"
    result = await run_demo(
        game="smartphone-inc", players=2, seed=5, db=db, renderer=None, echo=lambda _: None
    )
    env_cmd = [sys.executable, "-m", "bot.cli"]
    exported = subprocess.run(
        [*env_cmd, "export", "--db", str(db), "1"], capture_output=True, text=True, check=True
    )
    path = tmp_path / "game.json"
    path.write_text(exported.stdout)
    replayed = subprocess.run(
        [*env_cmd, "replay", str(path)], capture_output=True, text=True, check=True
    )
    assert json.loads(replayed.stdout) == result
    # tampered log -> refused
    data = json.loads(exported.stdout)
    data["seed"] = data["seed"] + 1
    path.write_text(json.dumps(data))
    bad = subprocess.run([*env_cmd, "replay", str(path)], capture_output=True, text=True)
    assert bad.returncode == 1 and "replay failed" in bad.stderr


def test_replay_of_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_run_without_a_token_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert cli.main(["run"]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err
    # the empty DISCORD_TOKEN= of .env.example is "not set" too
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\n")
    assert cli.main(["run"]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_the_installed_command_exits_2_without_a_token(tmp_path: Path) -> None:
    """What `make run` runs: a clear message on stderr and exit code 2 (make then fails)."""
    script = Path(sys.executable).parent / "boardroom"
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    out = subprocess.run([str(script), "run"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert out.returncode == 2
    assert out.stderr.startswith("boardroom: DISCORD_TOKEN is not set")
    assert "Traceback" not in out.stderr


def test_env_file_parsing() -> None:
    text = """
# a comment
export DISCORD_TOKEN="abc def"
BOARDROOM_DB = /data/x.db   # trailing comment
BOARDROOM_LOG_LEVEL='debug'
EMPTY=
"""
    assert parse_env_file(text) == {
        "DISCORD_TOKEN": "abc def",
        "BOARDROOM_DB": "/data/x.db",
        "BOARDROOM_LOG_LEVEL": "debug",
        "EMPTY": "",
    }
    with pytest.raises(ConfigError, match="line 2") as err:
        parse_env_file("A=1\nthis is MTIz-secret\n")
    assert "secret" not in str(err.value)


def test_env_file_sets_only_what_the_environment_lacks(tmp_path: Path) -> None:
    env = {"BOARDROOM_DB": "from-env.db"}
    assert load_env_file(tmp_path / ".env", env) == []  # no file: nothing
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={SECRET}\nBOARDROOM_DB=from-file.db\n")
    assert load_env_file(tmp_path / ".env", env) == ["DISCORD_TOKEN"]
    assert env == {"BOARDROOM_DB": "from-env.db", "DISCORD_TOKEN": SECRET}


def recording_bot(monkeypatch: pytest.MonkeyPatch, login_fails: bool = False) -> dict[str, Any]:
    """A stand-in Discord client for ``boardroom run``: what it was given is recorded in the
    dict returned (``token``, ``db_path``, and ``kw``: create_bot's other arguments);
    ``login_fails``: its run raises with the token in the message, as a failed login may."""
    calls: dict[str, Any] = {}

    class FakeClient:
        def run(self, token: str, **kw: object) -> None:
            calls["token"] = token
            if login_fails:
                raise RuntimeError(f"login failed for {token}")

    def create_bot(db_path: str, **kw: object) -> FakeClient:
        calls["db_path"] = db_path
        calls["kw"] = dict(kw)
        return FakeClient()

    fake_bot_module(monkeypatch, create_bot)
    return calls


def test_run_reads_the_token_from_dot_env(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    calls = recording_bot(monkeypatch)
    for name in ("DISCORD_TOKEN", "BOARDROOM_DB", "BOARDROOM_GUILD_ID", "BOARDROOM_LOG_LEVEL"):
        # unset, and restored afterwards: load_env_file writes to os.environ itself
        monkeypatch.setenv(name, "placeholder")
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={SECRET}\nBOARDROOM_DB=dot.db\n")
    caplog.set_level("INFO")
    assert cli.main(["run"]) == 0
    calls.pop("kw")
    assert calls == {"token": SECRET, "db_path": "dot.db"}
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err + caplog.text


def test_run_passes_the_token_and_never_prints_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    calls = recording_bot(monkeypatch, login_fails=True)
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    monkeypatch.setenv("BOARDROOM_DB", str(tmp_path / "bot.db"))
    monkeypatch.setenv("BOARDROOM_GUILD_ID", "42")
    assert cli.main(["run"]) == 1
    kw = calls.pop("kw")
    assert isinstance(kw.pop("collector"), Collector)  # the garbage collector, run from the loop
    assert calls == {"token": SECRET, "db_path": str(tmp_path / "bot.db")} and kw == {"sync_guild_id": 42}
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err + caplog.text
    assert "<token>" in captured.err


def test_config_hides_the_token() -> None:
    c = Config.from_env({"DISCORD_TOKEN": SECRET})
    assert c.db_path == "boardroom.db" and c.sync_guild_id is None
    assert SECRET not in repr(c) and SECRET not in str(c)
    with pytest.raises(ConfigError):
        Config.from_env({"DISCORD_TOKEN": "  "})
    with pytest.raises(ConfigError, match="GUILD"):
        Config.from_env({"DISCORD_TOKEN": SECRET, "BOARDROOM_GUILD_ID": "abc"})


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / "boardroom"
    out = subprocess.run([str(script), "--help"], capture_output=True, text=True, check=True)
    for command in ("migrate", "replay", "run", "demo"):
        assert command in out.stdout


def test_demo_rejects_bad_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--players", "9"]) == 2
    assert "between 1 and 5" in capsys.readouterr().err


async def test_cli_export_of_a_game_in_planning_holds_no_sealed_plan(tmp_path: Path) -> None:
    from bot.app import App
    from bot.storage import Storage

    db = tmp_path / "p.db"
    storage = await Storage.open(db)
    try:
        app = App(storage)
        info = await app.create_game("smartphone-inc", channel_id=1, host_id=1, host_name="Ann")
        await app.add_ai(info.id, 1, "bot")
        await app.start(info.id, 1, seed=3)  # the bot seals its plan at once; Ann plans
    finally:
        await storage.close()
    out = subprocess.run(
        [sys.executable, "-m", "bot.cli", "export", "--db", str(db), str(info.id)],
        capture_output=True, text=True, check=True,
    )
    data = json.loads(out.stdout)
    assert data["version"] == 1 and data["redacted"] == 1
    assert [a["action"] for a in data["actions"]] == [{"type": "plan", "hidden": True}]
