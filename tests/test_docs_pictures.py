"""The pictures in docs/ have a recipe each (scripts/docs_pictures.py, ``make
docs-pictures``) and are what it draws now: the same bytes twice, and the files in docs/
within the reference pictures' tolerance (anti-aliasing may differ between FreeType
builds)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

from tests.test_render_reference import MAX_DIFF_FRACTION, MAX_TILE_FRACTION, difference

ROOT = Path(__file__).resolve().parent.parent


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_pictures", ROOT / "scripts" / "docs_pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


SCRIPT = load_script()


def test_every_picture_in_docs_has_a_recipe_and_the_readme_says_where_they_come_from() -> None:
    in_docs = {p.stem for p in (ROOT / "docs").glob("*.png")}
    assert in_docs == set(SCRIPT.BY_NAME), in_docs ^ set(SCRIPT.BY_NAME)
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "make docs-pictures" in readme and "scripts/docs_pictures.py" in readme
    for name in in_docs:
        assert f"docs/{name}.png" in readme, name
    assert "docs-pictures:" in (ROOT / "Makefile").read_text("utf-8")


@pytest.mark.parametrize("name", [r.name for r in SCRIPT.RECIPES])
def test_the_picture_in_docs_is_what_its_recipe_draws(name: str) -> None:
    got = SCRIPT.BY_NAME[name].draw()
    with Image.open(ROOT / "docs" / f"{name}.png") as want:
        assert got.size == want.size, f"{name}: {got.size} != {want.size}: run make docs-pictures"
        total, tile = difference(got, want)
    assert total <= MAX_DIFF_FRACTION and tile <= MAX_TILE_FRACTION, f"{name} is stale: run make docs-pictures"


def test_the_same_code_draws_the_same_bytes(tmp_path: Path) -> None:
    names = ["update-directives", "update-plan-mini-upgrade", "update-compact-start-region"]
    for out in ("a", "b"):
        assert SCRIPT.main([*names, "--out", str(tmp_path / out)]) == 0
    for name in names:
        assert (tmp_path / "a" / f"{name}.png").read_bytes() == (tmp_path / "b" / f"{name}.png").read_bytes()


def test_check_tells_a_stale_picture(tmp_path: Path) -> None:
    assert SCRIPT.main(["update-compact-directive", "--out", str(tmp_path)]) == 0
    assert SCRIPT.main(["update-compact-directive", "--out", str(tmp_path), "--check"]) == 0
    Image.new("RGB", (640, 491), "white").save(tmp_path / "update-compact-directive.png")
    assert SCRIPT.main(["update-compact-directive", "--out", str(tmp_path), "--check"]) == 1
