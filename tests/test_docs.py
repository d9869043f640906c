"""The project carries its own documents (issue 15, finding 10): every ruling the code cites is
written in docs/rules.md, every event, report key and violation id in docs/events.md and
docs/rules.md, and what a user reads (README, the docs, `referee --help`) points inside the
repository, never at files kept beside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.referee import GAME_MODULES, find_simulator, replay_dicts

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULES = (DOCS / "rules.md").read_text(encoding="utf-8")
EVENTS = (DOCS / "events.md").read_text(encoding="utf-8")
RUM_EVENTS = (DOCS / "events-michigan-rum.md").read_text(encoding="utf-8")
RULING_ID = re.compile(r"\b(?:MR|GL|PR|BO|OC|WA|RU)-\d+[a-z]?\b")
OUTSIDE = re.compile(r"RULINGS|DESIGN\.md|\.\./shared|/work/")


def _sources() -> list[Path]:
    return sorted([*(ROOT / "companion").rglob("*.py"), *(ROOT / "companion").rglob("*.toml")])


def test_every_ruling_the_code_cites_is_written_in_rules_md() -> None:
    cited = {m for path in _sources() for m in RULING_ID.findall(path.read_text("utf-8"))}
    written = set(re.findall(r"^- \*\*((?:MR|GL|PR|BO|OC|WA|RU)-\d+[a-z]?)\b", RULES, re.M))
    assert len(cited) > 50
    assert cited - written == set()


def test_every_house_rule_is_named_in_rules_md() -> None:
    names = {m for path in (ROOT / "companion" / "data").glob("*.toml")
             for m in re.findall(r"^\[house\.(\w+)\]", path.read_text("utf-8"), re.M)}
    assert "lead_fine" in names
    assert {n for n in names if f"`{n}`" not in RULES} == set()


def test_every_violation_id_the_referees_use_is_explained() -> None:
    used = {m for path in (ROOT / "companion").rglob("*.py")
            for m in re.findall(r"(?:Offence\(|violation\()[^\"]*?\"([a-z-]+)\"",
                                path.read_text("utf-8"))}
    table = set(re.findall(r"^\| `([a-z-]+)` \|", RULES, re.M))
    assert "withheld" in used
    assert used == table


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_every_event_and_report_key_of_a_whole_game_is_documented(game: str) -> None:
    events = find_simulator(game)(players=["Ann", "Bob", "Cy"], rounds=None, seed=1,
                                  hidden=False, mistakes=0.2, chips=None, game=game)
    documented = EVENTS + (RUM_EVENTS if game == "michigan-rum" else "")
    kinds = {str(ev["event"]) for ev in events}
    assert {k for k in kinds if f"`{k}`" not in documented} == set()
    report = replay_dicts(events).report()
    assert {k for k in report if f"`{k}`" not in EVENTS} == set()


def test_what_users_read_points_inside_the_repository(
        capsys: pytest.CaptureFixture[str]) -> None:
    for path in [ROOT / "README.md", *DOCS.glob("*.md")]:
        text = path.read_text(encoding="utf-8")
        assert not OUTSIDE.findall(text), path.name
    with pytest.raises(SystemExit):
        main(["referee", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert not OUTSIDE.findall(help_text)
    named = re.findall(r"\bdocs/[\w.-]+\.md", help_text)
    assert named and all((ROOT / n).is_file() for n in named)
