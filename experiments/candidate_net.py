"""A scorer shared across candidates: one logit per legal action from the observation and the
action's own inputs (``wayfarers_env.envs.candidates``).

Why. A flat policy head has one output unit per action id: the unit for "place a die showing 4"
must learn, from the whole observation, which die spaces a 4 reaches this turn and what they are
worth. Here every candidate is first described by its tokens (itself, the card it names, the
actions it leads to and their cards), encoded by weights shared by every candidate, and scored
against the observation's trunk by one shared head; the flat head's logit is kept as a term, so
the scorer can do all the flat policy does and more. A main action that places a die or a
worker also gets its best follow-up's score (each follow-up scored against the position by its
own small head): the structure of the cartographer's two-deep valuation, "a die is worth its best
space", built into the net rather than left for it to find. ``flat=True`` drops the candidate term: the
baseline the probe (``benchmarks.candidate_probe``) compares with, trained the same way.
``worth=True`` also reads each token's worth (``rule_worth``: the bots' rule appraisal of a die
space, market card or worker spot from the position as it is), so the net starts from what the
rules say a space or card offers instead of learning it from card ids.

Data: ``CandidateData`` replays a ``wayfarers dataset`` file's games and encodes the candidates
of every recorded decision of the chosen kinds that has a choice; the observation rows stay in
the file's sparse form and are made dense a batch at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from experiments.extractor import value_columns
from wayfarers_env.envs.candidates import CANDIDATES, KINDS, TOKENS, Appraise, Candidates, pad
from wayfarers_env.envs.card_features import FULL, NUM_CARDS, card_feature_table
from wayfarers_env.rules.queries import CATALOG


def best_follow_up(x: torch.Tensor, there: torch.Tensor, dim: int) -> torch.Tensor:
    """The largest ``x`` over the follow-ups present (``there``, broadcast against ``x``) along
    ``dim``; 0 where a candidate has none: "a die is worth its best space", and nothing to add
    for a candidate that leads to no decision."""
    top = torch.where(there, x, -1e4).amax(dim)
    return torch.where(there.any(dim), top, torch.zeros_like(top))


class CandidateNet(nn.Module):
    """Logits (batch, CANDIDATES) for the candidates of a batch of decisions; padding gets -inf."""

    cols: torch.Tensor
    card_feat: torch.Tensor

    def __init__(self, trunk: int = 256, width: int = 64, hidden: int = 128, flat: bool = False, worth: bool = False):
        super().__init__()
        cols = value_columns()
        self.register_buffer("cols", torch.tensor(cols, dtype=torch.long), persistent=False)
        self.trunk = nn.Sequential(nn.Linear(len(cols), trunk), nn.ReLU())
        self.flat_head = nn.Linear(trunk, CATALOG.size + 1)  # the flat policy's logit per action id (+ padding)
        self.flat = flat
        self.worth = worth and not flat
        if flat:
            return
        extra = int(self.worth)  # the token's worth, fed as a number beside its embedding
        self.register_buffer("card_feat", torch.as_tensor(card_feature_table(FULL)), persistent=False)  # row -1: zeros
        self.action_emb = nn.Embedding(CATALOG.size + 1, width)
        self.card_emb = nn.Embedding(NUM_CARDS + 1, width)  # row -1: no card
        self.card_proj = nn.Linear(self.card_feat.shape[1], width)
        self.candidate = nn.Sequential(nn.Linear(3 * width + 1, width), nn.ReLU())
        self.score = nn.Sequential(nn.Linear(trunk + width + extra, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        if self.worth:
            self.worth_proj = nn.Linear(1, width)
        # each follow-up scored against the position; a die or worker is worth its best follow-up
        self.context = nn.Linear(trunk, width)
        self.follow_score = nn.Sequential(nn.Linear(2 * width + extra, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs: torch.Tensor, actions: torch.Tensor, tokens: torch.Tensor, worth: torch.Tensor | None = None) -> torch.Tensor:
        """``obs`` (B, OBS_SIZE) float32; ``actions`` (B, C) long, -1 for none; ``tokens`` (B, C, T, 2)
        long; ``worth`` (B, C, T) float32 (read only by a ``worth=True`` net)."""
        h = self.trunk(obs.index_select(1, self.cols))
        legal = actions >= 0
        logits = self.flat_head(h).gather(1, actions.clamp(min=0))
        if not self.flat:
            ids, cards = tokens[..., 0], tokens[..., 1]
            cards = torch.where(cards < 0, NUM_CARDS, cards)
            e = self.action_emb(ids) + self.card_emb(cards) + self.card_proj(self.card_feat[cards])
            if self.worth:
                if worth is None:
                    raise ValueError("a worth=True net needs the tokens' worth")
                w = (WORTH_SCALE * worth).unsqueeze(-1)
                e = e + self.worth_proj(w)
            head, rest = e[:, :, 0], e[:, :, 1:]
            there = (ids[:, :, 1:] != pad()).unsqueeze(-1)
            n = there.sum(2)
            mean = (rest * there).sum(2) / n.clamp(min=1)
            top = best_follow_up(rest, there, 2)
            cand = self.candidate(torch.cat([head, mean, top, (n > 0).float()], -1))
            joint = torch.cat([h.unsqueeze(1).expand(-1, cand.shape[1], -1), cand, *([w[:, :, 0]] if self.worth else [])], -1)
            logits = logits + self.score(joint).squeeze(-1)
            where = there.squeeze(-1).nonzero(as_tuple=True)  # (batch, candidate, token - 1) of each follow-up
            if len(where[0]):
                ctx = self.context(h)[where[0]]
                each = self.follow_score(torch.cat([ctx, rest[where], *([w[:, :, 1:][where]] if self.worth else [])], -1)).squeeze(-1)
                scores = torch.zeros(ids[:, :, 1:].shape, dtype=each.dtype).index_put(where, each)
                logits = logits + best_follow_up(scores, there.squeeze(-1), 2)
        return logits.masked_fill(~legal, float("-inf"))


WORTH_SCALE = 0.2  # rule worths run to about 10 VP; a net reads numbers near 1 best


def rule_worth(tastes=None) -> Appraise:
    """An ``Appraise`` from the bots' rules (``agents.defaults.DefaultPolicy``, the cartographer's
    tastes unless given): a die space's worth for the die being placed (only what can resolve), a
    market card's worth less its price, a worker spot's effects. Each is read from the position
    as it is, as the bots' rules read it; other actions are worth 0."""
    from agents.defaults import DefaultPolicy
    from agents.strategies import Cartographer

    policy = DefaultPolicy(Cartographer.tastes if tastes is None else tastes)
    spaces, slots = frozenset(CATALOG.SPACE), frozenset(CATALOG.SLOT)

    def appraise(game, kind: str, params, action: int) -> float:
        g = game.state
        if kind == "die_space" and action in spaces:
            return policy.placement_value(g, CATALOG.at[action], g.players[g.current].dice_face[params[0]])
        if kind == "acquire_card" and action in slots:
            return policy.slot_score(g, params[0], CATALOG.at[action], params[1], params[2])
        if kind == "worker_target":
            return policy.worker_spot_value(g, action)
        return 0.0

    return appraise


