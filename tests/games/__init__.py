"""Games defined by the tests, outside the ``envs`` package: each joins madang through its
descriptor alone (``envs.register_game(SPEC)``)."""
