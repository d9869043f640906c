"""The event log: reading reports bad lines and goes on, appends are durable, corrections."""

from __future__ import annotations

import json
from pathlib import Path

from companion.events import Event, EventLog, apply_corrections, parse_lines, read_log


def test_bad_lines_are_reported_with_line_numbers_and_the_rest_is_kept(tmp_path: Path) -> None:
    p = tmp_path / "g.jsonl"
    p.write_text(
        '{"event":"game","game":"michigan-rummy","players":["A","B","C"]}\n'
        "not json at all\n"
        "\n"
        '["a list"]\n'
        '{"player":"A"}\n'
        '{"event":"round","dealer":"A","extra":{"kept":true}}\n',
        encoding="utf-8",
    )
    log = read_log(p)
    assert [e.kind for e in log.events] == ["game", "round"]
    assert [e.line for e in log.events] == [1, 6]
    assert log.events[1]["extra"] == {"kept": True}  # unknown fields are kept
    assert [(e.line, e.text.split(":")[0]) for e in log.errors] == [
        (2, "line 2"), (4, "line 4"), (5, "line 5")]
    assert "not valid JSON" in log.errors[0].text
    assert "JSON object" in log.errors[1].text
    assert '"event"' in log.errors[2].text


def test_undecodable_bytes_do_not_hide_the_rest(tmp_path: Path) -> None:
    p = tmp_path / "g.jsonl"
    p.write_bytes(b'{"event":"round","dealer":"A"}\n\xff\xfe garbage\n{"event":"end-round"}\n')
    log = read_log(p)
    assert [e.kind for e in log.events] == ["round", "end-round"]
    assert log.errors[0].line == 2


def test_append_is_flushed_at_once_and_line_numbers_continue(tmp_path: Path) -> None:
    p = tmp_path / "sub" / "g.jsonl"
    log = EventLog(p)
    assert log.append({"event": "round", "dealer": "A"}) == 1
    # Readable before close: nothing waits in a buffer.
    assert json.loads(p.read_text(encoding="utf-8").splitlines()[0])["dealer"] == "A"
    log.close()
    again = EventLog(p)
    assert again.append({"event": "play", "player": "A", "card": "5♣"}) == 2
    again.close()
    assert read_log(p).events[1]["card"] == "5♣"


def test_partial_last_line_after_a_crash_is_not_glued_to_the_next(tmp_path: Path) -> None:
    p = tmp_path / "g.jsonl"
    p.write_text('{"event":"round","dealer":"A"}\n{"event":"pl', encoding="utf-8")
    with EventLog(p) as log:
        assert log.append({"event": "end-round"}) == 3
    got = read_log(p)
    assert [e.kind for e in got.events] == ["round", "end-round"]
    assert [e.line for e in got.errors] == [2]


def test_append_refuses_an_event_without_kind(tmp_path: Path) -> None:
    with EventLog(tmp_path / "g.jsonl") as log:
        try:
            log.append({"player": "A"})
        except ValueError as exc:
            assert "event" in str(exc)
        else:
            raise AssertionError("expected ValueError")


def test_corrections_replace_and_delete_lines() -> None:
    log = parse_lines([
        '{"event":"play","player":"A","card":"5C"}',
        '{"event":"play","player":"B","card":"6C"}',
        '{"event":"correct","line":1,"with":{"event":"play","player":"A","card":"5D"}}',
        '{"event":"correct","line":2,"with":null}',
        '{"event":"correct","line":1,"with":{"event":"play","player":"A","card":"5H"}}',
        '{"event":"correct","line":9,"with":{"event":"play"}}',
        '{"event":"correct","line":"x"}',
    ])
    events, problems = apply_corrections(log.events)
    assert [(e.line, e["card"]) for e in events] == [(1, "5H")]  # later correction wins
    assert [p.line for p in problems] == [6, 7]


def test_correction_can_fix_a_malformed_line() -> None:
    log = parse_lines([
        '{"event":"round","dealer":"A"}',
        "{broken",
        '{"event":"correct","line":2,"with":{"event":"play","player":"A","card":"2C"}}',
    ])
    events, problems = apply_corrections(log.events)
    assert [(e.line, e.kind) for e in events] == [(1, "round"), (2, "play")]
    assert not problems


def test_event_accessors() -> None:
    ev = Event({"event": "bid", "player": "A", "tricks": 2}, 4)
    assert ev.kind == "bid" and ev["tricks"] == 2 and "player" in ev and ev.get("x", 1) == 1
