"""Test-wide settings: Qt runs offscreen, no test may touch a real camera or the network."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The diagnostic log and saved games go to a folder of the test run, never the user's.
os.environ.setdefault("COMPANION_DATA_DIR", tempfile.mkdtemp(prefix="companion-tests-"))
os.environ.setdefault("YOLO_OFFLINE", "1")
