"""The Michigan family: Michigan Rummy, Great Lakes, Pressman and boodle, one engine for all four.

`board`: the disk's cups and the house rules; `state`: what a round is made of; `proof`: what a
card seen later proves about earlier leads; `settlement`: the chips a round moves; `referee`:
the fold over the log and the four games by name; `sim`: bots that play it.
"""