class WorthChoice(nn.Module):
    """No net: each candidate scored by its worth plus its best follow-up's worth (``rule_worth``),
    the choice the rules' appraisal alone would make; what a ``worth`` net starts from."""

    def forward(self, obs, actions: torch.Tensor, tokens: torch.Tensor, worth: torch.Tensor | None = None) -> torch.Tensor:
        if worth is None:
            raise ValueError("WorthChoice needs the tokens' worth")
        score = worth[..., 0] + best_follow_up(worth[..., 1:], tokens[..., 1:, 0] != pad(), -1)
        return score.masked_fill(actions < 0, float("-inf"))


@dataclass
class CandidateData:
    """Decisions with their candidates: ``rows`` index the dataset's rows, ``kind`` into ``KINDS``,
    ``label`` the position of the recorded action among the candidates."""

    rows: np.ndarray
    kind: np.ndarray
    actions: np.ndarray
    tokens: np.ndarray
    worth: np.ndarray  # (decisions, CANDIDATES, TOKENS) float32; zeros when encoded without an appraisal
    label: np.ndarray

    def __len__(self) -> int:
        return len(self.rows)


def encode_dataset(data, kinds: tuple[str, ...] = KINDS, games: list[int] | None = None, appraise: Appraise | None = None) -> CandidateData:
    """Replay ``data``'s games (all of them, or ``games``) and encode every recorded decision of
    ``kinds`` with two or more legal actions (with ``appraise``'s worth, if given), labelled with
    the row's action: the move, or in a DAgger game (``experiments.net_dagger``) the expert's
    choice where the learner moved. A row whose replayed seat (or, outside DAgger games, action)
    disagrees with the file is an error: the candidates would describe another position."""
    from wayfarers_env import Game, GameConfig

    cfg = data.meta["config"]
    if cfg.get("tides_of_trade") or cfg["num_players"] != 2:
        raise ValueError("the candidate probe reads base-game 2-player datasets")
    enc = Candidates(appraise)
    out: dict[str, list] = {"rows": [], "kind": [], "actions": [], "tokens": [], "worth": [], "label": []}
    for g in range(len(data.games)) if games is None else games:
        info = data.games[g]
        recorded = set(info.get("recorded", range(cfg["num_players"])))
        dagger = bool(info.get("dagger"))  # a DAgger game's row action is the expert's label, not the move
        rows = iter(np.flatnonzero(data.game == g).tolist())
        game = Game(GameConfig(num_players=cfg["num_players"], board_sides=cfg["board_sides"]), seed=info["seed"])
        for action in data.actions_of(g):
            seat = game.state.current
            if seat in recorded:
                row = next(rows)
                if int(data.seat[row]) != seat or (not dagger and int(data.action[row]) != action):
                    raise ValueError(f"game {g}: row {row} is not the replayed decision")
                kind = game.decision()[0]
                legal = game.legal_actions()
                if kind in kinds and len(legal) > 1:
                    acts, toks, worth = enc.encode(game, legal)
                    out["rows"].append(row)
                    out["kind"].append(KINDS.index(kind))
                    out["actions"].append(acts)
                    out["tokens"].append(toks)
                    out["worth"].append(worth)
                    out["label"].append(legal.index(int(data.action[row])))
            game.apply(action)
    empty = (0, CANDIDATES)
    return CandidateData(
        rows=np.asarray(out["rows"], np.int64),
        kind=np.asarray(out["kind"], np.int8),
        actions=np.stack(out["actions"]) if out["actions"] else np.zeros(empty, np.int16),
        tokens=np.stack(out["tokens"]) if out["tokens"] else np.zeros((*empty, TOKENS, 2), np.int16),
        worth=np.stack(out["worth"]) if out["worth"] else np.zeros((*empty, TOKENS), np.float32),
        label=np.asarray(out["label"], np.int64),
    )


