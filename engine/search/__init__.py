"""The search: alpha-beta (search.py), the evaluation, the transposition table, time
management, the worker thread that runs a search or a perft, and the options table
type the search and the protocol declare their options with.

It stands on the rules and the Board (engine/game.py).
"""
