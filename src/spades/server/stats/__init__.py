"""A player's statistics: their stored games summed (``statistics.py``) and
drawn by the page's ``stats.js``."""
