"""Wanagan (``wanagan``): poker hands for the money cups, the overtime hands and the 5-card draw
for the Jackpot.

`hands`: which cups a revealed hand qualifies for and how strong it is; `referee`: the fold over
the log; `sim`: bots that choose their hands.
"""
