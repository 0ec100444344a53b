"""Feature extractors for ``wayfarers train``: ``policy: {extractor: mlp | cards}`` in the YAML.

Both read the observation through its layout (``wayfarers_env.envs.observation_layout``), by the
``kind`` and ``group`` of each slice rather than by name, so a slice added to the layout is picked
up without touching this file.

``mlp`` (the default): the flat vector without its index slices, into SB3's MLP heads. A card
index is a category; fed to a layer as a number it swamps everything else (v3's observation wrote
900 of them, up to 194 each), while the card's feature vector and the card sets already tell a
flat network which cards are where.

``cards``: one card embedding table shared by every place a card can be named, and one card
encoder shared by every card slot. Each slot of a card-slot group (20 market slots, the decision's
card, the three private draws) is encoded from [embedding of its index, its card feature vector],
then joined to the group's per-slot values (workers, influence, ...); each card set (the unseen
pool, a panorama, ...) is the mean of its cards' embeddings; each seat's attached cards (townsfolk
under hosts, space cards above, inspirations on space cards, the Overseer) are pooled as
embedding x position-embedding products, which keeps who sits where. One seat encoder, shared by
the four seats, reads each seat block; a trunk joins everything. The weights that an MLP must learn
once per slot and per seat are learnt once, and most of the MLP's first layer (the 4,536 card
feature values alone) is gone.

``python -m experiments.extractor`` prints the parameter count and forward time per batch of each
policy (``--batch``, ``--repeats``), on observations of random games.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from wayfarers_env.envs.observation_layout import MAX_SEATS, O_SEATS, OBS_SIZE, SEAT, VOCAB, B, F, L, Slice


def _cols(s: Slice, offset: int = 0) -> list[int]:
    return list(range(offset + s.start, offset + s.stop))


def value_columns() -> list[int]:
    """The observation's columns that are not card indices (every kind but "index")."""
    return [i for s in L.slices if s.kind != "index" for i in _cols(s)]


ACTIVATIONS: dict[str, type[nn.Module]] = {"relu": nn.ReLU, "tanh": nn.Tanh}


class ValuesExtractor(BaseFeaturesExtractor):
    """The flat observation without its index slices (``extractor: mlp``), optionally through a
    ``trunk``: one hidden layer shared by the policy and value heads. Without it SB3's heads each
    have their own first layer over the ~8,700 values, which is most of a forward pass and of
    the update; with it that layer is paid once (the heads come after it)."""

    cols: torch.Tensor

    def __init__(self, observation_space: spaces.Box, trunk: int = 0, activation: str = "relu"):
        cols = value_columns()
        super().__init__(observation_space, features_dim=trunk or len(cols))
        self.register_buffer("cols", torch.tensor(cols, dtype=torch.long), persistent=False)
        self.trunk = nn.Sequential(nn.Linear(len(cols), trunk), ACTIVATIONS[activation]()) if trunk else None

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        values = obs.index_select(1, self.cols)
        return values if self.trunk is None else self.trunk(values)


class _Group:
    """The columns of one card-slot group: per slot, its card index, its card features and its other values."""

    def __init__(self, name: str, slices: list[Slice]):
        ids = [s for s in slices if s.kind == "index"]
        feats = [s for s in slices if s.kind == "features"]
        assert len(ids) == 1 and len(feats) == 1 and feats[0].width == F, name
        self.name, self.items = name, ids[0].items
        assert all(s.items == self.items for s in slices), name
        self.ids = _cols(ids[0])
        self.feats = _cols(feats[0])
        extras = [s for s in slices if s.kind == "value"]
        self.extra_width = sum(s.width for s in extras)
        # per slot, the values of each extra slice, in slot order: column (slot, j)
        self.extras = [s.start + slot * s.width + j for slot in range(self.items) for s in extras for j in range(s.width)]


