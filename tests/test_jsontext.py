"""The bot's JSON text (bot.jsontext, issue 25): canonical (keys sorted at every depth,
no spaces, the same data gives the same text), the standard library where orjson
cannot encode, and rows written by older versions (non-ASCII escaped) still read."""

from __future__ import annotations

import json
import math

from bot.jsontext import dumps, loads


def test_canonical_text():
    a = {"b": 1, "a": [1, 2.5, None, True, "x·"], "c": {"z": {"q": 1, "p": 2}, "y": 2}}
    b = {"c": {"y": 2, "z": {"p": 2, "q": 1}}, "a": [1, 2.5, None, True, "x·"], "b": 1}
    assert dumps(a) == '{"a":[1,2.5,null,true,"x·"],"b":1,"c":{"y":2,"z":{"p":2,"q":1}}}'
    assert dumps(a) == dumps(b)
    assert loads(dumps(a)) == a


def test_what_orjson_cannot_encode_is_encoded_alike():
    assert dumps({"seed": 2**100, "b": 1}) == '{"b":1,"seed":1267650600228229401496703205376}'
    assert dumps({2: "x", 1: "y"}) == '{"1":"y","2":"x"}'


def test_older_rows_still_read():
    old = json.dumps({"content": "Round 1 · Planning — go", "n": [1]}, sort_keys=True)
    assert "\\u00b7" in old  # written escaped by the standard library
    assert loads(old) == {"content": "Round 1 · Planning — go", "n": [1]}
    assert loads(b'{"a": 1}') == {"a": 1}
    assert math.isnan(loads('{"a": NaN}')["a"])  # what only the standard library reads
