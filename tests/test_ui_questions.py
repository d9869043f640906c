"""The confirmation bar's one-click answers (issue 18): a held reading comes with the likeliest
answers as buttons, each answered with one click or one key (1-9), the first question shown
alone, and the next one only once it is answered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from ui.demo import DemoTable
from ui.store import GameStore
from ui.window import MainWindow


@pytest.fixture
def window(window: MainWindow) -> MainWindow:
    """The shared window (conftest), at a size where every panel shows."""
    window.resize(1400, 900)
    return window


class QuestionFeed:
    """A stand-in camera feed that holds the questions given, one after another: the next
    is shown only once the one before is answered (as the pipeline queues them)."""

    def __init__(self, profile: object, log: Any, questions: list[tuple[Any, ...]]) -> None:
        self.profile = profile
        self.interval_ms = 5
        self.log = log
        self.questions = list(questions)
        self.answers: list[tuple[int, object]] = []
        self.ticks = 0

    def tick(self):  # type: ignore[no-untyped-def]
        from ui.worker import FramePacket, Tick

        self.ticks += 1
        if self.ticks == 1:
            return Tick(FramePacket(np.zeros((480, 640, 3), np.uint8)),
                        pending=self.questions[:1])
        return Tick()

    def answer(self, pending_id: int, event: Any) -> list[Any]:
        from ui.worker import SeenEvent

        self.answers.append((pending_id, event))
        self.questions = [q for q in self.questions if q[0] != pending_id]
        events = event if isinstance(event, list) else [] if event is None else [event]
        seen = [SeenEvent(dict(e), None, self.log.append(dict(e))) for e in events]
        self.ticks = 0  # the next tick shows the next question
        return seen

    def close(self) -> None:
        pass


def play(player: str, card: str) -> dict[str, Any]:
    return {"event": "play", "player": player, "card": card}


def start(qtbot: QtBot, window: MainWindow, store: GameStore,
          questions: list[tuple[Any, ...]], kind: type[QuestionFeed] = QuestionFeed
          ) -> QuestionFeed:
    events = DemoTable.simulated("michigan-rummy", seed=4, rounds=1).events
    session = store.new_game(events[0])
    for ev in events[1:3]:  # the round and the dummy decision
        session.append(ev)
    session.close(finished_by_user=False)  # the window takes the log's writer lock
    window.resume(session.folder)
    window.stop_feed()
    live = window.session
    assert live is not None
    box: list[QuestionFeed] = []

    def make() -> QuestionFeed:
        box.append(kind(DemoTable(events).profile, live.log, questions))
        return box[0]

    window._start_feed(make)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: bool(box), timeout=5000)
    return box[0]


SIX = (3, "Bob played 6♣? (it would break a rule)", play("Bob", "6C"),
       [("6♣", [play("Bob", "6C")]), ("6♠", [play("Bob", "6S")]), ("9♣", [play("Bob", "9C")])])
MISSED = (4, "5♦ was not seen: who played it? (5♦ comes next)", play("Cy", "6D"),
          [("Ann", [play("Ann", "5D"), play("Cy", "6D")]),
           ("Dee", [play("Dee", "5D"), play("Cy", "6D")])])


def test_one_click_logs_the_answer_and_the_next_question_follows(
        qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    feed = start(qtbot, window, store, [SIX, MISSED])
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert window.confirm_label.text() == "Bob played 6♣? (it would break a rule)"
    labels = [b.text() for b in window.answer_buttons]
    assert labels == ["6♣  [1]", "6♠  [2]", "9♣  [3]"]
    assert window.confirm_fix.text() == "Something else…"
    assert not window.confirm_yes.isVisibleTo(window)  # 'as read' is one of the answers
    with qtbot.waitSignal(window.eventLogged, timeout=5000):
        qtbot.mouseClick(window.answer_buttons[1], Qt.MouseButton.LeftButton)
    assert feed.answers == [(3, [play("Bob", "6S")])]
    session = window.session
    assert session is not None and session.events[-1].data["card"] == "6S"
    # the next question, only now: two events for one click (the missed card, then the read)
    qtbot.waitUntil(lambda: "5♦ was not seen" in window.confirm_label.text(), timeout=5000)
    assert [b.text() for b in window.answer_buttons] == ["Ann  [1]", "Dee  [2]"]
    qtbot.mouseClick(window.answer_buttons[1], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert [(e.data["player"], e.data["card"]) for e in session.events[-2:]] == \
        [("Dee", "5D"), ("Cy", "6D")]


def test_a_key_answers_the_question(qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    feed = start(qtbot, window, store, [SIX])
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    qtbot.keyClick(window, Qt.Key.Key_3)
    qtbot.waitUntil(lambda: not window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert feed.answers == [(3, [play("Bob", "9C")])]
    qtbot.keyClick(window, Qt.Key.Key_1)  # no question open: a key does nothing
    assert feed.answers == [(3, [play("Bob", "9C")])]


def test_no_ignores_the_reading(qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    feed = start(qtbot, window, store, [SIX])
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)
    qtbot.mouseClick(window.confirm_no, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert feed.answers == [(3, None)]


def test_the_demo_camera_can_be_made_fallible(qtbot: QtBot, window: MainWindow,
                                              store: GameStore) -> None:
    """View → Demo camera makes mistakes: the rendered demo's reader misreads and misses 5%
    of its readings (FallibleReader), says so, and the choice is passed to the next demo."""
    from ui.rendered import RenderedDemoFeed

    assert not window.act_fallible.isChecked() and window.demo_fallible == 0.0
    window.act_fallible.trigger()
    assert window.demo_fallible == 0.05
    session = window.start_demo("michigan-rummy", rounds=1, rendered=True, interval_ms=5)
    assert session.meta["demo"]["fallible"] == 0.05
    window.stop_feed()
    events = DemoTable.simulated("michigan-rummy", seed=1, rounds=1).events
    feed = RenderedDemoFeed(events, store.new_game(events[0]).log, 0, 1, "truth",
                            fallible=window.demo_fallible)
    assert type(feed.detector).__name__ == "FallibleReader"
    assert feed.detector.p_misread == feed.detector.p_drop == 0.05
    assert "misread" in feed.detector_name
    plain = RenderedDemoFeed(events, store.new_game(events[0]).log, 0, 1, "truth")
    assert type(plain.detector).__name__ == "TruthDetector"


def reveal(player: str, *cards: str) -> dict[str, Any]:
    return {"event": "reveal", "player": player, "cards": list(cards)}


class LaterAnswersFeed(QuestionFeed):
    """The held hand gains a one-click answer a few ticks after it is shown (the second look
    read the rest of the hand), under the same id."""

    def tick(self):  # type: ignore[no-untyped-def]
        from ui.worker import FramePacket, Tick

        self.ticks += 1
        if self.ticks == 1:
            return Tick(FramePacket(np.zeros((480, 640, 3), np.uint8)),
                        pending=self.questions[:1])
        if self.ticks == 4 and self.questions:
            pid, ask, event, answers = self.questions[0]
            later = [("8♣ J♠", [reveal("Dee", "8C", "JS")]), *answers]
            self.questions[0] = (pid, ask, event, later)
            return Tick(pending=self.questions[:1])
        return Tick()


def test_answers_added_to_a_held_hand_show_and_are_the_ones_clicked(
        qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    hand = (7, "Dee shows J♠? (Dee holds 2 cards, the reveal shows 1)", reveal("Dee", "JS"),
            [("J♦ J♠", [reveal("Dee", "JD", "JS")])])
    feed = start(qtbot, window, store, [hand], LaterAnswersFeed)
    qtbot.waitUntil(lambda: [b.text() for b in window.answer_buttons] == ["8♣ J♠  [1]",
                                                                          "J♦ J♠  [2]"],
                    timeout=5000)
    qtbot.mouseClick(window.answer_buttons[0], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(feed.answers), timeout=5000)
    assert feed.answers == [(7, [reveal("Dee", "8C", "JS")])]


def test_the_question_sits_above_its_one_click_answers_and_beside_yes_fix_no(
        qtbot: QtBot) -> None:
    from ui.panels import QuestionBar

    bar = QuestionBar()
    qtbot.addWidget(bar)
    bar.resize(1300, 200)
    bar.confirm_label.setText("Ann played 6♥? (it would break a rule)")
    bar.setVisible(True)
    answers: list[tuple[str, list[dict[str, Any]]]] = [
        ("6♥, not 9♥ before", []), ("6♥", [])]
    bar._show_answers(answers)
    # On a line of its own: four wide buttons beside it squeezed it into a narrow column.
    assert bar.question_above and bar.rows.indexOf(bar.confirm_label) == 0
    qtbot.waitUntil(lambda: bar.confirm_label.geometry().bottom()
                    <= bar.answer_box.geometry().top())
    assert bar.confirm_label.width() > bar.width() // 2
    bar._show_answers([("7♥", [])])  # answers again: the row keeps one stretch, not two
    parts = bar.button_row.count()
    bar._show_answers([])  # Yes / Fix… / No: the question beside them again
    assert not bar.question_above and bar.button_row.indexOf(bar.confirm_label) == 0
    assert bar.button_row.count() == parts and bar.rows.indexOf(bar.confirm_label) == -1


#: The question bar's room on a 1366 px screen: the live panel beside the report panel.
ROOM = 1366 - 440 - 40


def test_many_one_click_answers_wrap_into_rows_that_fit_a_small_screen(qtbot: QtBot) -> None:
    # A missed card's question offers the players and the misreads that explain it: eleven
    # answers in one row made the bar 2,100 px wide (wider than a 1366 x 768 screen, and
    # wider than 1920 x 1080), and the tenth and eleventh were not shown at all.
    from ui.panels import QuestionBar

    bar = QuestionBar()
    qtbot.addWidget(bar)
    labels = ["Ann", "Bob", "Cy", "Dee", "Ann's 4♣ was A♣", "Dee's 2♠ was 2♣",
              "Dee's 2♠ was 7♣", "nobody (6♣ as read)", "it was 9♣", "it was 5♣", "it was 9♠"]
    bar.show_pending([(1, "5♣ was not seen: who played it? (5♣ comes next)", {},
                       [(label, []) for label in labels])])
    assert [b.text() for b in bar.answer_buttons] == [
        *(f"{label}  [{i + 1}]" for i, label in enumerate(labels[:9])), *labels[9:]]
    assert bar.minimumSizeHint().width() <= ROOM
    assert bar.rows.indexOf(bar.answer_box) >= 0  # rows of their own, under the question
    # The places where a missed card would make a hand shown fit are the longest labels.
    places = [f"Bob played {c} before Dee's 10♠" for c in ("10♦", "10♣", "10♥", "A♦", "2♠")]
    bar.show_pending([(3, "Bob shows Q♠ J♠ 10♠ 8♠ 6♠ 2♠: was a card played and not seen? "
                          "(it breaks a rule as a play)", {},
                       [(label, []) for label in ["Bob", *places, "nobody (6♣ as read)"]])])
    assert bar.minimumSizeHint().width() <= ROOM
    # A player who never shows the card the log gives them: six places and "No".
    places = [f"Ann played {c} before Ann's Q♠" for c in ("9♣", "5♠", "8♥", "9♥", "10♦", "J♣")]
    bar.show_pending([(4, "Ann shows no hand: was a card of Ann's missed, Bob's 7♠ being a hand "
                          "shown? (Ann holds 1 card by the log and shows none)", {},
                       [(label, []) for label in [*places, "No: Ann still holds a card"]])])
    assert bar.minimumSizeHint().width() <= ROOM
    bar.show_pending([(2, "Ann played 6♥? (it would break a rule)", {},
                       [("6♥, not 9♥ before", []), ("6♥", [])])])
    assert bar.button_row.indexOf(bar.answer_box) >= 0  # few: beside Something else… / No
    assert [b.text() for b in bar.answer_buttons] == ["6♥, not 9♥ before  [1]", "6♥  [2]"]


def test_an_answer_that_picks_a_card_asks_for_it_then_logs_it_with_the_rest(
        qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    """"Dee: another card…" (a trick's card never read, of any suit): the person names Dee's
    card in a dialog set to Dee, and that play is logged before the card read after it."""
    from ui_helpers import later

    from ui.dialogs import PlayDialog
    from ui.worker import PICK
    from vision.pipeline.results import PICK as PIPELINE_PICK

    assert PICK == PIPELINE_PICK
    due = (5, "Dee's card before Ann's 9♦ was not seen: which was it?", play("Ann", "9D"),
           [("6♦", [play("Dee", "6D"), play("Ann", "9D")]),
            ("Dee: another card…", [play("Dee", PICK), play("Ann", "9D")])])
    feed = start(qtbot, window, store, [due])
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert [b.text() for b in window.answer_buttons] == ["6♦  [1]", "Dee: another card…  [2]"]
    seen: list[str] = []

    def name() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, PlayDialog)
        seen.extend([dlg.windowTitle(), dlg.player.currentText()])
        dlg.picker.toggle("2C")  # one click on the card picker

    def two() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, PlayDialog)
        dlg.cards.setText("2C 3C")

    window.answer_option(1, later(two))  # two cards named: said, nothing logged
    assert feed.answers == [] and "Pick one card" in window.status.currentMessage()
    with qtbot.waitSignal(window.eventLogged, timeout=5000):
        window.answer_option(1, later(name))
    assert seen == ["Which card did Dee play?", "Dee"]
    assert feed.answers == [(5, [{**play("Dee", "2C"), "source": "user"}, play("Ann", "9D")])]
    qtbot.waitUntil(lambda: not window.confirm_bar.isVisibleTo(window), timeout=5000)


def _picked_in_dialog(qtbot: QtBot, window: MainWindow, index: int, card: str) -> list[str]:
    """Answer ``index`` (one that picks a card), ``card`` clicked on the dialog's card
    picker, once it is logged: the dialog's title and the player it was set to."""
    from ui_helpers import later

    from ui.dialogs import PlayDialog

    seen: list[str] = []

    def name() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, PlayDialog)
        seen.extend([dlg.windowTitle(), dlg.player.currentText()])
        dlg.picker.toggle(card)

    with qtbot.waitSignal(window.eventLogged, timeout=5000):
        window.answer_option(index, later(name))
    return seen


