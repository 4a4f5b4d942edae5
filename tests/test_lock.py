"""The lock (requirements/*.txt, written by ``make lock``) and pyproject.toml agree, the
lock asks nothing of this machine, and make installs from it.

pyproject.toml keeps ranges for people who install boardroom as a package; the lock
pins the exact versions, with hashes, that make, CI and the image install. A
dependency added to one and not the other, or a pin outside pyproject's range, fails
here: run ``make lock``.
"""

from __future__ import annotations

import copy
import re
import tomllib
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
REQ = ROOT / "requirements"
FROM_PROJECT = "boardroom (pyproject.toml)"
FROM_BUILD = "boardroom (pyproject.toml::build-system.requires)"


@dataclass
class Pin:
    version: str
    hashes: list[str] = field(default_factory=list)
    via: list[str] = field(default_factory=list)


@dataclass
class Lock:
    pins: dict[str, Pin]
    options: list[str]  # any line that is not a pin, a hash or a comment (--find-links, -e, ...)


PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def parse_lock(text: str) -> Lock:
    pins: dict[str, Pin] = {}
    options: list[str] = []
    current: Pin | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        m = PIN.match(raw)
        if m:
            current = pins[canonicalize_name(m.group(1))] = Pin(m.group(2))
        elif line.startswith("--hash=") and current is not None and raw[0].isspace():
            current.hashes.append(line.removeprefix("--hash=").rstrip("\\ "))
        elif line.startswith("# via") and current is not None and raw[0].isspace():
            rest = line.removeprefix("# via").strip()
            if rest:
                current.via.append(rest)
        elif line.startswith("#   ") and current is not None and raw[0].isspace():
            current.via.append(line.removeprefix("#").strip())
        elif not line.startswith("#"):
            options.append(line)
    return Lock(pins, options)


def lock(name: str) -> Lock:
    return parse_lock((REQ / f"{name}.txt").read_text(encoding="utf-8"))


def project() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def disagreements(pyproject: dict[str, Any], locked: Lock, extras: tuple[str, ...]) -> list[str]:
    """What is wrong between pyproject.toml (its dependencies, the given extras and the
    build requirements) and a lock; [] when they agree."""
    problems: list[str] = []
    deps = list(pyproject["project"].get("dependencies", []))
    for extra in extras:
        deps += pyproject["project"].get("optional-dependencies", {}).get(extra, [])
    build = list(pyproject.get("build-system", {}).get("requires", []))
    pins = locked.pins
    for wanted_list, via, where in ((deps, FROM_PROJECT, "pyproject.toml"),
                                    (build, FROM_BUILD, "build-system.requires")):
        wanted = {}
        for text in wanted_list:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate():
                wanted[canonicalize_name(req.name)] = req
        for name, req in sorted(wanted.items()):
            if name not in pins:
                problems.append(f"{req} is in {where} but not in the lock")
            elif not req.specifier.contains(pins[name].version, prereleases=True):
                problems.append(f"{name}=={pins[name].version} is outside {where}'s range {req}")
        for name in sorted(n for n, pin in pins.items() if via in pin.via and n not in wanted):
            problems.append(f"{name} is locked as a requirement of {where}, which does not list it")
    for name, pin in sorted(pins.items()):
        if not pin.hashes:
            problems.append(f"{name}=={pin.version} has no hash")
        parents = [v for v in pin.via if not v.startswith(("-c ", "-r "))]
        if not parents:
            problems.append(f"{name} is locked but nothing requires it")
        for parent in parents:
            if parent not in (FROM_PROJECT, FROM_BUILD) and canonicalize_name(parent) not in pins:
                problems.append(f"{name} is locked for {parent}, which is not locked")
    return problems


@pytest.mark.parametrize("name, extras", [("runtime", ()), ("dev", ("dev",))])
def test_lock_agrees_with_pyproject(name: str, extras: tuple[str, ...]) -> None:
    assert disagreements(project(), lock(name), extras) == [], "run `make lock`"


def test_dev_lock_pins_the_runtime_set_at_the_same_versions() -> None:
    runtime, dev = lock("runtime").pins, lock("dev").pins
    assert runtime and set(runtime) < set(dev)
    for name, pin in runtime.items():
        assert (dev[name].version, sorted(dev[name].hashes)) == (pin.version, sorted(pin.hashes)), name


@pytest.mark.parametrize("name", ["pip", "runtime", "dev"])
def test_lock_needs_only_the_public_index(name: str) -> None:
    """Pins with sha256 hashes and nothing else: no find-links, no extra index, no local
    path (this machine's pip configuration must not leak into the lock)."""
    text = (REQ / f"{name}.txt").read_text(encoding="utf-8")
    locked = parse_lock(text)
    assert locked.pins and locked.options == []
    assert "make lock" in text  # written by `make lock`, not by hand
    assert not re.search(r"file://|/opt/|--find-links|index-url|^-e ", text, re.M)
    for pin_name, pin in locked.pins.items():
        assert pin.hashes and all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in pin.hashes), pin_name


