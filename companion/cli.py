"""The `companion` command line: the one entry point for users.

The core subcommands (referee, simulate) are in `companion.commands`, which never imports this
module; those that need pixels or Qt are registered by `vision/`, `calibration/` and `ui/`
through the ``companion.commands`` entry-point group, so this module never imports them. Each
entry point is a function ``register(subparsers) -> None`` that adds one sub-parser and sets
``func`` (``func(args) -> int``) with ``set_defaults``.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable, Collection, Sequence

from companion import __version__, commands, diagnostics
from companion.events import LogFileError

Handler = Callable[[argparse.Namespace], int]
Register = Callable[[argparse._SubParsersAction], None]

#: The core subcommands (standard library only), each ``register(subparsers) -> None``.
CORE_COMMANDS: dict[str, Register] = {
    "referee": commands.register_referee,
    "simulate": commands.register_simulate,
}


def command_named(argv: Sequence[str]) -> str | None:
    """The subcommand an argument list asks for: its first argument that is not an option
    (``companion`` itself takes no option with a value)."""
    return next((a for a in argv if not a.startswith("-")), None)


def _asks_for_help(arg: str) -> bool:
    """``-h``, ``--help`` or an abbreviation argparse accepts for it (``--he``)."""
    return arg == "-h" or (len(arg) > 2 and "--help".startswith(arg))


def commands_needed(argv: Sequence[str]) -> list[str] | None:
    """The subcommands whose parsers must be built to parse ``argv``: only the one it names
    (none for the window or ``--version``), or None for all of them (``--help`` lists every
    one, and so does the error for an unknown name). Building one parser instead of all keeps
    `companion referee` from importing the plugins (OpenCV, numpy, Qt) and from building
    parsers it never uses."""
    name = command_named(argv)
    if name is None:
        return None if any(_asks_for_help(a) for a in argv) else []
    if name in CORE_COMMANDS:
        return [name]
    from importlib.metadata import entry_points  # slow to import: only when plugins matter

    if name in {ep.name for ep in entry_points(group="companion.commands")}:
        return [name]
    return None


def build_parser(commands: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The command line with the sub-parsers of ``commands`` (default: every core and plugin
    subcommand, in the order the help lists them)."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description=(
            "Michigan Companion: watches a real card table through a camera, referees Michigan "
            "Rummy and its relatives, announces what comes next and keeps every player's chips. "
            "Run without a subcommand to open the window (or the demo table when no camera is "
            "found)."
        ),
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in sorted(CORE_COMMANDS):
        if commands is None or name in commands:
            CORE_COMMANDS[name](sub)
    if commands is not None and all(name in CORE_COMMANDS for name in commands):
        return parser
    from importlib.metadata import entry_points

    for ep in sorted(entry_points(group="companion.commands"), key=lambda e: e.name):
        if ep.name in CORE_COMMANDS or (commands is not None and ep.name not in commands):
            continue
        try:
            register = ep.load()
        except ImportError as exc:
            # The extra that provides it is not installed: say so instead of crashing.
            p = sub.add_parser(ep.name, help=f"(unavailable: {exc.name or exc} not installed)")
            p.set_defaults(func=_unavailable(ep.name, exc))
            continue
        register(sub)
    return parser


def _unavailable(name: str, exc: ImportError) -> Handler:
    def run(args: argparse.Namespace) -> int:
        print(f"companion {name}: needs a package that is not installed ({exc}). "
              f"Install the app with: pip install 'michigan-companion[app]'", file=sys.stderr)
        return 2
    return run


def _run_window() -> int:
    from importlib.metadata import entry_points

    eps = list(entry_points(group="companion.app"))
    if not eps:
        print("The window needs the app extra: pip install 'michigan-companion[app]'.\n"
              "Try `companion simulate --game michigan-rummy --players 4` or "
              "`companion --help`.", file=sys.stderr)
        return 2
    try:
        run = eps[0].load()
    except ImportError as exc:
        print(f"The window cannot start: {exc}. Install: pip install 'michigan-companion[app]'",
              file=sys.stderr)
        return 2
    return int(run() or 0)


def main(argv: Sequence[str] | None = None) -> int:
    diagnostics.setup()
    as_program = argv is None
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(commands_needed(argv))
    args = parser.parse_args(argv)
    if as_program:
        # What start-up made (modules, classes, functions, the parser) lives as long as the
        # process: the garbage collector need not walk it again, neither in collections during
        # the command nor in the full one at exit (some 7 ms of what `companion referee` adds).
        gc.freeze()
    if args.command is None:
        return _run_window()
    func: Handler | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        # A file or device the user named cannot be used (a folder, no permission, full disk).
        diagnostics.log_failure(f"companion {args.command}", exc)
        what = (str(exc) if isinstance(exc, LogFileError) or not exc.strerror else
                f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror)
        print(f"companion {args.command}: {what}", file=sys.stderr)
        return 2
    except ValueError as exc:
        # Input that is not what it should be (a damaged profile, a bad picture): the
        # message names the file and the field.
        diagnostics.log_failure(f"companion {args.command}", exc)
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - logged with its traceback, said plainly
        diagnostics.log_failure(f"companion {args.command} failed", exc)
        print(f"companion {args.command}: unexpected error ({type(exc).__name__}: {exc}); "
              f"{diagnostics.where_logged()}. Please attach that file to a bug report.",
              file=sys.stderr)
        return 70


if __name__ == "__main__":
    raise SystemExit(main())
