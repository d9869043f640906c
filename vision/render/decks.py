"""Real deck designs on this machine: find them and rasterise single cards from their SVG.

The designs are the Debian ``kdegames-card-data-kf5`` decks (``/usr/share/carddecks``),
aisleriot's ``bonded`` deck, and decks of one SVG file per card (a ``cards-NAME`` folder holding
``2C.svg`` ... ``AS.svg`` and ``back.svg``: `vision.training.npm_decks` makes two from npm
packages). One card is cut out of a deck's sheet by pruning the SVG to that card's element
(plus what it references), rendering it with cairosvg and cropping to its alpha.
Renders are cached in memory and on disk (``$MICHIGAN_CACHE`` or ``~/.cache/michigan-companion``).
"""

from __future__ import annotations

import copy
import gzip
import os
import re
import threading
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from companion.cards import CARD_CODES

#: The user's own folder of decks of one file per card (`vision.training.npm_decks` writes
#: there): ``$MICHIGAN_DECKS`` or ``~/.local/share/carddecks``.
USER_DECKS = Path(os.environ.get("MICHIGAN_DECKS")
                  or Path.home() / ".local" / "share" / "carddecks")

#: Folders searched for deck designs (KDE card decks, aisleriot, the user's own).
DECK_DIRS: tuple[Path, ...] = (
    Path("/usr/share/carddecks"),
    Path("/usr/local/share/carddecks"),
    Path("/usr/share/aisleriot/cards"),
    USER_DECKS,
)

#: The folder prefix of a deck of one SVG file per card (``cards-NAME/QH.svg``).
CARD_FOLDER = "cards-"

#: Designs that are not ordinary 52-card decks and are never used: German suits
#: (``xskat-german``), and ``future``, whose landscape sci-fi cards have no usual indices.
EXCLUDED_DECKS: frozenset[str] = frozenset({"xskat-german", "future"})

#: Designs kept out of training entirely, to measure generalisation to decks never seen.
HELDOUT_DECKS: list[str] = ["dondorf", "tigullio-international"]

#: Designs used to render training scenes (those of them found on this machine).
TRAIN_DECKS: list[str] = [
    "ancient-egyptians", "bonded", "gm-paris", "jolly-royal", "konqi-modern",
    "nicu-ornamental", "nicu-white", "oxygen", "oxygen-air", "oxygen-white", "penguins",
    "standard", "xskat-french", "aguilar", "kennard",
]

#: Designs that print no rank-and-suit index in a corner: the ``oxygen`` family shows the rank
#: alone at the top right and a small suit apart at the bottom left (seen by eye). Their
#: corners cannot be labelled as indices; the index reader's training scenes leave them out.
SPLIT_INDEX_DECKS: frozenset[str] = frozenset({"oxygen", "oxygen-air", "oxygen-white"})

#: Designs that print the index in all four corners, the top-right one upright and the
#: bottom-left one turned half a turn (seen by eye; `corner_index_boxes`).
FOUR_INDEX_DECKS: frozenset[str] = frozenset({"dondorf", "xskat-french"})

#: The height (px) at which a card is rasterised once; smaller requests are resized from it.
BASE_HEIGHT = 480

