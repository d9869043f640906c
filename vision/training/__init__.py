"""Training the card readers: data generation, recipes and evaluation. Nothing the app imports
at run time; torch, ultralytics and onnx are imported only here.

Run from a checkout (datasets, runs and models are folders of the repository), e.g.
``python -m vision.training.train_index_heads --help``.
"""
