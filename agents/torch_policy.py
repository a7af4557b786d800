"""The actor-critic network of madang's PPO bots, and the bot that plays with one.

Kept in ``agents`` (not ``training``) so that shipped bots load without the trainer.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from .base import BaseBot, as_batch

MASKED_LOGIT = -1e9


class ActorCritic(nn.Module):
    """A shared MLP trunk with a policy head (one logit per action) and a value head.

    ``forward(obs, mask)`` returns ``(logits, value)``; illegal actions (``mask`` False)
    get the logit :data:`MASKED_LOGIT`, so they are never sampled.
    """

    def __init__(self, obs_size: int, num_actions: int, hidden: tuple[int, ...] = (256, 256)):
        super().__init__()
        layers, width = [], obs_size
        for h in hidden:
            layers += [nn.Linear(width, h), nn.Tanh()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.policy = nn.Linear(width, num_actions)
        self.value = nn.Linear(width, 1)
        for m in self.trunk:
            if isinstance(m, nn.Linear):
                nn.init.orthogonal_(m.weight, np.sqrt(2))
                nn.init.zeros_(m.bias)
        nn.init.orthogonal_(self.policy.weight, 0.01)
        nn.init.zeros_(self.policy.bias)
        nn.init.orthogonal_(self.value.weight, 1.0)
        nn.init.zeros_(self.value.bias)
        self.obs_size, self.num_actions, self.hidden = obs_size, num_actions, tuple(hidden)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor):
        z = self.trunk(obs)
        logits = self.policy(z).masked_fill(~mask, MASKED_LOGIT)
        return logits, self.value(z).squeeze(-1)


class PolicyBot(BaseBot):
    """A bot that plays an :class:`ActorCritic`: greedy (argmax) by default, or sampling.

    ``game`` names the game module it was trained for; acting on observations or masks
    of another size raises ``ValueError``.
    """

    def __init__(self, model: ActorCritic, name: str, game: str, greedy: bool = True,
                 device: str = "cpu"):
        self.model = model.to(device).eval()
        self.name, self.game, self.greedy, self.device = name, game, greedy, device

    @torch.no_grad()
    def act(self, observation, mask, rng):
        obs, m = as_batch(observation, mask, self.model.obs_size, self.model.num_actions)
        logits, _ = self.model(torch.from_numpy(obs).to(self.device), torch.from_numpy(m).to(self.device))
        if self.greedy:
            return logits.argmax(dim=1).cpu().numpy().astype(np.int64)
        # Sample with the numpy generator (Gumbel-max) so that rng alone fixes the choice.
        gumbel = -np.log(-np.log(rng.random(m.shape)))
        return np.where(m, logits.cpu().numpy() + gumbel, -np.inf).argmax(axis=1).astype(np.int64)
