"""Test oracles: the former numpy implementations of the game cores, kept only to check the
compiled ones against (differential tests, ``madang bench --oracle``).  Never imported by
production code."""
