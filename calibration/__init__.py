"""Table geometry: the board and its cups, zone polygons per seat, the homography from camera
to board coordinates, saved table profiles and the calibration procedure (numpy + OpenCV)."""
