"""Test-wide settings: Qt runs offscreen, no test may touch a real camera or the network."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("YOLO_OFFLINE", "1")