def batch(data, cand: CandidateData, idx: np.ndarray) -> tuple[torch.Tensor, ...]:
    """Tensors of the decisions ``idx`` of ``cand``: observation, actions, tokens, worth, label."""
    obs = torch.as_tensor(data.observations(cand.rows[idx]))
    return (
        obs,
        torch.as_tensor(cand.actions[idx].astype(np.int64)),
        torch.as_tensor(cand.tokens[idx].astype(np.int64)),
        torch.as_tensor(cand.worth[idx]),
        torch.as_tensor(cand.label[idx]),
    )


def soft_targets(data, cand: CandidateData, idx: np.ndarray, temperature: float) -> np.ndarray:
    """(len(idx), CANDIDATES) target distributions: the softmax of the teacher's values of the
    candidates at ``temperature`` VP where the file has them, else all on the recorded choice.
    Why here and not in the flat clone (docs/TRAINING.md "Soft targets"): a candidate now comes
    with its own inputs, so a net can be asked to rank the candidates, not only to name the best."""
    out = np.zeros((len(idx), CANDIDATES), np.float32)
    for i, d in enumerate(idx.tolist()):
        r = int(cand.rows[d])
        a, b = int(data.soft_ptr[r]), int(data.soft_ptr[r + 1])
        if b - a > 1:
            values = dict(zip(data.soft_action[a:b].tolist(), data.soft_value[a:b].tolist()))
            acts = cand.actions[d]
            v = np.array([values.get(int(x), -np.inf) if x >= 0 else -np.inf for x in acts]) / temperature
            w = np.exp(v - v.max())
            out[i] = w / w.sum()
        else:
            out[i, cand.label[d]] = 1.0
    return out


