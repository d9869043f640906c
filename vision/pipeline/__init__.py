"""The live pipeline: frames in, a clean stream of game events out (DESIGN.md's flow).
"""