def test_a_hand_shown_that_picks_a_card_asks_which_card_was_shown(
        qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    """"Bob shows another card…" (his last card, shown and never read): the person names
    the card Bob showed in a dialog set to Bob, and his hand shown is logged with it."""

    from ui.worker import PICK

    unseen = (7, "Bob shows no hand: was Bob's hand not seen?", play("Dee", "AH"),
              [("Bob shows another card…", [{"event": "reveal", "player": "Bob",
                                              "cards": [PICK]}])])
    feed = start(qtbot, window, store, [unseen])
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert _picked_in_dialog(qtbot, window, 0, "QH") == ["Which card did Bob show?", "Bob"]
    assert feed.answers == [(7, [{"event": "reveal", "player": "Bob", "cards": ["QH"],
                                  "source": "user"}])]


def test_a_card_picked_in_an_answers_second_event_is_logged_in_its_place(
        qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    """"Cy, then another card before this 5♠…" (his 7♣ missed, and a card laid on it): the
    person names Cy's second card, and it is logged between the 7♣ and the 5♠."""
    from ui.worker import PICK

    both = (8, "7♣ was not seen: who played it?", play("Cy", "5S"),
            [("Cy", [play("Cy", "7C"), play("Cy", "5S")]),
             ("Cy, then another card before this 5♠…",
              [play("Cy", "7C"), play("Cy", PICK), play("Cy", "5S")])])
    feed = start(qtbot, window, store, [both])
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert _picked_in_dialog(qtbot, window, 1, "JD") == ["Which card did Cy play?", "Cy"]
    assert feed.answers == [(8, [play("Cy", "7C"), {**play("Cy", "JD"), "source": "user"},
                                 play("Cy", "5S")])]


def test_a_card_picked_for_an_earlier_place_is_logged_in_that_place(
        qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    """"Cy: another card before Cy's K♣…" (too many cards fit in that place to offer): the
    person names Cy's card, and the answer's correction puts that play in the earlier place;
    the rest of the answer is logged as it is."""

    from ui.worker import PICK

    shown = {"event": "reveal", "player": "Cy", "cards": ["TS", "7D"]}
    moved = {"event": "correct", "line": 24, "with": play("Cy", "KC")}
    place = (6, "Confirm Cy's hand: 10♠ 7♦?", shown,
             [("Cy: another card before Cy's K♣…",
               [{"event": "correct", "line": 23, "with": play("Cy", PICK)}, moved, shown])])
    feed = start(qtbot, window, store, [place])
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert _picked_in_dialog(qtbot, window, 0, "4S") == ["Which card did Cy play?", "Cy"]
    assert feed.answers == [(6, [{"event": "correct", "line": 23,
                                  "with": {**play("Cy", "4S"), "source": "user"}},
                                 moved, shown])]


def test_a_card_picked_as_played_earlier_reaches_the_pipeline_with_its_mark(
        qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    """"Bob: another card, earlier…" (more places than are offered one by one): the person
    names Bob's card, and the play goes to the pipeline still marked ``placed: earlier``,
    which then logs it in the one place it fits or asks where."""
    from ui_helpers import later

    from ui.dialogs import PlayDialog
    from ui.worker import PICK
    from vision.pipeline.results import EARLIER

    shown = {"event": "reveal", "player": "Ann", "cards": ["2C", "QS"]}
    earlier = {**play("Bob", PICK), "placed": EARLIER}
    held = (7, "9♠ was not seen: who played it?", shown,
            [("Bob", [play("Bob", "9S"), shown]), ("Bob: another card, earlier…", [earlier])])
    feed = start(qtbot, window, store, [held])
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)

    def name() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, PlayDialog) and dlg.player.currentText() == "Bob"
        dlg.picker.toggle("KH")

    with qtbot.waitSignal(window.eventLogged, timeout=5000):
        window.answer_option(1, later(name))
    assert feed.answers == [(7, [{**play("Bob", "KH"), "placed": EARLIER, "source": "user"}])]


def test_nine_long_places_keep_the_window_within_a_small_screen(
        qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    """A missed card with nine places under its player's own cards, the player and a card
    to name: eleven long answers go two to a row, and the window still fits 1366 x 768."""
    from ui.worker import PICK

    places = [f"Ann played {c} before Ann's {d}" for c, d in
              (("2♦", "Q♣"), ("2♥", "Q♣"), ("J♠", "Q♠"), ("K♠", "4♦"), ("2♦", "4♦"),
               ("3♦", "4♦"), ("2♥", "4♦"), ("3♥", "4♦"), ("A♥", "4♦"))]
    answers = [("Ann", [play("Ann", "5D")]), *((p, [play("Ann", "3S")]) for p in places),
               ("Ann: another card…", [play("Ann", PICK), play("Bob", "2S")])]
    window.resize(1366, 768)
    start(qtbot, window, store, [(5, "5♦ was not seen: who played it?", play("Bob", "2S"),
                                  answers)])
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert len(window.answer_buttons) == 11
    hint = window.minimumSizeHint()
    assert hint.width() <= 1366 and hint.height() <= 768
    rows = {b.y() for b in window.answer_buttons}
    assert len(rows) == 6  # two to a row


def test_every_answer_of_a_long_question_shows_short_ones_sharing_rows(
        qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    """A missed card's question with sixteen answers (the nine cards due, the places a
    person names a card in, the misreads, and the reading as read): the bar cut them at
    twelve, so "nobody (2♥ as read)" was never on a button, and went one to a row, taller
    than the screen. Now every answer shows, short card names several to a row, and the
    window still fits 1366 x 768."""
    from ui.panels import answer_rows

    due = ["3♥", "4♥", "5♥", "6♥", "7♥", "9♥", "10♥", "J♥", "Q♥"]
    labels = [*due, "Dee: another card before Dee's 8♥…", "Dee: another card before Dee's A♠…",
              "Dee: another card before Ann's A♥…", "Dee: another card…", "Dee's 8♥ was 8♦",
              "Dee's 8♥ was 3♦", "nobody (2♥ as read)"]
    answers = [(label, [play("Dee", "3H")]) for label in labels]
    window.resize(1366, 768)
    start(qtbot, window, store, [(6, "Dee's card before Bob's 2♥ was not seen: which was it?",
                                  play("Bob", "2H"), answers)])
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert [b.text() for b in window.answer_buttons][-1] == "nobody (2♥ as read)"
    assert len(window.answer_buttons) == len(labels)
    hint = window.minimumSizeHint()
    assert hint.width() <= 1366 and hint.height() <= 768
    rows = {b.mapTo(window, b.rect().topLeft()).y() for b in window.answer_buttons}
    assert len(rows) <= 6  # one to a row, they took sixteen
    # In order, as many as fit: a wider answer than the room alone.
    assert answer_rows([100, 100, 100, 700, 900, 50], 400, 10) == [[0, 1, 2], [3], [4], [5]]


def test_a_question_of_more_answers_than_the_bar_holds_keeps_the_reading_as_read(
        qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    """More answers than the bar shows (`MAX_ANSWERS`): the least likely places go, never
    the reading as read, a card a person names, or "not a card"; the buttons are the ones
    a click or a key answers with."""
    from ui.worker import MAX_ANSWERS, fewest_answers

    due = [f"{r}♥" for r in ("3", "4", "5", "6", "7", "9", "10", "J", "Q", "K", "A")]
    places = [f"Dee's {r}♠ was {r}♣" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10",
                                               "J", "Q")]
    answers = ([(label, [play("Dee", "3H")]) for label in due]
               + [("Dee: another card…", [play("Dee", "?")])]
               + [(label, [play("Dee", "4H")]) for label in places]
               + [("nobody (2♥ as read)", [play("Bob", "2H")]), ("not a card", [])])
    assert len(answers) == 25
    kept = fewest_answers(answers, MAX_ANSWERS)
    labels = [label for label, _ in kept]
    assert len(kept) == MAX_ANSWERS
    assert labels[:11] == due and labels[11] == "Dee: another card…"
    assert labels[-2:] == ["nobody (2♥ as read)", "not a card"]
    assert labels[12:-2] == places[:6]  # the likeliest places, in order
    assert fewest_answers(answers[:5], MAX_ANSWERS) == answers[:5]
    feed = start(qtbot, window, store,
                 [(7, "Dee's card before Bob's 2♥ was not seen: which was it?",
                   play("Bob", "2H"), answers)])
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert [b.text().split("  [")[0] for b in window.answer_buttons] == labels
    window.answer_buttons[-2].click()
    qtbot.waitUntil(lambda: bool(feed.answers), timeout=5000)
    assert feed.answers[-1] == (7, [play("Bob", "2H")])


def test_the_window_keeps_the_reading_as_the_table_labels_it(tmp_path: Path) -> None:
    """The bar recognises the reading's own answer by the label the table gives it (`ui`
    imports no vision package to do so): the table's "nobody (4♣ as read)" is one the bar
    always keeps, as a lookalike's ("it was 3♣"), and a missed card's places not."""
    from test_pipeline_questions import at, join, new_pipe, run

    from ui.worker import kept_answer

    pipe, det = new_pipe(tmp_path)
    run(pipe, det, [at(1, "2C")] * 8, 0.0)
    run(pipe, det, [join(*[at(1, "2C"), at(2, "4C")])] * 8, 1.0)
    [held] = pipe.pending.values()
    kept = {a.label for a in held.options if kept_answer(a.label, list(a.events))}
    # The reading's own answers log it alone (as read, or as a lookalike: "it was 3♣"); a
    # missed card's log that card, then the reading.
    own = {a.label for a in held.options if len(a.events) == 1}
    assert "nobody (4♣ as read)" in own and len(own) < len(held.options)
    assert kept == own
