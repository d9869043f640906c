"""Events typed in and corrected in the window (pytest-qt, offscreen): a correction that changes
the ledger, clicking a misread card, a missed play added, an Oh Claire bid and end of round typed
in, and readings the pipeline holds for confirmation fixed before they are logged."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot
from ui_helpers import later

from companion.referee import replay_dicts
from ui.demo import DemoTable
from ui.dialogs import DummyDialog, PlayDialog
from ui.store import GameSession, GameStore
from ui.window import MainWindow


@pytest.fixture
def window(window: MainWindow) -> MainWindow:
    """The shared window (conftest), at a size where every panel shows."""
    window.resize(1400, 900)
    return window


# --- corrections --------------------------------------------------------------------------------
def _load_game(window: MainWindow, store: GameStore, upto: int, game: str = "michigan-rummy",
               seed: int = 4) -> tuple[GameSession, list[dict]]:
    events = DemoTable.simulated(game, seed=seed, rounds=2, mistakes=0.1).events
    session = store.new_game(events[0])
    for ev in events[1:upto]:
        session.append(ev)
    session.close(finished_by_user=False)
    window.resume(session.folder)
    window.stop_feed()  # a camera game with no camera: only the window writes
    assert window.session is not None
    return window.session, events


def test_correction_changes_the_ledger(qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    session, events = _load_game(window, store, upto=30)
    dummy = next(e for e in session.effective() if e.kind == "dummy")
    dealer = next(e for e in session.effective() if e.kind == "round").get("dealer")
    buyer = next(p for p in session.players if p != dealer)
    before = dict(window.session.report()["chips"])  # type: ignore[union-attr]

    def sell() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, DummyDialog)
        dlg.sell.setChecked(True)
        dlg.buyer.setCurrentText(str(buyer))
        dlg.price.setValue(3)

    with qtbot.waitSignal(window.refreshed, timeout=5000, raising=True):
        window.fix_event(dummy.line, later(sell))
    last = session.events[-1]
    assert last.kind == "correct" and last.get("line") == dummy.line
    after = session.report()["chips"]
    assert after[buyer] == before[buyer] - 3
    assert after[str(dealer)] == before[str(dealer)] + 3
    # the chip table shows the new numbers
    rows = {window.chips_model.index(r, 0).data(Qt.ItemDataRole.UserRole):
            window.chips_model.index(r, 1).data() for r in range(window.chips_model.rowCount())}
    assert rows[buyer] == str(after[buyer])
    # undo takes the correction's target event away (the dummy choice), as an event too
    n = len(session.events)
    window.undo()
    assert len(session.events) == n + 1 and session.events[-1].kind == "correct"


def test_clicking_a_misread_card_fixes_it(qtbot: QtBot, window: MainWindow,
                                          store: GameStore) -> None:
    session, events = _load_game(window, store, upto=12)
    table = DemoTable(events, start=12)
    window.profile = table.profile
    window.live.set_profile(table.profile, session.players)
    img, marks = table.frame()
    window.live.set_frame(img, marks)
    plays = [e for e in session.effective() if e.kind == "play"]
    target = plays[-1]
    code = target.get("card")
    mark = next(m for m in reversed(marks) if m.code == code)
    xs = [p[0] for p in mark.polygon]
    ys = [p[1] for p in mark.polygon]
    centre = window.live.to_widget(sum(xs) / 4 + 6, sum(ys) / 4)
    assert window.live.mark_at(centre) is not None
    wrong = next(c for c in ("2S", "3S", "4S") if c != code)
    clicked: list[str] = []
    window.live.cardClicked.disconnect()
    window.live.cardClicked.connect(clicked.append)
    qtbot.mouseClick(window.live, Qt.MouseButton.LeftButton,
                     pos=QPoint(int(centre.x()), int(centre.y())))
    assert clicked and clicked[0] == window.live.mark_at(centre).code  # type: ignore[union-attr]

    def retype() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, PlayDialog)
        assert dlg.cards.codes() == [code]
        dlg.cards.setText(wrong)

    window.fix_card(str(code), later(retype))
    fixed = session.event_at(target.line)
    assert fixed is not None and fixed.get("card") == wrong
    assert fixed.get("player") == target.get("player")


def test_missed_play_is_added(qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    session, events = _load_game(window, store, upto=8)
    turn = session.turn()
    nxt = events[8]

    def fill() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, PlayDialog)
        dlg.player.setCurrentText(str(nxt.get("player")))
        dlg.cards.setText(" ".join(nxt.get("cards") or [nxt["card"]]))

    if nxt["event"] != "play":
        pytest.skip("seed changed: event 8 is not a play")
    assert turn is None or isinstance(turn, str)
    window.enter(window._play_dialog, later(fill))
    ev = session.events[-1]
    assert ev.kind == "play" and ev.get("player") == nxt["player"]
    assert ev.get("source") == "user"
    assert replay_dicts(events[:9]).report()["chips"] == session.report()["chips"]


def test_oh_claire_bid_and_end_of_round_are_typed_in(qtbot: QtBot, window: MainWindow,
                                                      store: GameStore) -> None:
    from ui.dialogs import BidDialog, EndRoundDialog

    session, events = _load_game(window, store, upto=3, game="oh-claire", seed=2)
    assert [e.kind for e in session.events] == ["game", "round", "trump"]
    assert window.act_bid.isEnabled() and not window.act_dummy.isVisible()
    bid = events[3]
    assert bid["event"] == "bid"

    def fill() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, BidDialog)
        dlg.player.setCurrentText(bid["player"])
        dlg.tricks.setValue(bid["tricks"])

    window.enter(window._bid_dialog, later(fill))
    got = dict(session.events[-1].data)
    assert got.pop("source") == "user" and got == bid
    assert session.report() == replay_dicts(events[:4]).report()
    # the end of a round: cards shown, nobody out, the next dealer starts the next round
    dealer = events[1]["dealer"]

    def end() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, EndRoundDialog)
        assert dlg.dealer.currentText() != dealer  # the deal passes on
        dlg.hands[session.players[0]].setText("2c 10♦")
        dlg.nobody_out.setChecked(True)

    window.enter(window._end_dialog, later(end))
    kinds = [e.kind for e in session.events[-3:]]
    assert kinds == ["reveal", "end-round", "round"]
    assert session.events[-3].get("cards") == ["2C", "TD"]


# --- readings the pipeline holds for confirmation ----------------------------------------------
class HeldReadingFeed:
    """A stand-in camera feed: one frame, one reading held for confirmation, then idle."""

    def __init__(self, profile: object, log: object) -> None:
        self.profile = profile
        self.interval_ms = 5
        self.log = log  # the session's own log: one writer object for every thread
        self.ticks = 0
        self.answers: list[tuple[int, object]] = []

    def tick(self):  # type: ignore[no-untyped-def]
        from ui.worker import FramePacket, Tick

        self.ticks += 1
        if self.ticks == 1:
            img = np.zeros((480, 640, 3), np.uint8)
            held = (7, "Confirm Bob: 2♥? (low confidence 0.41)",
                    {"event": "play", "player": "Bob", "card": "2H"})
            return Tick(FramePacket(img), pending=[held])
        return Tick()

    def answer(self, pending_id: int, event: dict | None) -> list:  # type: ignore[type-arg]
        from ui.worker import SeenEvent

        self.answers.append((pending_id, event))
        if event is None:
            return []
        line = self.log.append(event)  # type: ignore[attr-defined]
        return [SeenEvent(dict(event), None, line)]

    def close(self) -> None:
        pass


def test_a_held_reading_is_confirmed_with_a_fix(qtbot: QtBot, window: MainWindow,
                                                store: GameStore) -> None:
    events = DemoTable.simulated("michigan-rummy", seed=4, rounds=1).events
    session = store.new_game(events[0])
    for ev in events[1:3]:  # game, round, dummy
        session.append(ev)
    session.close(finished_by_user=False)   # one writer: the window takes the log over
    window.resume(session.folder)
    window.stop_feed()
    live = window.session
    assert live is not None
    table = DemoTable(events)
    feed_box: list[HeldReadingFeed] = []

    def make() -> HeldReadingFeed:
        feed_box.append(HeldReadingFeed(table.profile, live.log))
        return feed_box[0]

    window._start_feed(make)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert "2♥" in window.confirm_label.text()
    first = events[3]

    def fix() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, PlayDialog)
        dlg.player.setCurrentText(first["player"])
        dlg.cards.setText(first["card"])

    with qtbot.waitSignal(window.eventLogged, timeout=5000, raising=True) as blocker:
        window.fix_pending(later(fix))
    line = blocker.args[0]
    assert feed_box[0].answers == [(7, {"event": "play", "player": first["player"],
                                        "card": first["card"], "source": "user"})]
    assert live.event_at(line).get("card") == first["card"]  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: not window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert live.report()["chips"] == replay_dicts(events[:4]).report()["chips"]
    # a person's entry after the feed's write gets the next line, not the same one
    added = window.append_events([dict(events[4])])
    assert added == [line + 1]


def test_a_hand_read_short_is_typed_in_from_what_the_second_look_read(
        qtbot: QtBot, window: MainWindow) -> None:
    """Dee's hand of 8 read as J♣ 9♠, a second look reading five more of it: Fix… opens on
    those seven cards read, not the two, so a person adds the one missed rather than
    typing the hand whole. A reading with nothing more to start from opens on itself."""
    from PySide6.QtCore import QTimer

    hand = {"event": "reveal", "player": "Dee", "cards": ["JC", "9S"]}
    draft = ["JC", "9S", "TD", "4H", "AH", "AD", "2D"]
    opened: list[tuple[str, list[str]]] = []

    def look(dlg: object) -> None:
        assert isinstance(dlg, PlayDialog)

        def go() -> None:
            opened.append((dlg.kind, dlg.cards.codes()))
            dlg.reject()
        QTimer.singleShot(0, go)

    window.pending = [(8, "Confirm Dee's hand: J♣ 9♠? (Dee holds 8 cards, the reveal shows 2)",
                       hand, [], draft)]
    window.fix_pending(look)
    window.pending = [(9, "Confirm Dee's hand: J♣ 9♠?", hand, [], [])]
    window.fix_pending(look)
    window.pending = []
    assert opened == [("reveal", draft), ("reveal", ["JC", "9S"])]


def test_a_held_reading_can_be_fixed_into_a_revealed_hand(qtbot: QtBot) -> None:
    """A hand shown at the round's end and read short of a card is held as a play; the fix
    dialog lets the person say the cards were a hand shown, and enter all of them."""
    dlg = PlayDialog(["Ann", "Bob"], "Bob", "KH QH TH", title="What was laid down?",
                     choose_kind=True)
    qtbot.addWidget(dlg)
    assert dlg.kind_combo is not None and dlg.kind == "play"
    dlg.kind_combo.setCurrentIndex(1)
    dlg.cards.setText("TH JH QH KH")
    (ev,) = dlg.events()
    assert ev["event"] == "reveal" and ev["player"] == "Bob"
    assert ev["cards"] == ["TH", "JH", "QH", "KH"]
    plain = PlayDialog(["Ann", "Bob"], "Bob", "KH")
    qtbot.addWidget(plain)
    assert plain.kind_combo is None and plain.events()[0] == {
        "event": "play", "player": "Bob", "card": "KH", "source": "user"}


def test_the_end_of_round_dialog_says_who_has_shown_no_hand(
        qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    """Once a player is out by the log, the End of round dialog says who holds cards by the
    log and has shown no hand, with how many (a last play the camera never saw leaves its
    player holding one: the round's chips depend on it); nothing while the round goes on."""
    from ui.dialogs import EndRoundDialog

    events = DemoTable.simulated("michigan-rummy", seed=4, rounds=2, mistakes=0.1).events
    first = next(i for i, e in enumerate(events) if e.get("event") == "reveal")
    session, _ = _load_game(window, store, upto=first + 1)
    shown = str(events[first]["player"])
    counts = replay_dicts(events[:first + 1]).referee.state.counts  # type: ignore[union-attr]
    held = {p: n for p, n in counts.items() if n and p != shown}
    assert held
    dlg = window._end_dialog()
    assert isinstance(dlg, EndRoundDialog) and dlg.note is not None
    for p, n in held.items():
        assert f"{p} holds {n} card{'s' if n != 1 else ''}" in dlg.note.text()
    assert f"{shown} holds" not in dlg.note.text()
    assert "Missed play" in dlg.note.text()
    session.close(finished_by_user=False)
    session, _ = _load_game(window, store, upto=first - 3)
    dlg = window._end_dialog()
    assert isinstance(dlg, EndRoundDialog) and dlg.note is None
