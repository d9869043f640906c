"""Two more deck designs for training, made from npm packages into decks of one SVG file per
card (`vision.render.decks`, a ``cards-NAME`` folder): a training step, like installing the
Debian decks, never run by the app.

- ``aguilar``: ``@younestouati/playing-cards-standard-deck`` 3.0.0 (LGPL-3.0), Chris
  Aguilar's vectorized playing cards as reworked by Responsive Playing Cards: one SVG file per
  card (``10c.svg``, ``12h.svg``: 11-13 are J, Q, K), copied under our card codes. Its
  ``back.svg`` is a tile with no size (for a web page's background): the back is a card of
  the faces' size, rounded, filled with that tile.
- ``kennard``: ``@letele/playing-cards`` 0.1.0 (CC0-1.0), Adrian Kennard's card designs as
  React components. Each component is called once under node with a stand-in for React that
  writes the SVG element it builds, attribute names given back their SVG spelling.

Their corner indices are tall, narrow and drawn as strokes, as on many real decks and on
neither held-out design. Needs ``npm`` and ``node`` (``apt-get install npm``)::

    python -m vision.training.npm_decks [--out ~/.local/share/carddecks] [--from DIR]

``--from``: a folder holding the two packed tarballs already (``npm pack NAME``), for a
machine without the registry.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from companion.cards import CARD_CODES
from vision.render.decks import CARD_FOLDER, USER_DECKS

#: (design, npm package at a fixed version, its tarball's name as ``npm pack`` writes it).
PACKAGES = (
    ("aguilar", "@younestouati/playing-cards-standard-deck@3.0.0",
     "younestouati-playing-cards-standard-deck-3.0.0.tgz"),
    ("kennard", "@letele/playing-cards@0.1.0", "letele-playing-cards-0.1.0.tgz"),
)

_RANK_NUMBERS = {"A": "1", "T": "10", "J": "11", "Q": "12", "K": "13"}

#: Runs the React components of ``@letele/playing-cards`` (an ES module) with a stand-in for
#: React's ``createElement`` that returns the SVG text, and writes one file per component.
_KENNARD_JS = r"""
const fs = require('fs');
const path = require('path');
const [src, out] = process.argv.slice(2);
let code = fs.readFileSync(src, 'utf8').replace(/^import .*$/mg, '');
const esc = s => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const KEEP = new Set(['viewBox', 'preserveAspectRatio', 'patternUnits', 'patternContentUnits',
  'patternTransform', 'gradientUnits', 'gradientTransform', 'clipPathUnits', 'maskUnits',
  'maskContentUnits', 'textLength', 'lengthAdjust', 'refX', 'refY', 'markerWidth',
  'markerHeight', 'markerUnits', 'spreadMethod', 'startOffset', 'stdDeviation']);
const SPECIAL = {className: 'class', xmlnsXlink: 'xmlns:xlink', xlinkHref: 'xlink:href',
  xmlSpace: 'xml:space', xmlLang: 'xml:lang'};
const attr = k => SPECIAL[k] || (KEEP.has(k) ? k : k.replace(/[A-Z]/g, c => '-' + c.toLowerCase()));
class El { constructor(s) { this.s = s; } }
const React = { createElement: (type, props, ...kids) => {
  const a = Object.entries(props || {}).filter(([k, v]) => v != null && !k.startsWith('aria-'))
    .map(([k, v]) => ` ${attr(k)}="${esc(v)}"`).join('');
  const inner = kids.flat().filter(k => k != null)
    .map(k => k instanceof El ? k.s : esc(k)).join('');
  return new El(`<${type}${a}>${inner}</${type}>`);
}};
code = code.replace(/export \{([^}]*)\};?/, (m, names) => 'return {' + names.split(',')
  .map(n => { const [a, b] = n.trim().split(/\s+as\s+/); return `${b}: ${a}`; }).join(',') + '};');
const mod = new Function('React', '_extends', code)(React, Object.assign);
fs.mkdirSync(out, { recursive: true });
for (const [name, fn] of Object.entries(mod)) {
  fs.writeFileSync(path.join(out, name + '.svg'),
                   '<?xml version="1.0" encoding="UTF-8"?>\n' + fn({}).s);
}
"""


def aguilar_name(code: str) -> str:
    """The package's file for card ``code`` (``"QH"`` -> ``"12h.svg"``), or the back."""
    if code == "back":
        return "back.svg"
    return f"{_RANK_NUMBERS.get(code[0], code[0])}{code[1].lower()}.svg"


def kennard_name(code: str) -> str:
    """The component written for card ``code`` (``"QH"`` -> ``"Hq.svg"``, ``"TC"`` ->
    ``"C10.svg"``), or the back (its first, ``B1``)."""
    if code == "back":
        return "B1.svg"
    rank = {"T": "10"}.get(code[0], code[0].lower() if code[0] in "AJQK" else code[0])
    return f"{code[1]}{rank}.svg"


#: The card-sized back made around the aguilar tile (`aguilar_back`).
_BACK = """<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 225 314" width="225" height="314">
<defs><pattern id="tile" width="20" height="20" patternUnits="userSpaceOnUse">
<g transform="scale(0.25)">{tile}</g></pattern></defs>
<rect x="0.5" y="0.5" width="224" height="313" rx="11" fill="#fff" stroke="#888"/>
<rect x="12" y="12" width="201" height="290" rx="6" fill="url(#tile)"/>
</svg>
"""


def aguilar_back(tile_svg: str) -> str:
    """A card-sized back filled with the package's sizeless 80 x 80 tile."""
    body = re.search(r"<svg[^>]*>(.*)</svg>", tile_svg, re.S)
    if body is None:
        raise ValueError("the aguilar back tile holds no <svg> element")
    return _BACK.format(tile=body.group(1).strip())


def _unpack(tarball: Path, dst: Path) -> Path:
    with tarfile.open(tarball) as tar:
        tar.extractall(dst, filter="data")
    return dst / "package"


def build(out: Path, packed: Path | None = None) -> list[str]:
    """Write the ``cards-aguilar`` and ``cards-kennard`` folders under ``out``, from the
    tarballs in ``packed`` or fetched with ``npm pack``; the designs written."""
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for design, package, tgz in PACKAGES:
            tarball = (packed / tgz) if packed is not None else work / tgz
            if packed is None:
                subprocess.run(["npm", "pack", package, "--silent"], cwd=work, check=True,
                               stdout=subprocess.DEVNULL)
            root = _unpack(tarball, work / design)
            if design == "aguilar":
                src, name = root / "cards", aguilar_name
            else:
                src, name = work / "kennard-svg", kennard_name
                script = work / "kennard.js"
                script.write_text(_KENNARD_JS)
                subprocess.run(["node", str(script), str(root / "dist" / "index.esm.js"),
                                str(src)], check=True)
            dst = out / f"{CARD_FOLDER}{design}"
            dst.mkdir(parents=True, exist_ok=True)
            for code in CARD_CODES:
                shutil.copyfile(src / name(code), dst / f"{code}.svg")
            back = (src / name("back")).read_text()
            (dst / "back.svg").write_text(aguilar_back(back) if design == "aguilar" else back)
            made.append(design)
    return made


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=USER_DECKS,
                    help="where the card folders go (a folder `vision.render.decks` searches)")
    ap.add_argument("--from", dest="packed", type=Path, default=None,
                    help="a folder with the packed tarballs (npm pack), instead of the registry")
    args = ap.parse_args()
    for design in build(args.out.expanduser(), args.packed):
        print(f"{design}: {args.out / (CARD_FOLDER + design)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
