"""A trained candidate net (``experiments.candidate_net``) playing as an ordinary bot.

Why a second kind of trained bot. A MaskablePPO ``.zip`` (``agents.policy_bot``) answers every
decision with one flat head; the candidate net reads each legal action's own inputs and answers
the decisions its file names (``kinds``: by default the main action, card choices, worker
targets and die spaces). The game's small decisions (bag order, guild uses, what to pay) are answered
by the cartographer's rules (``agents.defaults.DefaultPolicy`` with its tastes), with nothing played
out, so the bot searches nowhere and one decision costs one forward pass or one rule.

A net file is what ``python -m experiments.net_pack`` writes: a ``torch.save`` of a dict with
``format``, ``version``, the net's shape (``flat``/``worth``), the kinds it answers, a note of
how it was made, and its weights in float16 (half the bytes, and the file is what is measured:
the bot plays the rounded weights). ``NetBot("models/x.pt")`` or the bot name ``net:models/x.pt``.

The net's class lives with its training code in ``experiments.candidate_net``; it is imported
when a net is built, so the rest of agents/ never needs torch or experiments/.
"""

from __future__ import annotations

import random
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from .base import View
from .registry import UnknownBotError

FORMAT = "wayfarers candidate net"
VERSION = 1
FIELDS = ("format", "version", "flat", "worth", "kinds", "made_by", "state")


class NetFileError(UnknownBotError):
    """A path that holds no candidate net this version can play; the message names the path."""


def read_net_file(path: str | Path) -> dict[str, Any]:
    """The checked contents of a net file (``FIELDS``), without building the net."""
    given = str(path)
    p = Path(given)
    if not p.is_file():
        what = "a folder" if p.is_dir() else "no file"
        raise NetFileError(f"{given!r}: {what} there; a net file is a .pt written by python -m experiments.net_pack")
    if not zipfile.is_zipfile(p):
        raise NetFileError(f"{given!r} is not a net file: not a torch archive (corrupt, truncated or another kind of file)")
    try:
        import torch
    except ImportError as exc:
        raise ImportError(f'a net bot needs torch ({exc.name} is missing): pip install -e ".[train]"') from None
    try:
        data = torch.load(p, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - torch raises many kinds for a file it cannot read
        detail = " ".join(str(exc).split())[:160]
        raise NetFileError(f"{given!r} could not be read as a net file ({type(exc).__name__}: {detail})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        hint = " (a bare state dict, as candidate_probe --save writes: pack it with python -m experiments.net_pack)"
        raise NetFileError(f"{given!r} is not a net file{hint if isinstance(data, dict) else ''}")
    if data.get("version") != VERSION:
        raise NetFileError(f"{given!r} is a net file of version {data.get('version')!r}; this version reads version {VERSION}")
    missing = [f for f in FIELDS if f not in data]
    if missing:
        raise NetFileError(f"{given!r} lacks {', '.join(missing)}; a net file holds {', '.join(FIELDS)}")
    from wayfarers_env.envs.candidates import KINDS

    unknown = sorted(set(data["kinds"]) - set(KINDS))
    if unknown or not data["kinds"]:
        raise NetFileError(f"{given!r} answers kinds {list(data['kinds'])}; a net answers one or more of {', '.join(KINDS)}")
    return data


def build_net(data: dict[str, Any], where: str = "the net file") -> Any:
    """The ``CandidateNet`` of a net file's contents, in float32 and eval mode."""
    import torch

    from experiments.candidate_net import CandidateNet

    net = CandidateNet(flat=bool(data["flat"]), worth=bool(data["worth"]))
    try:
        net.load_state_dict({k: v.float() for k, v in data["state"].items()})
    except (RuntimeError, AttributeError) as exc:
        first = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")[:160]
        raise NetFileError(f"{where}: its weights do not fit this version's candidate net ({first})") from None
    net.eval()
    torch.set_num_threads(1)  # tournaments run one game per process; threads would only contend
    return net


class NetBot:
    """``NetBot(path)``, or ``NetBot(net=..., kinds=...)`` for a net in memory (the probe's):
    the net answers ``kinds``, the cartographer's rules everything else."""

    def __init__(self, path: str | Path | None = None, *, net: Any = None, kinds: frozenset[str] | None = None, name: str | None = None):
        if (path is None) == (net is None):
            raise TypeError("NetBot needs a net file path or a net, not both")
        from wayfarers_env.envs.candidates import KINDS, Candidates
        from wayfarers_env.envs.observation import Encoder

        from .defaults import DefaultPolicy
        from .strategies import Cartographer

        if path is not None:
            data = read_net_file(path)
            net = build_net(data, repr(str(path)))
            kinds = frozenset(data["kinds"]) if kinds is None else kinds
        self.net, self.kinds = net, frozenset(KINDS) if kinds is None else kinds
        self.name = name or (f"net:{path}" if path is not None else "net")
        self.rules = DefaultPolicy(Cartographer.tastes)
        self.encoder = Encoder()
        worth = None
        if getattr(net, "worth", False):
            from experiments.candidate_net import rule_worth

            worth = rule_worth()
        self.candidates = Candidates(worth)
        # (legal actions, the net's logit of each) of the last decision the net answered, else None:
        # what a search led by the net (``rollout:lead=FILE``) ranks its candidates by. Not named
        # ``last_values``: a dataset records those as values in VP, and logits are not VP.
        self.last_logits: tuple[list[int], list[float]] | None = None

    def inputs(self, game: Any, seat: int, legal_actions: list[int]) -> tuple[np.ndarray, ...]:
        """The net's inputs for a decision of ``seat`` among ``legal_actions``: the observation,
        then the candidates' action ids, tokens and worths (``Candidates.encode``). Why apart
        from ``decide``: a trainer that samples from the net (``experiments.net_reinforce``)
        keeps these inputs to score the same decision again after the net has changed."""
        acts, toks, worth = self.candidates.encode(game, legal_actions)
        return self.encoder.encode(game, seat), acts, toks, worth

    def logits(self, obs: np.ndarray, acts: np.ndarray, toks: np.ndarray, worth: np.ndarray) -> list[float]:
        """The net's logit of each legal candidate of one decision's ``inputs``."""
        import torch

        with torch.inference_mode():
            out = self.net(
                torch.as_tensor(obs).unsqueeze(0),
                torch.as_tensor(acts.astype(np.int64))[None],
                torch.as_tensor(toks.astype(np.int64))[None],
                torch.as_tensor(worth)[None],
            )
        return out[0, : int((acts >= 0).sum())].tolist()

    def decide(self, view: View, legal_actions: list[int], rng: random.Random) -> int:
        game = view.game
        self.last_logits = None
        if len(legal_actions) == 1:
            return legal_actions[0]
        if game.decision()[0] not in self.kinds:
            return self.rules(game, legal_actions)
        scores = self.logits(*self.inputs(game, view.seat, legal_actions))
        self.last_logits = (legal_actions, scores)
        return legal_actions[max(range(len(scores)), key=scores.__getitem__)]
