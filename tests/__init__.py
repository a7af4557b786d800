"""madang's tests; their helpers are imported from here: ``from tests.play_pages import serving``.

Nothing shipped imports this package (tests/test_architecture.py checks that)."""
