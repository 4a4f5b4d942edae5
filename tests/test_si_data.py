"""Smartphone Inc. component data: what the rulebook states holds; every item says
where it comes from; every reconstructed file is listed in DATA.md."""

from __future__ import annotations

import json
from pathlib import Path

from engine.smartphone_inc import data

DATA_DIR = Path(data.__file__).parent / "data"
RULEBOOK_ALPHABETICAL = [
    "Australia", "Canada", "Caribbean", "China", "CIS", "Emirates", "Europe", "India",
    "North Africa", "RSA", "South America", "USA",
]


def test_region_names_and_steve_alphabetical_order():
    """SI-STEVE-09: the rulebook's alphabetical order of the 12 regions."""
    assert [data.REGIONS[r]["name"] for r in data.ALPHABETICAL] == RULEBOOK_ALPHABETICAL


def test_north_africa_is_medium_and_linked_as_in_the_example_SI_LOG_02():
    """SI-LOG-02 (ex): North Africa (M) links Europe, China, Emirates, South America."""
    na = data.REGIONS["north-africa"]
    assert na["size"] == "M"
    assert sorted(data.REGIONS[r]["name"] for r in na["links"]) == ["China", "Emirates", "Europe", "South America"]


def test_home_regions_are_the_medium_regions():
    assert sorted(data.HOME.values()) == sorted(r for r in data.REGION_ORDER if data.REGIONS[r]["size"] == "M")
    assert len(set(data.HOME.values())) == 5


def test_counts_from_the_component_list():
    assert len(data.DECK) == 27 and len(data.STARTING) == 5
    assert len(data.RETAILERS) == 7 and {r["size"] for r in data.RETAILERS.values()} == {"S", "M", "L"}
    assert [data.TECHS[t]["name"] for t in data.TECH_ORDER] == ["GPS", "Wi-Fi", "Gamepad", "NFC", "Li-Ion", "4G"]
    assert all(len([s for s in t["sides"] if "module" not in s]) == 2 for t in data.TECHS.values())  # both sides
    # Update 1.1: 10 New Technologies on the 6 symbols, 5 Mini-upgrades
    assert len(data.NEW_TECHS) == 10 and len(data.MINI_UPGRADES) == 5
    assert data.GOODS_MARKERS == 20 and data.OFFICE_MARKERS == 18


def test_retailer_regions_match_sizes_for_every_count_SI_SET_07_SI_SET_08_SI_SET_09():
    """SI-SET-07..09: enough Retailers of each size for the regions each count covers."""
    sizes = [r["size"] for r in data.RETAILERS.values()]
    for n in (2, 3, 4):
        need = [data.REGIONS[r]["size"] for r in data.RETAILER_FIXED[n]] + ["M"] * (5 - n)
        for s in "SML":
            assert need.count(s) <= sizes.count(s)


def test_the_4g_example_cost():
    """SI-RES-04 (ex): 4G costs 6 while its Patent is unclaimed."""
    assert data.TECHS["4g"]["cost"] + 1 == 6


def test_every_item_has_a_source_and_reconstructions_are_listed():
    doc = (Path(data.__file__).parent / "DATA.md").read_text("utf-8")
    for path in sorted(DATA_DIR.glob("*.json")):
        raw = json.loads(path.read_text("utf-8"))
        items = [raw] if "source" in raw else [i for v in raw.values() if isinstance(v, list) for i in v if isinstance(i, dict)]
        assert items, path.name
        for item in items:
            assert item.get("source") in ("rulebook", "reconstructed"), (path.name, item)
        if any(i["source"] == "reconstructed" for i in items):
            assert f"`{path.name}`" in doc, f"{path.name} is not listed in DATA.md"
