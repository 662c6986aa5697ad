"""Pictures of a position: the text diagram (diagram.py) and SVG (svg.py).

They read a board through its public methods and import only the rules, so that
the Board (engine/game.py) can draw itself with them.
"""
