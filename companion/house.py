"""House rules as data: each game's TOML file under ``companion/data/`` names its settings.

A house rule is ``[house.NAME]`` with ``default``, ``ruling`` (the RULINGS.md id) and ``text``
(or ``description``); the log's game event may override any of them by name (``"house": {...}``).

Importing `tomllib` costs a command more than reading the rules does, so what a file parses to
is kept as JSON in the app's data folder (``cache/house/GAME.json``) with the text it was parsed
from, and used only while the file still holds exactly that text.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from companion.diagnostics import data_dir

#: The folder of the games' TOML files, beside this module in an installed or checked-out copy.
DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


class HouseRule(NamedTuple):
    """One named setting a table may change, with the RULINGS.md default and its ruling id."""

    name: str
    default: Any
    ruling: str
    description: str


@lru_cache(maxsize=32)
def _load(game: str) -> dict[str, Any]:
    if not game or "/" in game or "\\" in game or game.startswith("."):
        raise ValueError(f"not a game name: {game!r}")
    try:
        text = _read_data(f"{game}.toml")
    except (FileNotFoundError, OSError):
        raise ValueError(f"no data file for game {game!r} (companion/data/{game}.toml)") from None
    return _parse_toml(text, game)


def _parse_toml(text: str, game: str) -> dict[str, Any]:
    """What ``text`` (the data file of ``game``) parses to: from the cache when it was parsed
    from this very text, else parsed with `tomllib` and cached for the next command."""
    try:
        cache = os.path.join(data_dir(), "cache", "house", f"{game}.json")
    except RuntimeError:   # no home folder to put a data folder in
        cache = ""
    try:
        with open(cache, encoding="utf-8") as f:
            cached = json.load(f)
        if cached["toml"] == text and isinstance(cached["data"], dict):
            return cached["data"]
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no cache yet, or a damaged one, or one of another text: parse the file
    import tomllib

    data = tomllib.loads(text)
    if cache:
        _write_cache(cache, {"toml": text, "data": data})
    return data


def _write_cache(path: str, entry: dict[str, Any]) -> None:
    """Write ``entry`` to ``path`` whole or not at all (a command may be reading it); where
    the folder cannot be written, or the data has no JSON form (TOML's dates and times), the
    file is simply parsed again next time."""
    try:
        text = json.dumps(entry, ensure_ascii=False)
    except (TypeError, ValueError):
        return
    partial = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(partial, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(partial, path)
    except OSError:
        try:
            os.remove(partial)
        except OSError:
            pass


def _read_data(name: str) -> str:
    """A data file's text: read from the folder beside this module, or, where the package is
    not a folder on disk (a zip), through its loader (importlib.resources, slow to import: the
    command line's start-up does without it)."""
    try:
        with open(os.path.join(DATA_DIR, name), encoding="utf-8") as f:
            return f.read()
    except OSError:
        if os.path.isdir(DATA_DIR):
            raise
    from importlib import resources

    return resources.files("companion").joinpath("data", name).read_text(encoding="utf-8")


def game_data(game: str) -> dict[str, Any]:
    """The whole TOML table of a game (a fresh copy the caller may change)."""
    return copy.deepcopy(_load(game))


def house_rules(game: str) -> list[HouseRule]:
    """Every house rule of a game, in file order, for the setup dialog."""
    out: list[HouseRule] = []
    for name, spec in _load(game).get("house", {}).items():
        if not isinstance(spec, dict) or "default" not in spec:
            raise ValueError(f"house rule {name!r} of {game!r} has no default")
        text = str(spec.get("text", spec.get("description", "")))
        out.append(HouseRule(name, spec["default"], str(spec.get("ruling", "")), text))
    return out


def _same_kind(default: Any, value: Any) -> bool:
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if isinstance(default, str):
        return isinstance(value, str)
    if isinstance(default, list):
        if not isinstance(value, list):
            return False
        kinds = {type(x) for x in default}
        return not kinds or all(type(x) in kinds for x in value)
    if isinstance(default, dict):
        return isinstance(value, dict)
    return True


def house_settings(game: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The settings for one game: every default, replaced by ``overrides`` by name.

    Raises ValueError for an unknown name or a value of another kind than the default.
    """
    settings = {r.name: r.default for r in house_rules(game)}
    if overrides is None:
        return settings
    if not isinstance(overrides, Mapping):
        raise ValueError(f"\"house\" must be an object of house rules, got {overrides!r}")
    for name, value in overrides.items():
        if name not in settings:
            known = ", ".join(settings)
            raise ValueError(f"unknown house rule {name!r} for {game} (known: {known})")
        if not _same_kind(settings[name], value):
            raise ValueError(f"house rule {name!r} must be like {settings[name]!r}, "
                             f"got {value!r}")
        settings[name] = value
    return settings
