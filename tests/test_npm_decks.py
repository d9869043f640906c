"""The npm-made training designs: file names, the aguilar back, and the kennard components
written out as SVG (with node, where installed)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from vision.training import npm_decks


def test_file_names_follow_each_package() -> None:
    assert npm_decks.aguilar_name("QH") == "12h.svg"
    assert npm_decks.aguilar_name("TC") == "10c.svg"
    assert npm_decks.aguilar_name("AS") == "1s.svg"
    assert npm_decks.aguilar_name("7D") == "7d.svg"
    assert npm_decks.kennard_name("QH") == "Hq.svg"
    assert npm_decks.kennard_name("TC") == "C10.svg"
    assert npm_decks.kennard_name("AS") == "Sa.svg"
    assert npm_decks.kennard_name("7D") == "D7.svg"
    assert npm_decks.aguilar_name("back") == "back.svg"
    assert npm_decks.kennard_name("back") == "B1.svg"


def test_the_aguilar_back_is_a_card_sized_picture() -> None:
    tile = "<svg xmlns='http://www.w3.org/2000/svg'><rect width='80' height='80'/></svg>"
    back = npm_decks.aguilar_back(tile)
    assert 'width="225" height="314"' in back and "<rect width='80' height='80'/>" in back
    with pytest.raises(ValueError):
        npm_decks.aguilar_back("not svg")


_MODULE = """import _extends from '@babel/runtime/helpers/extends';
import * as React from 'react';
const SvgHQ = _ref => React.createElement("svg", _extends({
  xmlns: "http://www.w3.org/2000/svg", xmlnsXlink: "http://www.w3.org/1999/xlink",
  viewBox: "0 0 10 10", className: "card", "aria-labelledby": "x"
}, {}), React.createElement("path", { strokeWidth: 2, d: "M0 0h5" }), "Q&A");
export { SvgHQ as Hq };
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
def test_kennard_components_become_svg(tmp_path: Path) -> None:
    src = tmp_path / "index.esm.js"
    src.write_text(_MODULE)
    script = tmp_path / "run.js"
    script.write_text(npm_decks._KENNARD_JS)
    subprocess.run(["node", str(script), str(src), str(tmp_path / "out")], check=True)
    svg = (tmp_path / "out" / "Hq.svg").read_text()
    assert '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"' \
        ' viewBox="0 0 10 10" class="card">' in svg
    assert '<path stroke-width="2" d="M0 0h5"></path>Q&amp;A</svg>' in svg
