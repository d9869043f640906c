"""The event log: reading reports bad lines and goes on, appends are durable, corrections."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

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


# --- issue 16, finding 1: one absurd line never makes a game unreadable ------------------------

def _game_lines() -> list[str]:
    from companion.referee import find_simulator

    events = find_simulator("pressman")(players=["Ann", "Bob", "Cy"], rounds=1, seed=4,
                                        hidden=True, mistakes=0.0, chips=None, game="pressman")
    return [json.dumps(e) for e in events]


def _replayed(path: Path) -> dict[str, Any]:
    from companion.referee import replay_file

    return replay_file(str(path)).report()


@pytest.mark.parametrize("absurd, reason", [
    ("[" * 1000 + "]" * 1000, "nested more than 32 levels deep"),
    ('{"event":"play","player":"Ann","card":' + "[" * 5000 + "]" * 5000 + "}", "nested more"),
    ('{"event":"dummy","action":"sell","buyer":"Bob","price":' + "9" * 4300 + "}",
     "a number of 4300 digits (at most 15)"),
    ('{"event":"dummy","action":"sell","buyer":"Bob","price":1e999}', "is too large"),
    ('{"event":"dummy","action":"sell","buyer":"Bob","price":NaN}', "NaN is not a number"),
    ('{"event":"dummy","action":"sell","buyer":"Bob","price":-Infinity}', "not a number"),
])
def test_an_absurd_line_is_named_with_the_limit_and_the_rest_is_scored(
        tmp_path: Path, absurd: str, reason: str) -> None:
    lines = _game_lines()
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text("\n".join(lines) + "\n", encoding="utf-8")
    bad.write_text("\n".join(lines[:3] + [absurd] + lines[3:]) + "\n", encoding="utf-8")
    before, after = _replayed(good), _replayed(bad)
    assert [e["line"] for e in after["errors"]] == [4]
    assert reason in after["errors"][0]["text"]
    assert (after["chips"], after["pots"], after["finished"]) == (
        before["chips"], before["pots"], before["finished"])


def test_starting_chips_of_thousands_of_digits_are_refused_and_printing_works(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    lines = _game_lines()
    lines[0] = lines[0].replace('"chips": 50', '"chips": ' + "7" * 4300)
    p = tmp_path / "g.jsonl"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["referee", str(p)]) == 0
    out = capsys.readouterr().out
    assert "line 1: a number of 4300 digits (at most 15)" in out


def test_a_lone_carriage_return_does_not_shift_line_numbers(tmp_path: Path) -> None:
    lines = _game_lines()
    p = tmp_path / "g.jsonl"
    broken = lines[5].replace('"event": "', '"event": "\r', 1)  # inside a string: refused
    spaced = lines[6].replace(", ", ",\r ", 1)             # between tokens: still an event
    # Line 9 corrected to what it was: it must replace line 9, not line 8 or 10.
    fix = json.dumps({"event": "correct", "line": 9, "with": json.loads(lines[8])})
    p.write_bytes(("\n".join(lines[:5] + [broken, spaced] + lines[7:] + [fix]) + "\n").encode())
    log = read_log(p)
    assert [e.line for e in log.errors] == [6]
    assert [e.line for e in log.events] == [n for n in range(1, len(lines) + 2) if n != 6]
    events, problems = apply_corrections(log.events)
    assert not problems and [e.data for e in events if e.line == 9] == [json.loads(lines[8])]
    # Windows line ends are one line end, not two.
    p.write_bytes(("\r\n".join(lines) + "\r\n").encode())
    assert [e.line for e in read_log(p).events] == list(range(1, len(lines) + 1))


def test_an_endless_or_huge_file_is_read_up_to_the_limits(tmp_path: Path) -> None:
    from companion.events import Log, read_lines

    class Zeros(io.RawIOBase):                 # /dev/zero, on any system
        def readable(self) -> bool:
            return True

        def readinto(self, b: Any) -> int:
            b[:] = bytes(len(b))
            return len(b)

    log = Log()
    read_lines(io.BufferedReader(Zeros()), log, max_line=1000, max_bytes=50_000)
    assert [e.text for e in log.errors] == [
        "line 1: longer than 1,000 bytes; skipped",
        "line 1: the log is longer than 50,000 bytes; the rest was not read"]
    if os.path.exists("/dev/zero"):
        assert read_log("/dev/zero").errors[-1].text.endswith("the rest was not read")
    lines = _game_lines()
    long = '{"event":"play","player":"Ann","card":"' + "A" * 5000 + '"}'
    data = "\n".join(lines[:2] + [long] + lines[2:]).encode()
    log = Log()
    read_lines(io.BytesIO(data), log, max_line=4096)
    assert [e.text for e in log.errors] == ["line 3: longer than 4,096 bytes; skipped"]
    assert [e.line for e in log.events] == [n for n in range(1, len(lines) + 2) if n != 3]


def test_a_correction_of_a_correction_replaces_or_withdraws_it() -> None:
    play = '{"event":"play","player":"A","card":"%s"}'
    lines = [play % "5C", play % "6C",
             '{"event":"correct","line":1,"with":{"event":"play","player":"A","card":"5D"}}',
             # Line 4 corrects the correction of line 3: line 1 becomes 5H, not 5D.
             '{"event":"correct","line":3,"with":{"event":"correct","line":1,"with":null}}',
             '{"event":"correct","line":3,"with":{"event":"play","player":"B","card":"7C"}}']
    events, problems = apply_corrections(parse_lines(lines).events)
    # Line 4 is refused with its reason; line 5 replaces the correction at line 3 by a play.
    assert [(p.line, "cannot insert another correction" in p.text) for p in problems] == [
        (4, True)]
    assert [(e.line, e["card"]) for e in events] == [(1, "5C"), (2, "6C"), (3, "7C")]
    # Withdrawing the correction of line 3 restores line 1 as first written...
    events, problems = apply_corrections(parse_lines(
        lines[:3] + ['{"event":"correct","line":3,"with":null}']).events)
    assert not problems and [(e.line, e["card"]) for e in events] == [(1, "5C"), (2, "6C")]
    # ...and withdrawing that withdrawal brings the correction back.
    events, problems = apply_corrections(parse_lines(
        lines[:3] + ['{"event":"correct","line":3,"with":null}',
                     '{"event":"correct","line":4,"with":null}']).events)
    assert not problems and [(e.line, e["card"]) for e in events] == [(1, "5D"), (2, "6C")]


@pytest.mark.parametrize("where", ["folder", "uncreatable", "device"])
def test_a_log_that_cannot_be_written_says_why(tmp_path: Path, where: str) -> None:
    from companion.events import LogFileError

    (tmp_path / "file").write_text("x")
    path = {"folder": tmp_path, "uncreatable": tmp_path / "file" / "sub" / "g.jsonl",
            "device": Path(os.devnull)}[where]
    with pytest.raises(LogFileError) as info:
        EventLog(path)
    assert str(info.value).startswith(f"cannot write the game log {path}: ")
    with pytest.raises(OSError):
        read_log(tmp_path)
