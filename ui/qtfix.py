"""A guard against a PySide6 6.12 defect on Python 3.11: every call of a Qt method that returns
nothing drops one reference to ``None`` that it never took, so a painting window would run
``None``'s count down to zero and abort ("none_dealloc") after some minutes.

`guard_none_refcount` keeps that count far from zero (None is a static singleton that is never
freed, so extra references cost nothing); on Python 3.12+ None is immortal and this does nothing.
"""

from __future__ import annotations

import ctypes
import sys

#: Keep None's reference count above this; raised back to twice this when it falls below.
FLOOR = 50_000_000
_timer: object | None = None


def none_refcount() -> int:
    return sys.getrefcount(None)


def top_up_none(floor: int = FLOOR) -> int:
    """Raise None's reference count to ``2 * floor`` when it is below ``floor``.

    Returns how many references were added (0 on Python 3.12+, where None is immortal).
    """
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return 0
    n = sys.getrefcount(None)
    if n >= floor:
        return 0
    add = 2 * floor - n
    # ob_refcnt is the first field of every CPython object (a Py_ssize_t).
    ctypes.c_ssize_t.from_address(id(None)).value += add
    return add


def guard_none_refcount(interval_ms: int = 5000) -> None:
    """Top up now and every ``interval_ms`` on the GUI thread (idempotent)."""
    global _timer
    top_up_none()
    if _timer is not None or sys.version_info >= (3, 12):
        return
    from PySide6.QtCore import QCoreApplication, QTimer

    app = QCoreApplication.instance()
    if app is None:
        return
    timer = QTimer(app)
    timer.timeout.connect(lambda: top_up_none())
    timer.start(interval_ms)
    _timer = timer
