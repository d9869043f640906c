"""What the tests that rasterise real deck designs need, as skip markers with their reasons.

A design is drawn from its SVG by cairosvg (the ``decks`` extra, in ``[test]``) over libcairo,
from the Debian deck packages; a machine lacking either skips those tests and says which."""

from __future__ import annotations

import pytest

from vision.render import decks


def svg_renderer_missing() -> str | None:
    """Why deck SVGs cannot be rasterised here, or None when they can."""
    try:
        import cairosvg  # noqa: F401
    except ModuleNotFoundError:
        return "cairosvg not installed (pip install -e '.[decks]')"
    except OSError as exc:  # cairocffi found no libcairo
        return f"libcairo not loadable ({exc}; apt install libcairo2)"
    return None


def decks_missing(*names: str) -> str | None:
    """Why the deck designs ``names`` cannot be drawn here, or None when they can."""
    absent = [n for n in names if n not in decks.available_decks()]
    if absent:
        return f"deck designs {absent} not installed (apt install kdegames-card-data-kf5)"
    return svg_renderer_missing()


_why = decks_missing("standard")
#: Marks a test that draws cards of the ``standard`` design from its SVG.
needs_decks = pytest.mark.skipif(_why is not None, reason=_why or "")
