"""The network a training run starts from: a shipped policy or policy files (``init``)."""

from __future__ import annotations

from agents.torch_policy import ActorCritic


def load_policy_model(name: str, hidden, game: str | None = None) -> ActorCritic:
    """The network of a shipped policy name or of policy files, checked to have ``hidden``
    widths (and, given ``game``, to play it); ``ValueError`` naming ``name`` otherwise."""
    import agents

    bot = agents.load(name)
    model = getattr(bot, "model", None)
    if not isinstance(model, ActorCritic):
        raise ValueError(f"init {name!r} is not a network in madang's policy format (policy files, a shipped PPO bot)")
    if game is not None and getattr(bot, "game", None) != game:
        raise ValueError(f"init {name!r} plays {getattr(bot, 'game', None)!r}, the run trains {game!r}")
    if tuple(model.hidden) != tuple(hidden):
        raise ValueError(f"init {name!r} has hidden widths {model.hidden}, the run wants {tuple(hidden)}")
    return model
