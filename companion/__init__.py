"""Michigan Companion core: cards, poker hands, chip ledger, event log and referees.

Standard library only: the rules can be used, tested and fuzzed without Qt, OpenCV or numpy.
"""

__version__ = "0.1.0"
