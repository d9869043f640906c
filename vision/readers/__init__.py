"""The card readers: frames in, `vision.detections.Detections` out. The whole-card detector and
its crop classifier, the index-first reader with its heads and rank OCR, the choice among
them, and the per-deck profiles of `companion teach-deck`.
"""
