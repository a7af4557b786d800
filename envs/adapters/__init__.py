"""Adapters written once for every game: Gymnasium, PettingZoo AEC and vector envs.

They only translate between a :class:`envs.core.game.Game` and a framework API;
no adapter knows any game's rules.
"""
