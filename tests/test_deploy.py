"""The Dockerfile and the example configuration, checked by reading them (Docker
does not run on the test machines): slim Python 3.11+ base, the runtime lock's
dependencies only, a non-root user, the database on the /data volume, ``boardroom run``."""

from __future__ import annotations

import json
import posixpath
import re
import shlex
import tomllib
from pathlib import Path

import pytest
import yaml

from bot.config import parse_shard_ids, parse_shards

ROOT = Path(__file__).resolve().parent.parent


def instructions(text: str) -> list[tuple[str, str]]:
    """(KEYWORD, arguments) of a Dockerfile: comments dropped, continuations joined."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):
            continue  # a comment inside a continued instruction
        if line.endswith("\\"):
            pending += line[:-1].rstrip() + " "
            continue
        full = (pending + line).strip()
        pending = ""
        if full:
            keyword, _, args = full.partition(" ")
            out.append((keyword.upper(), args.strip()))
    assert not pending, "the Dockerfile ends inside a continued line"
    return out


def env_of(args: str) -> dict[str, str]:
    pairs = {}
    for word in shlex.split(args):
        name, sep, value = word.partition("=")
        assert sep, f"use ENV NAME=value (got {word!r})"
        pairs[name] = value
    return pairs


@pytest.fixture(scope="module")
def docker() -> list[tuple[str, str]]:
    return instructions((ROOT / "Dockerfile").read_text(encoding="utf-8"))


def test_parser_joins_continuations() -> None:
    got = instructions("# c\nFROM x\nRUN a \\\n  # inside\n  && b\nCMD [\"y\"]\n")
    assert got == [("FROM", "x"), ("RUN", "a && b"), ("CMD", '["y"]')]


def test_base_image_is_slim_python_3_11_or_newer(docker: list[tuple[str, str]]) -> None:
    froms = [args for kw, args in docker if kw == "FROM"]
    assert froms, "no FROM"
    image = froms[-1].split()[0]  # the final stage
    m = re.fullmatch(r"(?:docker\.io/(?:library/)?)?python:(\d+)\.(\d+)(?:\.\d+)?-slim(?:-\w+)?(?:@sha256:[0-9a-f]+)?", image)
    assert m, f"base image {image!r} is not python:3.X-slim"
    assert (int(m.group(1)), int(m.group(2))) >= (3, 11)


def test_runs_as_a_user_who_is_not_root(docker: list[tuple[str, str]]) -> None:
    users = [(i, args) for i, (kw, args) in enumerate(docker) if kw == "USER"]
    assert users, "no USER: the bot would run as root"
    last_index, last = users[-1]
    assert last.split(":")[0] not in ("root", "0")
    cmd_index = max(i for i, (kw, _) in enumerate(docker) if kw == "CMD")
    assert last_index < cmd_index
    created = " ".join(args for kw, args in docker if kw == "RUN")
    assert re.search(rf"(useradd|adduser)\b.*\b{re.escape(last.split(':')[0])}\b", created), "the user is created"


def test_installs_the_runtime_lock_then_the_package_alone(docker: list[tuple[str, str]]) -> None:
    """The image's dependencies are the lock's (requirements/runtime.txt, hashes checked),
    never the dev set; then boardroom itself without dependencies, not editable."""
    installs = [(i, args) for i, (kw, args) in enumerate(docker) if kw == "RUN" and "pip install" in args]
    assert installs, "no pip install"
    commands = [cmd.strip() for _, args in installs for cmd in re.split(r"&&|;", args)
                if "pip install" in cmd]
    lock_installs = [c for c in commands if re.search(r"\s-r\s", c)]
    assert lock_installs == ["pip install --require-hashes -r requirements/runtime.txt"], commands
    package_installs = [c for c in commands if c not in lock_installs]
    assert len(package_installs) == 1, commands
    assert re.fullmatch(r"pip install (--\S+ )*\.", package_installs[0]), package_installs
    assert "--no-deps" in package_installs[0].split()  # nothing from outside the lock
    for c in commands:
        assert "[dev]" not in c and " -e " not in c and "dev.txt" not in c, c
    # the lock is copied before it is installed, and installed before the package
    lock_run = next(i for i, args in installs if "requirements/runtime.txt" in args)
    package_run = next(i for i, args in installs if re.search(r"pip install (--\S+ )*\.(\s|$)", args))
    copies = [i for i, (kw, args) in enumerate(docker)
              if kw == "COPY" and "requirements/runtime.txt" in shlex.split(args)[:-1]]
    assert copies and copies[0] < lock_run <= package_run
    assert (ROOT / "requirements" / "runtime.txt").is_file()
    dockerignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert not {"requirements", "requirements/", "*.txt"} & set(dockerignore)
    # every package the project installs is copied into the build
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = " ".join(args for kw, args in docker if kw in ("COPY", "ADD"))
    for name in packages | {"pyproject.toml"}:
        assert re.search(rf"(^|\s)(\./)?{re.escape(name)}(\s|/)", copied), f"{name} is not copied"


def test_database_on_the_data_volume(docker: list[tuple[str, str]]) -> None:
    env: dict[str, str] = {}
    for kw, args in docker:
        if kw == "ENV":
            env.update(env_of(args))
    assert env.get("BOARDROOM_DB") == "/data/boardroom.db"
    volumes: list[str] = []
    for kw, args in docker:
        if kw == "VOLUME":
            volumes += json.loads(args) if args.startswith("[") else args.split()
    assert "/data" in volumes
    # the migrations are not installed with the package: the image points at a copy
    migrations = env.get("BOARDROOM_MIGRATIONS")
    assert migrations, "BOARDROOM_MIGRATIONS is not set"
    workdir, copied_to = "/", []
    for kw, args in docker:
        if kw == "WORKDIR":
            workdir = posixpath.join(workdir, args)
        elif kw == "COPY" and "migrations" in shlex.split(args)[:-1]:
            copied_to.append(posixpath.normpath(posixpath.join(workdir, shlex.split(args)[-1])))
    assert posixpath.normpath(migrations) in copied_to, (migrations, copied_to)
    assert not (ROOT / "migrations").is_dir() or any((ROOT / "migrations").glob("*.sql"))


def test_command_is_boardroom_run(docker: list[tuple[str, str]]) -> None:
    cmds = [args for kw, args in docker if kw == "CMD"]
    assert cmds and json.loads(cmds[-1]) == ["boardroom", "run"]  # exec form: signals reach the bot
    assert not [kw for kw, _ in docker if kw == "ENTRYPOINT"]
    # PID 1 ignores SIGTERM without a handler; SIGINT is Ctrl-C: a clean shutdown
    assert [args for kw, args in docker if kw == "STOPSIGNAL"] == ["SIGINT"]


def test_secrets_stay_out_of_git_and_the_image(docker: list[tuple[str, str]]) -> None:
    gitignore = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert ".env" in gitignore
    dockerignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert ".env" in dockerignore and ".venv" in dockerignore
    # the token comes at run time (-e / --env-file), never baked into a layer
    for kw, args in docker:
        assert not (kw in ("ENV", "ARG") and "DISCORD_TOKEN" in args), f"{kw} {args}"
        assert not (kw in ("COPY", "ADD") and ".env" in shlex.split(args)), f"{kw} {args}"


def test_env_example_lists_the_settings_with_an_empty_token() -> None:
    from bot.config import parse_env_file

    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    values = parse_env_file(text)
    assert values.get("DISCORD_TOKEN") == ""  # never a real token in the repository
    assert "BOARDROOM_DB" in text and "BOARDROOM_LOG_LEVEL" in text


def test_compose_runs_the_bot_on_postgresql_with_every_shard_once() -> None:
    """compose.yaml (issue 37): PostgreSQL with a health check, and bot processes that
    wait for it, share its database and run each shard exactly once between them."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    db = services["db"]
    assert str(db["image"]).startswith("postgres:") and "pg_isready" in " ".join(db["healthcheck"]["test"])
    bots = {name: s for name, s in services.items() if name != "db"}
    assert len(bots) >= 2
    shards: list[int] = []
    counts = set()
    for s in bots.values():
        assert s["depends_on"]["db"]["condition"] == "service_healthy"
        env = s["environment"]
        assert env["BOARDROOM_DB"].startswith("postgresql://") and "@db:5432/" in env["BOARDROOM_DB"]
        count = parse_shards(env["BOARDROOM_SHARDS"])
        counts.add(count)
        shards += parse_shard_ids(env["BOARDROOM_SHARD_IDS"], count) or []
    [count] = counts
    assert sorted(shards) == list(range(int(count)))
