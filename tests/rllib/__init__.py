"""The RLlib tests, run in a venv of their own (tests/test_rllib_venv.py)."""