def test_pip_lock_is_pip_alone() -> None:
    assert set(lock("pip").pins) == {"pip"}


def test_a_disagreement_is_found() -> None:
    base, runtime = project(), lock("runtime")
    assert disagreements(base, runtime, ()) == []

    added = copy.deepcopy(base)
    added["project"]["dependencies"].append("requests>=2")
    assert disagreements(added, runtime, ()) == ["requests>=2 is in pyproject.toml but not in the lock"]

    dropped = copy.deepcopy(base)
    dropped["project"]["dependencies"] = [d for d in base["project"]["dependencies"]
                                          if not d.startswith("aiosqlite")]
    assert any(p.startswith("aiosqlite is locked as a requirement of pyproject.toml")
               for p in disagreements(dropped, runtime, ()))

    narrowed = copy.deepcopy(base)
    narrowed["project"]["dependencies"] = [("pillow<10" if d.startswith("pillow") else d)
                                           for d in base["project"]["dependencies"]]
    assert any("pillow==" in p and "outside pyproject.toml's range pillow<10" in p
               for p in disagreements(narrowed, runtime, ()))

    missing = Lock({k: v for k, v in runtime.pins.items() if k != "discord-py"}, [])
    found = disagreements(base, missing, ())
    assert any(p.startswith("discord.py") and "not in the lock" in p for p in found)
    assert any("aiohttp is locked for discord-py, which is not locked" in p for p in found)

    unhashed = copy.deepcopy(runtime)
    unhashed.pins["yarl"].hashes.clear()
    assert disagreements(base, unhashed, ()) == [f"yarl=={runtime.pins['yarl'].version} has no hash"]

    # the dev lock is checked against the dev extra too
    assert any(p.startswith("pytest") for p in disagreements(base, runtime, ("dev",)))


def test_parse_lock_reads_pip_compile_output() -> None:
    text = (
        "#\n# header\n#\nfoo-bar==1.2 \\\n    --hash=sha256:" + "a" * 64 + " \\\n"
        "    --hash=sha256:" + "b" * 64 + "\n    # via\n    #   -c requirements/runtime.txt\n"
        "    #   boardroom (pyproject.toml)\nbaz==3 ; python_version < \"3.12\" \\\n"
        "    --hash=sha256:" + "c" * 64 + "\n    # via foo-bar\n--find-links /x\n"
    )
    got = parse_lock(text)
    assert got.pins["foo-bar"] == Pin("1.2", ["sha256:" + "a" * 64, "sha256:" + "b" * 64],
                                      ["-c requirements/runtime.txt", FROM_PROJECT])
    assert got.pins["baz"] == Pin("3", ["sha256:" + "c" * 64], ["foo-bar"])
    assert got.options == ["--find-links /x"]


def test_this_environment_is_the_dev_lock() -> None:
    """The tests run on the locked versions (make builds .venv from requirements/dev.txt)."""
    wrong = {}
    for name, pin in lock("dev").pins.items():
        try:
            have = metadata.version(name)
        except metadata.PackageNotFoundError:
            have = "not installed"
        if have != pin.version:
            wrong[name] = f"{have}, locked {pin.version}"
    assert not wrong, f"{wrong}: this environment is not the lock's; run `make .venv/.installed`"


def test_make_and_ci_install_from_the_lock() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    stamp = re.search(r"^\$\(STAMP\):(.*)\n((?:\t.*\n)+)", makefile, re.M)
    assert stamp, "no $(STAMP) rule"
    needs, recipe = stamp.group(1), stamp.group(2)
    assert "pyproject.toml" in needs and "$(LOCKS)" in needs
    assert re.search(r"^LOCKS :=.*requirements/dev\.txt", makefile, re.M)
    installs = [line for line in recipe.splitlines() if "pip install" in line]
    assert installs[-2].endswith("--require-hashes -r requirements/dev.txt")
    # boardroom itself: editable, nothing more (every dependency came from the lock)
    assert re.search(r"pip install -q --no-deps --no-build-isolation -e \. "
                     r"--config-settings editable_mode=compat$", installs[-1])
    assert all("--require-hashes -r requirements/" in line for line in installs[:-1])
    for target in ("test", "demo", "run", "bench"):
        assert re.search(rf"^{target}: \$\(STAMP\)", makefile, re.M), target
    assert re.search(r"^lock:", makefile, re.M)
    assert "make test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
