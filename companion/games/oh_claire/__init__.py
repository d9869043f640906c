"""Oh Claire! (``oh-claire``): bid the tricks you will take, trumps turned from the deck.

`rules`: the house rules and the trick's winner; `referee`: the fold over the log; `sim`: bots
that bid and play.
"""