def train_epoch(
    net: CandidateNet, opt, data, cand: CandidateData, idx: np.ndarray, batch_size: int, rng: np.random.Generator, soft: float = 0.0
) -> float:
    """One pass over ``idx`` in a seeded order; the mean cross-entropy of the recorded choice (or,
    with ``soft`` > 0, of ``soft_targets`` at that temperature)."""
    net.train()
    order = rng.permutation(idx)
    total, steps = 0.0, 0
    for start in range(0, len(order), batch_size):
        part = order[start : start + batch_size]
        obs, acts, toks, worth, label = batch(data, cand, part)
        logits = net(obs, acts, toks, worth)
        if soft > 0:
            goal = torch.as_tensor(soft_targets(data, cand, part, soft))
            loss = -(goal * logits.clamp(min=-1e9).log_softmax(1)).nan_to_num(0.0).sum(1).mean()
        else:
            loss = nn.functional.cross_entropy(logits, label)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        steps += 1
    return total / max(1, steps)


@dataclass
class Judged:
    """How a net's choices on some decisions of one kind compare with the teacher's."""

    decisions: int = 0
    right: int = 0  # the top logit is the recorded choice
    valued: int = 0  # decisions where the teacher valued the net's choice
    regret: float = 0.0  # summed over those: the teacher's best value minus its value of the net's choice (VP)
    outside: int = 0  # decisions where the teacher valued some candidates (a search over a learner's best), not the net's choice


def judge(net: nn.Module, data, cand: CandidateData, idx: np.ndarray) -> dict[str, Judged]:
    """Per decision kind of ``idx``: agreement with the recorded choice, and the regret of the
    net's choice in the teacher's own values where the file has them. Why both: the teacher's
    best candidates are often nearly tied, so a disagreement may cost nothing; the regret says
    what the disagreements cost by the teacher's measure. A teacher that valued only a few
    candidates (``rollout:lead=FILE`` weighs the learner's best main actions) has no value for a
    choice outside them: such decisions are counted in ``outside``, not in the regret."""
    net.eval()
    out = {k: Judged() for k in KINDS}
    with torch.no_grad():
        for start in range(0, len(idx), 1024):
            part = idx[start : start + 1024]
            obs, acts, toks, worth, label = batch(data, cand, part)
            top = net(obs, acts, toks, worth).argmax(1).numpy()
            for i, d in enumerate(part.tolist()):
                j = out[KINDS[cand.kind[d]]]
                j.decisions += 1
                j.right += int(top[i] == label[i])
                r = int(cand.rows[d])
                a, b = int(data.soft_ptr[r]), int(data.soft_ptr[r + 1])
                if b - a > 1:
                    values = dict(zip(data.soft_action[a:b].tolist(), data.soft_value[a:b].tolist()))
                    mine = values.get(int(cand.actions[d, top[i]]))
                    if mine is None:
                        j.outside += 1
                        continue
                    j.valued += 1
                    j.regret += max(values.values()) - mine
    return {k: j for k, j in out.items() if j.decisions}


def uniform_regret(data, cand: CandidateData, idx: np.ndarray) -> dict[str, float]:
    """Per decision kind of ``idx``: the mean regret of a uniformly random legal choice, in the
    teacher's values (the scale a net's regret reads against)."""
    total = dict.fromkeys(KINDS, 0.0)
    seen = dict.fromkeys(KINDS, 0)
    for d in idx.tolist():
        r = int(cand.rows[d])
        a, b = int(data.soft_ptr[r]), int(data.soft_ptr[r + 1])
        if b - a > 1:
            v = data.soft_value[a:b].astype(np.float64)
            kind = KINDS[cand.kind[d]]
            total[kind] += float(v.max() - v.mean())
            seen[kind] += 1
    return {k: total[k] / seen[k] for k in KINDS if seen[k]}