def _plan() -> dict[str, Any]:
    """Where the cards extractor finds each part of the observation, from the layout's kinds and groups."""
    seats = range(O_SEATS, O_SEATS + MAX_SEATS * B)
    groups: dict[str, list[Slice]] = {}
    global_values: list[int] = []
    global_sets: list[list[int]] = []
    for s in L.slices:
        if s.start in seats:
            continue
        if s.group:
            groups.setdefault(s.group, []).append(s)
        elif s.kind == "cards":
            global_sets.append(_cols(s))
        else:
            assert s.kind == "value", f"{s.name}: an index slice belongs to a card-slot group or a seat block"
            global_values += _cols(s)
    seat_values = [i for s in SEAT.slices if s.kind == "value" for i in _cols(s)]
    seat_links = [i for s in SEAT.slices if s.kind == "index" for i in _cols(s)]  # attached cards, per position
    seat_sets = [s for s in SEAT.slices if s.kind == "cards"]
    assert len(seat_sets) == 1 and all(s.kind in ("value", "index", "cards") for s in SEAT.slices)
    per_seat = [[O_SEATS + k * B + i for i in seat_values] for k in range(MAX_SEATS)]
    return {
        "groups": [_Group(name, slices) for name, slices in groups.items()],
        "global_values": global_values,
        "global_sets": global_sets,
        "seat_values": per_seat,
        "seat_links": [[O_SEATS + k * B + i for i in seat_links] for k in range(MAX_SEATS)],
        "seat_cards": [[O_SEATS + k * B + i for i in _cols(seat_sets[0])] for k in range(MAX_SEATS)],
    }


