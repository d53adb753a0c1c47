"""Records, replays and post-hand reviews: ``records.py`` decides what a record
or a replay may show and opens record files, ``reviews.py`` runs the review in
a background process and keeps its results, ``routes.py`` is their HTTP layer."""
