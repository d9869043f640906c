"""Golden test: every example game in tests/golden (the shared examples) against its result.

Chips, the chips left on the board and the violations (as a multiset of player and rule) must
agree for all seven games; a game whose referee is not written yet fails here until it lands.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from companion.referee import replay_file

EXAMPLES = Path(__file__).resolve().parent / "golden"
NAMES = ["michigan-rummy-clean", "michigan-rummy-mistakes", "great-lakes", "pressman-mistakes",
         "boodle-mistakes", "oh-claire", "wanagan"]


def test_every_example_is_listed() -> None:
    on_disk = sorted(p.name[:-len(".jsonl")] for p in EXAMPLES.glob("*.jsonl"))
    assert on_disk == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_example_agrees_with_its_expected_result(name: str) -> None:
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))
    result = replay_file(str(EXAMPLES / f"{name}.jsonl"))
    report = result.report()
    assert report["errors"] == [], report["errors"]
    assert report["finished"] is True
    assert report["chips"] == expected["chips"]
    assert sum(report["pots"].values()) == expected["board_left"]
    got = Counter((v["player"], v["rule"]) for v in report["violations"])
    want = Counter((v["player"], v["rule"]) for v in expected["violations"])
    assert got == want