class CardsExtractor(BaseFeaturesExtractor):
    """A shared card embedding and card encoder, a shared seat encoder, and a trunk (``extractor: cards``)."""

    global_values: torch.Tensor
    seat_values: torch.Tensor
    seat_links: torch.Tensor
    seat_cards: torch.Tensor

    def __init__(self, observation_space: spaces.Box, card_dim: int = 32, slot_dim: int = 64, seat_dim: int = 128, features_dim: int = 256):
        super().__init__(observation_space, features_dim)
        assert observation_space.shape == (OBS_SIZE,), observation_space.shape
        plan = _plan()
        self.groups: list[_Group] = plan["groups"]

        def buffer(name: str, cols: list) -> None:
            self.register_buffer(name, torch.tensor(cols, dtype=torch.long), persistent=False)

        self.embed = nn.Embedding(VOCAB, card_dim, padding_idx=0)  # index 0: no card, a zero vector
        self.card = nn.Sequential(nn.Linear(card_dim + F, slot_dim), nn.ReLU(), nn.Linear(slot_dim, slot_dim), nn.ReLU())
        self.slot = nn.ModuleDict()  # per group with per-slot values: [encoded card, values] -> slot_dim
        width = 0
        for k, g in enumerate(self.groups):
            buffer(f"g{k}_ids", g.ids)
            buffer(f"g{k}_feats", g.feats)
            if g.extra_width:
                buffer(f"g{k}_extras", g.extras)
                self.slot[g.name] = nn.Sequential(nn.Linear(slot_dim + g.extra_width, slot_dim), nn.ReLU())
            width += g.items * slot_dim
        buffer("global_values", plan["global_values"])
        for k, cols in enumerate(plan["global_sets"]):
            buffer(f"set{k}", cols)
        self.n_sets = len(plan["global_sets"])
        width += len(plan["global_values"]) + self.n_sets * (card_dim + 1)
        for name in ("seat_values", "seat_links", "seat_cards"):  # seat by seat: (seats, columns), flattened
            buffer(name, [i for cols in plan[name] for i in cols])
        n_links = len(plan["seat_links"][0])
        self.position = nn.Parameter(1 + 0.1 * torch.randn(n_links, card_dim))  # per attachment position (its host)
        self.seat = nn.Sequential(nn.Linear(len(plan["seat_values"][0]) + 2 * card_dim + 1, seat_dim), nn.ReLU())
        width += MAX_SEATS * seat_dim
        self.trunk = nn.Sequential(nn.Linear(width, features_dim), nn.ReLU())

    def columns(self) -> list[int]:
        """Every observation column this extractor reads, once per time it reads it."""
        return [int(i) for name, cols in self.named_buffers() for i in cols]

    def _links(self, ids: torch.Tensor) -> torch.Tensor:
        """Per seat, the sum over its attachment positions of (attached card's embedding x the
        position's embedding): (n, seats, positions) indices -> (n, seats, card_dim). Only the
        occupied positions are looked up (a panorama fills a few of its 219)."""
        n, seats, _ = ids.shape
        b, s, j = torch.nonzero(ids, as_tuple=True)
        terms = self.embed(ids[b, s, j].long()) * self.position[j]
        out = torch.zeros(n * seats, self.position.shape[1], dtype=terms.dtype, device=ids.device)
        return out.index_add(0, b * seats + s, terms).view(n, seats, -1)

    def _buffer(self, name: str) -> torch.Tensor:
        t = getattr(self, name)
        assert isinstance(t, torch.Tensor)
        return t

    def _set(self, x: torch.Tensor) -> torch.Tensor:
        """A card set (one value per card index) as the weighted mean of its cards' embeddings, and its size / 50."""
        total = x.sum(-1, keepdim=True)
        pooled = x @ self.embed.weight[1:] / total.clamp(min=1)
        return torch.cat([pooled, total / 50], -1)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        n = obs.shape[0]
        parts = [obs.index_select(1, self.global_values)]
        for k in range(self.n_sets):
            parts.append(self._set(obs.index_select(1, self._buffer(f"set{k}"))))
        for k, g in enumerate(self.groups):
            ids = obs.index_select(1, self._buffer(f"g{k}_ids")).long()
            feats = obs.index_select(1, self._buffer(f"g{k}_feats")).view(n, g.items, F)
            token = self.card(torch.cat([self.embed(ids), feats], -1))
            if g.extra_width:
                extras = obs.index_select(1, self._buffer(f"g{k}_extras")).view(n, g.items, g.extra_width)
                token = self.slot[g.name](torch.cat([token, extras], -1))
            parts.append(token.flatten(1))
        values = obs.index_select(1, self.seat_values).view(n, MAX_SEATS, -1)
        links = self._links(obs.index_select(1, self.seat_links).view(n, MAX_SEATS, -1))
        cards = self._set(obs.index_select(1, self.seat_cards).view(n, MAX_SEATS, -1))
        seats = self.seat(torch.cat([values, links, cards], -1))
        parts.append(seats.flatten(1))
        return self.trunk(torch.cat(parts, 1))


EXTRACTORS: dict[str, type[BaseFeaturesExtractor]] = {"mlp": ValuesExtractor, "cards": CardsExtractor}


def policy_kwargs(extractor: str, net_arch: list[int], activation: str, trunk: int = 0) -> dict[str, Any]:
    """MaskablePPO's policy_kwargs for a training config's ``policy`` section. ``trunk`` (0: none)
    is the width of the extractor's last layer, shared by the policy and value heads: a hidden
    layer over the values for ``mlp``, the width of its own trunk for ``cards`` (256 without it)."""
    if extractor not in EXTRACTORS:
        raise ValueError(f"policy.extractor must be one of {', '.join(EXTRACTORS)}, got {extractor!r}")
    act, cls = ACTIVATIONS[activation], EXTRACTORS[extractor]
    kwargs: dict[str, Any] = {"net_arch": list(net_arch), "activation_fn": act, "features_extractor_class": cls}
    if trunk:
        kwargs["features_extractor_kwargs"] = {"trunk": trunk, "activation": activation} if extractor == "mlp" else {"features_dim": trunk}
    return kwargs


# ------------------------------------------------------------------ measuring the policies


