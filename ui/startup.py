"""Before Qt starts: can it open a window here, and what `companion` does when it cannot.

Qt aborts the whole process (a core dump, exit 134) when its platform plugin cannot load, and
its message blames the wrong libraries. So the window asks first, without loading Qt: with no
display at all it plays the demo table in the terminal, printing the announcements; with a
display but system libraries missing it names them, and their Debian packages, in one line.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

#: What `qt_platform_problem` returns when there is no screen to show a window on.
NO_DISPLAY = "no display"

#: Whether the terminal demo deals its cards at the pace of a real table (tests set False).
PACE_TO_CLOCK = True

#: Libraries whose Debian package name does not follow from the file name.
_PACKAGES = {"libglib-2.0.so.0": "libglib2.0-0", "libgthread-2.0.so.0": "libglib2.0-0",
             "libgobject-2.0.so.0": "libglib2.0-0"}


def debian_package(soname: str) -> str:
    """The Debian package that ships a library: ``libxcb-icccm.so.4`` -> ``libxcb-icccm4``."""
    if soname in _PACKAGES:
        return _PACKAGES[soname]
    m = re.fullmatch(r"(lib.+?)\.so\.(\d+)(?:\.\d+)*", soname)
    if not m:
        return soname
    base, version = m.group(1).lower(), m.group(2)
    return f"{base}-{version}" if base[-1].isdigit() else f"{base}{version}"


def _plugin(name: str) -> Path | None:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "Qt" / "plugins" / "platforms"
    found = path / f"libq{name}.so"
    return found if found.exists() else None


def missing_libraries(platform: str) -> list[str]:
    """The system libraries Qt's ``platform`` plugin (``xcb``, ``wayland``) needs and this
    machine lacks, as ``ldd`` finds them; empty when none are missing or it cannot tell."""
    plugin, ldd = _plugin(platform), shutil.which("ldd")
    if plugin is None or ldd is None:
        return []
    try:
        out = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=10,
                             check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return not_found(out)


def not_found(ldd_output: str) -> list[str]:
    """The libraries ``ldd`` could not find (``libxcb-icccm.so.4 => not found``)."""
    return sorted({m.group(1) for m in re.finditer(r"^\s*(\S+)\s+=>\s+not found", ldd_output,
                                                   re.M)})


def _x_server_there(display: str) -> bool:
    """Whether the X display named by ``$DISPLAY`` can be there: a local one (``:0``) has
    its socket; a remote one (``host:0``) is assumed to."""
    m = re.fullmatch(r"(?:unix)?:(\d+)(?:\.\d+)?", display.strip())
    return m is None or Path(f"/tmp/.X11-unix/X{m.group(1)}").exists()


def qt_platform_problem(env: Mapping[str, str] | None = None, system: str | None = None,
                        missing: Callable[[str], list[str]] | None = None) -> str | None:
    """None when Qt can open a window here; `NO_DISPLAY` when there is no screen at all;
    otherwise one line for people naming the missing libraries and how to install them."""
    env = os.environ if env is None else env
    if not (system or sys.platform).startswith("linux"):
        return None
    wanted = env.get("QT_QPA_PLATFORM", "").split(":")[0].split(";")[0].strip()
    if wanted and wanted not in ("xcb", "wayland", "wayland-egl"):
        return None  # offscreen, vnc, eglfs...: no display server needed
    x11 = bool(env.get("DISPLAY")) and _x_server_there(env.get("DISPLAY", ""))
    wayland = bool(env.get("WAYLAND_DISPLAY"))
    candidates = [p for p, there in (("wayland", wayland), ("xcb", x11))
                  if there and (not wanted or wanted.startswith(p))]
    if not candidates:
        return NO_DISPLAY
    lacking: list[str] = []
    for platform in candidates:
        libs = (missing or missing_libraries)(platform)
        if not libs:
            return None  # Qt starts with this one
        lacking = lacking or libs
    packages = " ".join(dict.fromkeys(debian_package(s) for s in lacking))
    return (f"companion: the window cannot open: Qt's {candidates[-1]} display support needs "
            f"{', '.join(lacking)}, missing here (Debian/Ubuntu: sudo apt install {packages})")


def terminal_demo(game: str = "michigan-rummy", seed: int = 1, out: TextIO | None = None,
                  realtime: bool | None = None, detector: str = "model") -> int:
    """The demo table without a window: its cards read (by the shipped models, as at a real
    table; ``detector="truth"``: by the renderer's own truth) and refereed, the announcements
    printed as they come (what a machine with no display can show). Frames come at the pace
    of a real table (``realtime``, default `PACE_TO_CLOCK`) but none is skipped: where the
    reading is slower than the table, the demo table waits for it."""
    from calibration.calibrate import calibrate
    from companion.events import describe_event
    from vision.pipeline.results import FrameResult
    from vision.pipeline.table import TablePipeline
    from vision.readers.load import demo_readers
    from vision.render.demo import demo_source

    stream = out or sys.stdout
    pace = PACE_TO_CLOCK if realtime is None else realtime
    print(f"No display here, so no window: this is the demo table ({game}), bots playing "
          "cards that the companion reads, referees and announces. Ctrl+C stops.",
          file=stream, flush=True)
    source, truth = demo_source(seed, game=game, realtime=pace)
    first = source.video.render(0.0).image
    profile = calibrate([first, first, first], game, len(source.video.players))
    reader, name, look = demo_readers(source, detector)
    print(f"The cards are read by {name}.", file=stream, flush=True)

    def show(res: FrameResult) -> None:
        for _line, ev in res.events:  # what happened, then what the referee says of it
            print(describe_event(dict(ev)), file=stream, flush=True)
        for text in res.announcements:
            print(f"    {text}", file=stream, flush=True)
        for held in res.pending:
            if held.id not in asked:
                asked.add(held.id)
                print(f"    (to confirm: {held.question})", file=stream, flush=True)

    asked: set[int] = set()
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as folder:
        pipe = TablePipeline(profile, reader, None, Path(folder) / "demo.jsonl",
                             script=truth.script, second_look=look)
        try:
            pipe.run(source, None, show, realtime=False)
        except KeyboardInterrupt:
            return 130
        for text in pipe.finish():
            print(f"    {text}", file=stream, flush=True)
        waiting = list(pipe.pending.values())
    if waiting:
        print(f"{len(waiting)} reading(s) still wait for a person to confirm: "
              + "; ".join(h.question for h in waiting), file=stream, flush=True)
    print("The demo is over. On a machine with a screen, `companion` opens the window.",
          file=stream, flush=True)
    return 0
