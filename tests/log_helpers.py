"""Comparing an event log the camera wrote with the ground truth: the fields only the vision
adds are dropped, and the orders a camera cannot know are made canonical."""

from __future__ import annotations

from typing import Any

#: Fields the pipeline adds to an event (frame time, confidence, the source frame `watch` read
#: it in) or the renderer's truth has.
EXTRA = ("t", "confidence", "t_placed", "t_free", "frame")


def normalise(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drop the vision's extra fields; a multi-card play keeps its first card (GL-3) and a
    revealed hand is a set of cards (its order is not something a camera can know)."""
    out = []
    for ev in events:
        row = {k: v for k, v in ev.items() if k not in EXTRA}
        if row.get("event") == "play" and "cards" in row:
            row["cards"] = row["cards"][:1] + sorted(row["cards"][1:])  # GL-3: first is fixed
        if row.get("event") == "reveal":
            row["cards"] = sorted(row["cards"])
        out.append(row)
    return out