def sample_observations(n: int, seed: int = 0) -> np.ndarray:
    """``n`` observations of the deciding seat from random base, Tides of Trade and solo games."""
    from wayfarers_env import Game, GameConfig
    from wayfarers_env.envs.observation import Encoder

    configs: list[dict[str, Any]] = [
        {"num_players": 2},
        {"num_players": 4},
        {"num_players": 3, "tides_of_trade": True},
        {"num_players": 1, "solo_ai_board": 2},
    ]
    rng = random.Random(seed)
    out: list[np.ndarray] = []
    game = 0
    while len(out) < n:
        g = Game(GameConfig(**configs[game % len(configs)]), seed=seed + game)
        enc = Encoder()
        while not g.is_over and len(out) < n:
            if rng.random() < 0.05:
                out.append(enc.encode(g, g.current_player))
            g.apply(rng.choice(g.legal_actions()))
        game += 1
    return np.stack(out)


def _policy(extractor: str | None, net_arch: list[int]):
    """A MaskablePPO policy: ``extractor`` None is SB3's plain MlpPolicy over the whole vector (v3's policy)."""
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from wayfarers_env.envs.observation import observation_bounds
    from wayfarers_env.rules.actions import NUM_ACTIONS

    low, high = observation_bounds()
    kwargs = policy_kwargs(extractor, net_arch, "relu") if extractor else {"net_arch": list(net_arch)}
    return MaskableActorCriticPolicy(spaces.Box(low, high, (OBS_SIZE,), np.float32), spaces.Discrete(NUM_ACTIONS), lambda _: 3e-4, **kwargs)


def measure(batch: int = 256, repeats: int = 20, threads: int = 1) -> list[dict[str, Any]]:
    """Parameters, and the median time per batch of a forward pass (actions, values, log-probabilities)
    and of a forward + backward pass (what a PPO update does), of each policy; the policies take
    turns, so that load on a shared machine hits them alike."""
    torch.set_num_threads(threads)
    obs = torch.as_tensor(sample_observations(batch))
    actions = torch.zeros(batch, dtype=torch.long)
    labels = (("MlpPolicy, whole vector (v3's)", None), ("mlp (values only)", "mlp"), ("cards", "cards"))
    policies = []
    for _label, extractor in labels:
        torch.manual_seed(0)
        policies.append(_policy(extractor, [256, 256]))
    forward: list[list[float]] = [[] for _ in labels]
    update: list[list[float]] = [[] for _ in labels]
    for _ in range(repeats + 1):  # the first round warms up
        for k, policy in enumerate(policies):
            with torch.no_grad():
                t0 = time.perf_counter()
                policy(obs)
                forward[k].append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            values, log_prob, entropy = policy.evaluate_actions(obs, actions)
            (values.sum() + log_prob.sum() + entropy.sum()).backward()
            update[k].append(time.perf_counter() - t0)
            policy.zero_grad()
    rows = []
    for k, ((label, _), policy) in enumerate(zip(labels, policies)):
        rows.append(
            {
                "policy": label,
                "params": sum(p.numel() for p in policy.parameters()),
                "largest_layer": max(m.weight.numel() for m in policy.modules() if isinstance(m, nn.Linear)),
                "forward_ms": 1000 * float(np.median(forward[k][1:])),
                "update_ms": 1000 * float(np.median(update[k][1:])),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m experiments.extractor", description=measure.__doc__)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--repeats", type=int, default=20)
    args = ap.parse_args(argv)
    print(f"MaskablePPO policies, net_arch [256, 256], batch {args.batch}, median of {args.repeats} passes, 1 CPU thread")
    print(f"{'policy':<32}{'parameters':>12}{'largest layer':>15}{'forward ms':>12}{'fwd+bwd ms':>12}")
    for r in measure(args.batch, args.repeats):
        print(f"{r['policy']:<32}{r['params']:>12,}{r['largest_layer']:>15,}{r['forward_ms']:>12.1f}{r['update_ms']:>12.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
