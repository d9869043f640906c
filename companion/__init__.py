"""Michigan Companion core: the vocabulary (cards, poker hands, chip ledger, event log, house
rules), the referee engine, one package per game family under `companion.games`, and the
`companion` command line (docs/architecture.md).

Standard library only: the rules can be used, tested and fuzzed without Qt, OpenCV or numpy.
"""

__version__ = "0.1.0"
