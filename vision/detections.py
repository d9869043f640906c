"""The `Detections` value: what the detector saw in one frame, as parallel numpy arrays.

Modelled on supervision's `Detections`: boxes, scores and class ids side by side, validated on
construction and filtered with boolean masks. Class ids index `companion.cards.CARD_CODES`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.cards import CARD_CODES


@dataclass(frozen=True)
class Detections:
    """Detections of one frame.

    - ``xyxy``: float32 array (N, 4) of boxes in image pixels, x1 y1 x2 y2;
    - ``confidence``: float32 array (N,) in 0..1;
    - ``class_id``: int array (N,) indexing ``names``;
    - ``names``: the class names (the card codes for the card detector).
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    names: tuple[str, ...] = CARD_CODES
    data: dict[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        xyxy = np.asarray(self.xyxy, dtype=np.float32).reshape(-1, 4)
        conf = np.asarray(self.confidence, dtype=np.float32).reshape(-1)
        cls = np.asarray(self.class_id, dtype=np.int64).reshape(-1)
        if not (len(xyxy) == len(conf) == len(cls)):
            raise ValueError(
                f"Detections arrays differ in length: xyxy {len(xyxy)}, "
                f"confidence {len(conf)}, class_id {len(cls)}"
            )
        if len(cls) and (cls.min() < 0 or cls.max() >= len(self.names)):
            raise ValueError(f"class_id out of range 0..{len(self.names) - 1}: {cls.tolist()}")
        for key, arr in self.data.items():
            if len(arr) != len(cls):
                raise ValueError(f"Detections.data[{key!r}] has {len(arr)} rows, "
                                 f"expected {len(cls)}")
        object.__setattr__(self, "xyxy", xyxy)
        object.__setattr__(self, "confidence", conf)
        object.__setattr__(self, "class_id", cls)

    @classmethod
    def empty(cls, names: tuple[str, ...] = CARD_CODES) -> Detections:
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64),
                   names)

    def __len__(self) -> int:
        return len(self.class_id)

    def __getitem__(self, index: Any) -> Detections:
        """Select rows with a boolean mask, an index array or a slice."""
        if isinstance(index, int):
            index = [index]
        return Detections(self.xyxy[index], self.confidence[index], self.class_id[index],
                          self.names, {k: v[index] for k, v in self.data.items()})

    @property
    def labels(self) -> list[str]:
        """The class name of every row (card codes)."""
        return [self.names[i] for i in self.class_id]

    @property
    def centers(self) -> np.ndarray:
        """(N, 2) box centres in pixels."""
        return np.column_stack([(self.xyxy[:, 0] + self.xyxy[:, 2]) / 2,
                                (self.xyxy[:, 1] + self.xyxy[:, 3]) / 2])

    def __iter__(self) -> Iterator[tuple[str, tuple[float, float, float, float], float]]:
        for box, score, cid in zip(self.xyxy, self.confidence, self.class_id, strict=True):
            yield self.names[cid], (float(box[0]), float(box[1]), float(box[2]), float(box[3])), \
                float(score)

    def to_json(self) -> list[dict[str, Any]]:
        """Rows as DESIGN.md's detector output: ``{"card", "box", "score"}``."""
        return [{"card": name, "box": [round(v, 1) for v in box], "score": round(score, 3)}
                for name, box, score in self]
