"""Speaking announcements aloud: QtTextToSpeech where a real engine works, else espeak-ng,
else silence. Cards are said in words ("king of hearts", not "K♥"). Speaking never blocks the
window (espeak-ng runs as a separate process).
"""

from __future__ import annotations

import re
import shutil
import subprocess

from PySide6.QtCore import QObject

from companion.cards import RANK_NAMES, RANKS, Card

_RANK = r"(?:10|[2-9JQKA])"
#: Cards as people write them (``10♦``, ``A♠``), one or several separated by spaces.
_CARDS = re.compile(rf"{_RANK}[♣♦♥♠](?:\s+{_RANK}[♣♦♥♠])*")
#: Ranks joined by hyphens, as in cup names and straights (``8-9-10``, ``Q-K``, ``A-2-3-4-5``).
_RANK_RUN = re.compile(rf"(?<![\w-]){_RANK}(?:-{_RANK})+(?![\w-])")


def _rank_word(rank: str) -> str:
    return RANK_NAMES[10 if rank == "10" else RANKS.index(rank) + 2]


def speech_text(text: str) -> str:
    """``text`` as it should be said: cards and runs of ranks in words.

    >>> speech_text("Bob wins Q-K hearts: 4 chips. Next: A♥")
    'Bob wins queen king hearts: 4 chips. Next: ace of hearts'
    >>> speech_text("Pair of nines (9♥ 9♠)")
    'Pair of nines (nine of hearts, nine of spades)'
    """
    text = _CARDS.sub(lambda m: ", ".join(Card.parse(c).spoken() for c in m.group().split()),
                      text)
    return _RANK_RUN.sub(lambda m: " ".join(_rank_word(r) for r in m.group().split("-")), text)

#: QtTextToSpeech engines that make no sound (kept out of the choice).
_SILENT_ENGINES = frozenset({"mock"})


class Speaker(QObject):
    """Says short sentences. ``enabled`` is the user's setting; ``backend`` says what speaks."""

    def __init__(self, enabled: bool = False, parent: QObject | None = None,
                 allow_qt: bool = True) -> None:
        super().__init__(parent)
        self.enabled = enabled
        self._tts: object | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._allow_qt = allow_qt
        self._backend: str | None = None  # chosen on first use (loading engines is slow)
        self.spoken: list[str] = []

    @property
    def backend(self) -> str:
        """"qt", "espeak-ng" or "silent": what speaks on this machine."""
        if self._backend is None:
            if self._allow_qt and self._try_qt():
                self._backend = "qt"
            elif shutil.which("espeak-ng"):
                self._backend = "espeak-ng"
            else:
                self._backend = "silent"
        return self._backend

    def _try_qt(self) -> bool:
        try:
            from PySide6.QtTextToSpeech import QTextToSpeech
        except ImportError:
            return False
        for engine in QTextToSpeech.availableEngines():
            if engine in _SILENT_ENGINES:
                continue
            tts = QTextToSpeech(engine, self)
            if tts.state() != QTextToSpeech.State.Error:
                self._tts = tts
                return True
            tts.deleteLater()
        return False

    def say(self, text: str) -> None:
        """Speak ``text`` now (cutting off a sentence still being spoken), if enabled; cards
        are said in words. ``spoken`` records what was said."""
        if not self.enabled or not text:
            return
        text = speech_text(text)
        self.spoken.append(text)
        if self.backend == "qt" and self._tts is not None:
            from PySide6.QtTextToSpeech import QTextToSpeech
            assert isinstance(self._tts, QTextToSpeech)
            self._tts.say(text)
        elif self.backend == "espeak-ng":
            self.stop()
            try:
                self._proc = subprocess.Popen(["espeak-ng", "-s", "150", text],
                                              stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL)
            except OSError:
                self._backend = "silent"

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                self._proc.kill()
        self._proc = None
