"""Michigan Rum (``michigan-rum``): draw, meld, lay off and discard, scored in points.

`melds`: the house rules, card points and what makes a meld or a layoff; `referee`: the fold
over the log; `sim`: bots that play it.
"""
