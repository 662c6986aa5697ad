"""The rules: the tables of bugs and move kinds, the grid, the state record and its
make/unmake, move generation and perft (numba kernels), and UHP's strings.

The lowest layer: it imports nothing else of the engine.
"""
