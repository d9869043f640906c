"""The synthetic card table and the deck rasteriser: the demo table the app shows without a
camera, and the pictures the training data is made of.

Imports companion, calibration and vision's value types (frames, detections); never the
readers, the pipeline or vision.training.
"""
