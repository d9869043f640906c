"""The PySide6 companion window: live view, announcements, chips, setup, corrections, replay.

``window`` (the main window; its layers ``window_display``, ``window_feed``, ``window_entry``,
``window_sessions``; its panels ``panels``), ``worker`` (the table feed in a QThread), ``demo``
and ``rendered`` (the demo table, plain or through the vision pipeline), ``camera`` (webcams),
``store`` (saved games and evidence), ``models`` / ``views`` / ``dialogs`` / ``setup`` /
``proof`` (what is shown), ``export`` (CSV and PDF), ``speech``, ``cli`` (`companion`, `demo`).
"""
