"""Every rule id of the checklists is named by at least one test (grep -r ID tests/)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKLISTS = ROOT.parent / "shared" / "rules" / "checklists"
ENGINE_CHECKLISTS = {
    "smartphone-inc.md": "SI",
    "smartphone-update.md": "SU",
    "mobile-markets.md": "MM",
    "age-of-automaton.md": "AA",
}


def ids_in(path: Path) -> list[str]:
    return re.findall(r"^- ([A-Z]{2}-[A-Z]+-[A-Z0-9]+)", path.read_text("utf-8"), re.M)  # MM-CARD-E1 too


def all_test_sources() -> str:
    return "\n".join(p.read_text("utf-8") for p in (ROOT / "tests").rglob("*.py") if p.name != "test_checklists.py")


@pytest.mark.skipif(not CHECKLISTS.is_dir(), reason="shared/rules/checklists is not beside the checkout")
@pytest.mark.parametrize("name", sorted(ENGINE_CHECKLISTS))
def test_every_rule_id_has_a_test(name):
    ids = ids_in(CHECKLISTS / name)
    assert len(ids) >= 29  # the Update 1.1 checklist has 29 ids, the base game more than 50
    assert all(i.startswith(ENGINE_CHECKLISTS[name] + "-") for i in ids)
    text = all_test_sources()
    # ids are written SI-RES-07 in docstrings or SI_RES_07 in test names
    missing = [i for i in ids if i not in text and i.replace("-", "_") not in text]
    assert missing == [], f"rule ids without a test: {missing}"
