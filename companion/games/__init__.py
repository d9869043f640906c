"""The games: one package per family, each a referee (its rules) and a simulator (its bots).

A family builds on the shared vocabulary (`companion.cards`, `companion.poker`,
`companion.ledger`, `companion.events`, `companion.house`) and on the referee engine
(`companion.referee`), which finds each game by name; families never import one another.
"""
