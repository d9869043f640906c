"""Frame sources: what a frame is, files and folders, webcams and streams, and the source a
user names (`vision.sources.parse.parse_source`).
"""
