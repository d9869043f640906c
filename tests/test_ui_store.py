"""Saved games without a window: append, evidence, corrections and undo as events, a crash
mid-line, resumable games, and the CSV / PDF scoresheets."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from companion.referee import replay_dicts
from ui.demo import DemoTable
from ui.store import DATA_ENV, GameSession, GameStore, data_dir


def _game(game: str = "michigan-rummy", seed: int = 4, rounds: int = 2) -> list[dict]:
    return DemoTable.simulated(game, seed=seed, rounds=rounds, mistakes=0.1).events


def _session(tmp_path: Path, events: list[dict]) -> GameSession:
    store = GameStore(tmp_path)
    session = store.new_game(events[0], source="test")
    for ev in events[1:]:
        session.append(ev)
    return session


def test_data_dir_honours_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "x"))
    assert data_dir() == tmp_path / "x"
    assert GameStore().root == tmp_path / "x" / "games"


def test_session_report_equals_replay_of_the_same_events(tmp_path: Path) -> None:
    events = _game()
    session = _session(tmp_path, events)
    assert session.report() == replay_dicts(events).report()
    # the file on disk is the log: one JSON object per line, in order
    lines = session.log_path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(x) for x in lines] == events


def test_evidence_kept_only_for_face_up_events(tmp_path: Path) -> None:
    events = _game()
    store = GameStore(tmp_path)
    session = store.new_game(events[0])
    frame = np.full((40, 60, 3), 200, np.uint8)
    kinds = {}
    for ev in events[1:]:
        line = session.append(ev, frame)
        kinds[line] = ev["event"]
    kept = session.evidence_lines()
    assert kept, "play events must keep their frame"
    assert all(kinds[n] in ("play", "reveal") for n in kept)
    assert all(n in kept for n, k in kinds.items() if k == "play")
    img = session.evidence(kept[0])
    assert img is not None and img.shape == (40, 60, 3)
    assert session.evidence(max(kinds) + 5) is None


def test_correction_and_undo_are_events(tmp_path: Path) -> None:
    events = _game()
    session = _session(tmp_path, events)
    dummy = next(e for e in session.effective() if e.kind == "dummy")
    before = session.report()["chips"]
    dealer = next(e for e in session.effective() if e.kind == "round").get("dealer")
    buyer = next(p for p in session.players if p != dealer)
    n_lines = len(session.events)
    session.correct(dummy.line, {"event": "dummy", "action": "sell", "buyer": buyer,
                                 "price": 3})
    assert len(session.events) == n_lines + 1
    assert session.events[-1].data["event"] == "correct"
    assert session.event_at(dummy.line).get("action") == "sell"  # type: ignore[union-attr]
    after = session.report()["chips"]
    assert after != before
    assert sum(after.values()) + sum(session.report()["pots"].values()) == \
        sum(before.values()) + sum(replay_dicts(events).report()["pots"].values())
    # undo removes the last effective event: the game is as it was without it
    last = session.effective()[-1]
    undone = session.undo()
    assert undone == last.line
    assert session.event_at(last.line) is None
    with pytest.raises(ValueError):
        session.correct(1, None)  # the game event is not corrected here


def test_partial_line_after_a_crash_is_survived(tmp_path: Path) -> None:
    events = _game()
    session = _session(tmp_path, events[:20])
    report = session.report()
    session.close(finished_by_user=False)  # its writer goes (a dead app holds no log)
    with open(session.log_path, "a", encoding="utf-8") as fh:
        fh.write('{"event": "play", "player": "B')  # the power went out mid-write
    again = GameSession(session.folder)
    assert again.report()["chips"] == report["chips"]
    line = again.append(events[20])
    assert again.event_at(line) is not None
    assert again.report() != report or events[20]["event"] != "play"


def test_resumable_is_the_newest_unfinished_unclosed_game(tmp_path: Path) -> None:
    events = _game(rounds=1)
    finished = _session(tmp_path, events)
    assert finished.report()["finished"]
    store = GameStore(tmp_path)
    assert store.resumable() is None
    half = store.new_game(events[0])
    for ev in events[1:10]:
        half.append(ev)
    info = store.resumable()
    assert info is not None and info.path == half.folder
    half.close(finished_by_user=True)
    assert store.resumable() is None
    assert len(store.games()) == 2


def test_export_csv_and_pdf(tmp_path: Path, qapp: object) -> None:
    from ui.export import export_csv, export_pdf, scoresheet_html, scoresheet_rows

    events = _game(rounds=2)
    session = _session(tmp_path, events)
    ref = session.referee
    assert ref is not None
    header, rows = scoresheet_rows(session)
    out = export_csv(session, tmp_path / "sheet.csv")
    with open(out, encoding="utf-8") as fh:
        table = list(csv.reader(fh))
    assert table[0] == ["Round", *session.players]
    assert table[1] == ["Start"] + ["50"] * len(session.players)
    final = ref.ledger.player_chips()
    round_rows = [r for r in table if r and r[0].startswith("Round ")]
    assert len(round_rows) == len(ref.ledger.round_history) == 2
    assert round_rows[-1][1:] == [str(ref.ledger.round_history[-1][p]) for p in session.players]
    last = [r for r in table if r and r[0] in ("Final", "Round 2")][-1]
    assert last[1:] == [str(final[p]) for p in session.players]
    vio = session.report()["violations"]
    if vio:
        assert any(r and r[0] == str(vio[0]["line"]) and r[2] == vio[0]["rule"] for r in table)
    html = scoresheet_html(session)
    for p in session.players:
        assert p in html and str(final[p]) in html
    pdf = export_pdf(session, tmp_path / "sheet.pdf")
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert b"/Type /Page" in data
    # the document title (UTF-16 in the PDF's info dictionary) names the game
    assert "Scoresheet michigan-rummy".encode("utf-16-be") in data
