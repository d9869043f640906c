"""The PySide6 companion window: live view, announcements, chips, setup, corrections, replay."""
