"""One file per schema revision, applied in order by ``spades db upgrade``."""
