"""Pixels to observations. The runtime the app imports: frame sources (`vision.sources`), the
card readers (`vision.readers`), zones, tracker and chips, the live pipeline
(`vision.pipeline`) and the commands (detect, teach-deck, watch, render-table, calibrate).
Beside it: `vision.render`, the synthetic table and deck rasteriser (the demo table and the
training pictures), and `vision.training`, data, recipes and evaluation, which the app never
imports. docs/architecture.md maps them.

May import companion, calibration, numpy and OpenCV; torch and ultralytics only in
vision.training.
"""
