"""The Universal Hive Protocol: the command loop (uhp.py), the kernels' warm-up, and
the engine program's start-up, signals and end of input (main.py).

Empty on purpose: importing the entry point (main.py) must not load numba.
"""
