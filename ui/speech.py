"""Speaking announcements aloud: QtTextToSpeech where a real engine works, else espeak-ng,
else silence. Speaking never blocks the window (espeak-ng runs as a separate process).
"""

from __future__ import annotations

import shutil
import subprocess

from PySide6.QtCore import QObject

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
        """Speak ``text`` now (cutting off a sentence still being spoken), if enabled."""
        if not self.enabled or not text:
            return
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
