"""Adapters written once for every game: Gymnasium, PettingZoo AEC and vector envs, and the
glue for stable-baselines3 (:mod:`.sb3_vec_env`) and RLlib (:mod:`.rllib`, needs ray).

They only translate between a :class:`envs.core.game.Game` and a framework API;
no adapter knows any game's rules.  Their options (observation, info and autoreset modes,
illegal actions) are described once in docs/interface.md.
"""
