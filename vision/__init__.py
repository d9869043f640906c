"""Pixels to observations: frame sources, the card detector runtime, the tracker, the synthetic
table renderer and the detector's training-data generator and recipe.

May import companion, calibration, numpy and OpenCV; ultralytics/torch only in training code.
"""
