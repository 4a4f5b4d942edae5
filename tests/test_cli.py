"""The ``boardroom`` command: migrate, export/replay, run (token handling), demo."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import types
from pathlib import Path

import pytest

from bot import cli
from bot.config import Config, ConfigError
from bot.demo import run_demo
from bot.storage import migration_files

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


def test_run_without_a_token_exits_2(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert cli.main(["run"]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_run_passes_the_token_and_never_prints_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    calls: dict[str, object] = {}

    class FakeClient:
        def run(self, token: str, **kw: object) -> None:
            calls["token"] = token
            raise RuntimeError(f"login failed for {token}")

    def create_bot(db_path: str, **kw: object) -> FakeClient:
        calls["db_path"] = db_path
        calls.update(kw)
        return FakeClient()

    fake = types.ModuleType("bot.discord_bot")
    fake.create_bot = create_bot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.discord_bot", fake)
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    monkeypatch.setenv("BOARDROOM_DB", str(tmp_path / "bot.db"))
    monkeypatch.setenv("BOARDROOM_GUILD_ID", "42")
    assert cli.main(["run"]) == 1
    assert calls == {"token": SECRET, "db_path": str(tmp_path / "bot.db"), "sync_guild_id": 42}
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