_RANK_WORDS = {"A": "1", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
_SUIT_WORDS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
_XLINK = "{http://www.w3.org/1999/xlink}href"
_REF = re.compile(r"url\(\s*#([^)\s]+)\s*\)")
_lock = threading.Lock()


def _deck_files() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for base in DECK_DIRS:
        if not base.is_dir():
            continue
        for sub in sorted(base.iterdir()):
            if sub.is_dir() and sub.name.startswith(CARD_FOLDER):
                if all((sub / f"{c}.svg").is_file() for c in (*CARD_CODES, "back")):
                    found.setdefault(sub.name[len(CARD_FOLDER):], sub)
            elif sub.is_dir() and sub.name.startswith("svg-"):
                files = sorted(sub.glob("*.svgz")) + sorted(sub.glob("*.svg"))
                if files:
                    found.setdefault(sub.name[4:], files[0])
            elif sub.is_file() and sub.suffix in (".svgz", ".svg"):
                found.setdefault(sub.name.split(".")[0], sub)
    return {k: v for k, v in found.items() if k not in EXCLUDED_DECKS}


@lru_cache(maxsize=1)
def _deck_index() -> dict[str, Path]:
    return _deck_files()


def available_decks() -> list[str]:
    """Names of the deck designs found on this machine (e.g. ``"oxygen"``, ``"bonded"``)."""
    return sorted(_deck_index())


def element_id(deck: str, code: str) -> str:
    """The SVG element id of card ``code`` (``"QH"``) in ``deck``; ``"back"`` for the back."""
    if code == "back":
        return "back"
    rank, suit = code[0], code[1]
    r = _RANK_WORDS.get(rank, rank)
    s = _SUIT_WORDS[suit]
    if deck == "bonded":
        return f"{s}_{r}"
    return f"{r}_{s}"


@lru_cache(maxsize=4)
def _load_tree(deck: str) -> ET.Element:
    path = _deck_index().get(deck)
    if path is None:
        raise KeyError(f"deck design {deck!r} not found; available: {available_decks()}")
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    ET.register_namespace("", "http://www.w3.org/2000/svg")
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    return ET.fromstring(raw)


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _refs(el: ET.Element) -> set[str]:
    out: set[str] = set()
    for node in el.iter():
        for key, val in node.attrib.items():
            if key in (_XLINK, "href") and val.startswith("#"):
                out.add(val[1:])
            elif "url(" in val:
                out.update(_REF.findall(val))
    return out


def _with_view(svg: bytes, box: tuple[float, float, float, float]) -> bytes:
    """``svg`` with its root viewport set to the user-space box (x, y, w, h), 1 unit = 1 px."""
    root = ET.fromstring(svg)
    x, y, w, h = box
    root.set("viewBox", f"{x:.3f} {y:.3f} {w:.3f} {h:.3f}")
    root.set("width", f"{w:.3f}")
    root.set("height", f"{h:.3f}")
    root.set("preserveAspectRatio", "none")
    return ET.tostring(root)


def _pruned_svg(root: ET.Element, target_id: str) -> bytes:
    """The sheet with only ``target_id`` drawn (ancestors, defs and referenced elements kept)."""
    root = copy.deepcopy(root)
    parents = {c: p for p in root.iter() for c in p}
    by_id = {el.get("id"): el for el in root.iter() if el.get("id")}
    target = by_id.get(target_id)
    if target is None:
        raise KeyError(f"element {target_id!r} not in the deck's SVG")
    chain = [target]
    while chain[-1] in parents:
        chain.append(parents[chain[-1]])
    keep_path = set(chain)
    target_nodes = set(target.iter())
    # Elements referenced (transitively) from the card but drawn elsewhere on the sheet.
    moved: list[ET.Element] = []
    seen: set[str] = set()
    todo = list(_refs(target))
    while todo:
        rid = todo.pop()
        if rid in seen or rid not in by_id:
            continue
        seen.add(rid)
        el = by_id[rid]
        if el in target_nodes:
            continue
        anc, in_defs = el, False
        while anc in parents:
            anc = parents[anc]
            if _local(anc.tag) == "defs":
                in_defs = True
                break
        if not in_defs:
            moved.append(copy.deepcopy(el))
        todo.extend(_refs(el))

    nonvisual = {"defs", "style", "linearGradient", "radialGradient", "clipPath", "mask",
                 "pattern", "filter", "symbol", "metadata", "title", "desc", "marker", "font"}

    needed = seen | {target_id}

    def prune_defs(node: ET.Element) -> None:
        # Keep only definitions the card uses (big decks define every card's art here).
        for child in list(node):
            if child is target or child in keep_path:
                if child in keep_path and child is not target:
                    prune_defs(child)
                continue
            ids = {el.get("id") for el in child.iter()}
            if not ids & needed and _local(child.tag) not in ("style", "font"):
                node.remove(child)

    def prune(node: ET.Element) -> None:
        for child in list(node):
            if child is target:
                continue
            if child in keep_path:
                if _local(child.tag) in ("defs", "symbol"):
                    prune_defs(child)
                else:
                    prune(child)
            elif _local(child.tag) not in nonvisual:
                node.remove(child)

    prune(root)
    in_defs = any(_local(a.tag) in ("defs", "symbol") for a in chain[1:])
    if in_defs:
        use = ET.SubElement(root, "{http://www.w3.org/2000/svg}use")
        use.set(_XLINK, "#" + target_id)
    if moved:
        defs = ET.SubElement(root, "{http://www.w3.org/2000/svg}defs")
        defs.extend(moved)
    return ET.tostring(root)


def _render_png(svg: bytes, scale: float) -> np.ndarray:
    import cairosvg  # only needed when a card is not cached yet

    png = cairosvg.svg2png(bytestring=svg, scale=scale, unsafe=True)
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise RuntimeError("cairosvg produced no image")
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    elif img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return img


def _alpha_box(img: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(img[:, :, 3] > 8)
    if len(xs) == 0:
        raise RuntimeError("the card rendered empty")
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _rasterise(deck: str, code: str, height: int) -> np.ndarray:
    folder = _deck_index().get(deck)
    if folder is not None and folder.is_dir():
        return _rasterise_file(folder / f"{code}.svg", height)
    root = _load_tree(deck)
    svg = _pruned_svg(root, element_id(deck, code))
    # Pass 1: locate the card anywhere in a wide user-space window (cards may lie off-sheet).
    ox, oy, span = -3000.0, -3000.0, 12000.0
    probe = _render_png(_with_view(svg, (ox, oy, span, span)), 2000 / span)
    x1, y1, x2, y2 = _alpha_box(probe)
    u = span / 2000
    bx, by = ox + (x1 - 2) * u, oy + (y1 - 2) * u
    bw, bh = (x2 - x1 + 4) * u, (y2 - y1 + 4) * u
    # Pass 2: render that window at the wanted height and crop to the card's alpha.
    scale = (height + 2) / max(1e-3, bh - 4 * u)
    return _cropped(_render_png(_with_view(svg, (bx, by, bw, bh)), scale), height)


def _rasterise_file(path: Path, height: int) -> np.ndarray:
    """A card drawn alone in its own SVG file, ``height`` px tall, cropped to its alpha."""
    svg = path.read_bytes()
    x1, y1, x2, y2 = _alpha_box(_render_png(svg, 1.0))
    return _cropped(_render_png(svg, (height + 2) / max(1, y2 - y1)), height)


def _cropped(big: np.ndarray, height: int) -> np.ndarray:
    """A card rendered a little taller than ``height``, cropped to its alpha and sized to it."""
    x1, y1, x2, y2 = _alpha_box(big)
    card = big[y1:y2, x1:x2]
    if card.shape[0] != height:
        w = max(1, round(card.shape[1] * height / card.shape[0]))
        card = cv2.resize(card, (w, height), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(card)


def _cache_dir() -> Path:
    base = os.environ.get("MICHIGAN_CACHE") or str(Path.home() / ".cache" / "michigan-companion")
    return Path(base) / "cards"


def _base_render(deck: str, code: str, height: int) -> np.ndarray:
    path = _cache_dir() / deck / f"{code}_{height}.png"
    if path.exists():
        img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if img is not None and img.ndim == 3 and img.shape[2] == 4:
            return img
    with _lock:
        img = _rasterise(deck, code, height)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.png")
        cv2.imwrite(str(tmp), img)
        os.replace(tmp, path)
    except OSError:
        pass
    return img


@lru_cache(maxsize=2048)
def _cached(deck: str, code: str, height: int) -> np.ndarray:
    base_h = BASE_HEIGHT if height <= BASE_HEIGHT else int(np.ceil(height / 160) * 160)
    img = _base_render(deck, code, base_h)
    if height != base_h:
        w = max(1, round(img.shape[1] * height / img.shape[0]))
        img = cv2.resize(img, (w, height), interpolation=cv2.INTER_AREA)
    img.setflags(write=False)
    return img


def render_card(deck: str, code: str, height: int) -> np.ndarray:
    """Card ``code`` (e.g. ``"QH"``) of ``deck`` as a BGRA uint8 image ``height`` px tall.

    The alpha channel is the card's shape (rounded corners transparent). Cached: the returned
    array is read-only; copy it before drawing on it.
    """
    if code not in CARD_CODES:
        raise ValueError(f"not a card code: {code!r}")
    return _cached(deck, code, int(height))


def render_back(deck: str, height: int) -> np.ndarray:
    """The back of ``deck``'s cards, BGRA uint8, ``height`` px tall (read-only, cached)."""
    return _cached(deck, "back", int(height))


def card_ink(img: np.ndarray) -> np.ndarray:
    """Where a rendered card (BGRA) is printed: its opaque pixels that differ clearly from the
    paper, sampled by the middle of the card's left edge."""
    h = img.shape[0]
    bgr = img[:, :, :3].astype(np.int16)
    paper = np.median(bgr[h // 2 - 5:h // 2 + 5, 2:6].reshape(-1, 3), axis=0)
    return np.asarray((np.abs(bgr - paper).sum(axis=2) > 90) & (img[:, :, 3] > 128))


def half_turn(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """A box in card fractions (x1, y1, x2, y2) where it lies once the card turns half a turn:
    the top-left corner's index becomes the bottom-right one's."""
    x1, y1, x2, y2 = box
    return 1 - x2, 1 - y2, 1 - x1, 1 - y1


def corner_index_box(deck: str, code: str) -> tuple[float, float, float, float]:
    """The top-left corner index (rank and suit) as fractions of the card (x1, y1, x2, y2).

    Found from the card's ink in its top-left region, up to the first clear gap across it
    once some index ink has been passed (`index_columns`: a pip or a court's frame printed
    beside a narrow index is not part of it); used to decide whether a partly covered card
    still shows its index.
    """
    img = render_card(deck, code, 240)
    h, w = img.shape[:2]
    ink = card_ink(img)
    region = ink[: int(h * 0.32), : int(w * 0.26)].copy()
    region[: max(1, int(h * 0.015)), :] = False
    region[:, : max(1, int(w * 0.02))] = False
    region[:, index_columns(np.asarray(region.any(axis=0)), h, w):] = False
    ys, xs = np.nonzero(region)
    if len(xs) < 10:
        return 0.0, 0.0, 0.22, 0.3
    return (float(xs.min()) / w, float(ys.min()) / h, float(xs.max() + 1) / w,
            float(ys.max() + 1) / h)


def index_columns(columns: np.ndarray, height: int, width: int) -> int:
    """Where a corner's index ends, given which columns of its region hold ink (left to
    right) on a card ``height`` x ``width`` px: at the first gap of at least 1.25% of the
    height once ink has filled 8% of the width (a border line or a corner's rounding before
    the index does not end it; the gap inside a "10" is narrower), else the region's end."""
    gap, seen, run = max(3, round(0.0125 * height)), 0, 0
    for x, ink in enumerate(columns):
        if ink:
            seen, run = seen + 1, 0
        elif seen >= 0.08 * width:
            run += 1
            if run >= gap:
                return x - run + 1
    return len(columns)


def corner_index_boxes(deck: str, code: str) -> list[tuple[float, float, float, float]]:
    """Every corner index of the card as fractions of the card (x1, y1, x2, y2): the top-left
    one, the bottom-right one (turned half a turn), and for `FOUR_INDEX_DECKS` also the
    top-right one (upright) and the bottom-left one (turned), so the turned ones are those at
    odd places. No box for `SPLIT_INDEX_DECKS`, whose corners hold no rank-and-suit index."""
    if deck in SPLIT_INDEX_DECKS:
        return []
    top_left = corner_index_box(deck, code)
    boxes = [top_left, half_turn(top_left)]
    if deck in FOUR_INDEX_DECKS:
        x1, y1, x2, y2 = top_left  # the top-right one, and it turned: the bottom-left one
        boxes += [(1 - x2, y1, 1 - x1, y2), (x1, 1 - y2, x2, 1 - y1)]
    return boxes


def _prerender_one(job: tuple[str, str]) -> str:
    deck, code = job
    if code == "back":
        render_back(deck, BASE_HEIGHT)
    else:
        render_card(deck, code, BASE_HEIGHT)
    return f"{deck}/{code}"


def prerender(decks: list[str] | None = None, workers: int = 2) -> None:
    """Rasterise every card and back of ``decks`` into the disk cache (slow once, then free)."""
    from multiprocessing import get_context

    from tqdm import tqdm

    names = decks if decks is not None else available_decks()
    jobs = [(d, c) for d in names for c in (*CARD_CODES, "back")
            if not (_cache_dir() / d / f"{c}_{BASE_HEIGHT}.png").exists()]
    if not jobs:
        return
    if workers <= 1:
        for job in tqdm(jobs, desc="rendering cards", unit="card"):
            _prerender_one(job)
        return
    # Group by deck so each worker parses a deck's SVG once.
    with get_context("fork").Pool(workers) as pool:
        for _ in tqdm(pool.imap(_prerender_one, jobs, chunksize=8), total=len(jobs),
                      desc="rendering cards", unit="card"):
            pass
