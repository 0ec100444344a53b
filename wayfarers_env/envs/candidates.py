"""Inputs per candidate: for each legal action of a decision, the things it points at.

Why. The flat observation says what is on the table; it does not say what each legal action
would reach. "Place a die showing 4" is worth the best die space a 4 can take (after any caravan
chain), "place a blue worker" the best card a blue worker can claim, "take the card in slot 3"
that card; a network reading the observation alone has to work out which space accepts which
face and which slot of which row a take means before it can value anything, and the clones of
docs/TRAINING.md copy the main action and the card choice worst. Here each candidate comes with
its referents spelt out, for a scorer shared across candidates (``experiments.candidate_net``).

What a candidate holds: a row of ``TOKENS`` tokens, each ``(action id, card index)``, and beside
each token a *worth*: what an ``appraise`` function given to the encoder says the token's action
offers this seat now (0 without one, or where it has no opinion). The engine has no opinion of
its own; ``experiments.candidate_net.rule_worth`` is the bots' rule appraisal of a die space, a
market card or a worker spot, read from the position as it is, nothing played out. Token 0 is
the candidate itself and the card it names (the face-up card a take or a worker target names,
the card whose die space a "put the die on" names; -1 for none). For a main action that places a
die or a worker, the other tokens are the legal actions of the decision it leads to (the die
spaces the die can take, through every caravan-chain face; the cards the worker can target),
each with its card. That follow-up is the rules' legality one decision ahead, the same
information the action mask gives one step later: no outcome is played out or valued.

Card indices are the observation's one card index space (``card_features.canonical_indices``),
so ``card_feature_table`` gives their rule features. Empty token slots hold ``PAD`` and -1.
The encoder reads only what the deciding seat sees: the market is public and the follow-up of a
die or worker depends on the public board and the seat's own pieces.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from wayfarers_env.content.loader import Content
from wayfarers_env.envs.card_features import FULL, NUM_CARDS, canonical_indices
from wayfarers_env.rules.queries import CATALOG
from wayfarers_env.vocabulary import WORKER_COLOURS

CANDIDATES = 24  # candidates a decision keeps (600 cartographer games: at most 20 for the kinds here)
TOKENS = 17  # per candidate: itself and up to 16 follow-up actions
KINDS = ("turn", "acquire_card", "worker_target", "die_space")  # decisions the encoder describes
PASS_THROUGH = frozenset({"caravan_chain"})  # a face change is followed to the space it allows


def pad() -> int:
    """The padding action id (one past the catalog), for an embedding table of ``NUM_ACTIONS + 1`` rows."""
    return CATALOG.size


@cache
def _space_cards() -> dict[int, int]:
    """Per "put the die on" action whose space lies on a card, that card's index."""
    out = {}
    for a in CATALOG.SPACE:
        sid = CATALOG.space_ids[CATALOG.at[a]]
        card = FULL.by_id.get(sid)
        if card is not None and card.index < NUM_CARDS:  # a deck card (the capital's spaces have none)
            out[a] = card.index
    return out


def _canon(content: Content) -> tuple[int, ...]:
    """Per card of ``content``, its index in the one card index space; [-1] is -1 (an empty slot)."""
    deck = canonical_indices(content)
    return (*deck, *([-1] * (len(content.cards) - len(deck))), -1)


Appraise = Callable[[Any, str, Any, int], float]  # (game, decision kind, its params, action) -> worth


class Candidates:
    """Encodes the candidates of the current decision of a game (``encode``); ``appraise`` gives
    the worth beside each token (None: all 0)."""

    def __init__(self, appraise: Appraise | None = None) -> None:
        self.appraise = appraise
        self.space_cards = _space_cards()
        self.card_slot = {a: CATALOG.at[a] for a in CATALOG.CARD}  # row * slots + slot
        self.take = {a: CATALOG.at[a] for a in CATALOG.SLOT}
        cols = len(WORKER_COLOURS)
        self.retrieve = {}
        for a in CATALOG.RETRIEVE:
            rs = CATALOG.at[a] // cols
            row = CATALOG.worker_rows[rs // CATALOG.slots]
            self.retrieve[a] = row * CATALOG.slots + rs % CATALOG.slots
        self.follow = frozenset(CATALOG.DIE) | frozenset(CATALOG.WORKER)
        self._canon: tuple[object, tuple[int, ...]] = (None, ())  # the last content's index map

    def card_of(self, game, action: int, params) -> int:
        """The card index ``action`` names in ``game`` now, or -1."""
        g = game.state
        slot = self.card_slot.get(action)
        if slot is None:
            slot = self.retrieve.get(action)
        if slot is None and action in self.take:
            slot = params.row * CATALOG.slots + self.take[action]
        if slot is not None:
            content, canon = self._canon
            if content is not g.tables.content:
                self._canon = content, canon = g.tables.content, _canon(g.tables.content)
            return canon[g.market[slot]]
        return self.space_cards.get(action, -1)

    def encode(self, game, legal: list[int] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(actions, tokens, worth) of the current decision: ``actions`` (CANDIDATES,) int16, the
        legal actions then -1; ``tokens`` (CANDIDATES, TOKENS, 2) int16 of (action id, card
        index); ``worth`` (CANDIDATES, TOKENS) float32, each token's appraisal."""
        legal = game.legal_actions() if legal is None else legal
        if len(legal) > CANDIDATES:
            raise ValueError(f"{len(legal)} legal actions; the candidate encoder keeps at most {CANDIDATES}")
        kind, params = game.decision()
        actions = np.full(CANDIDATES, -1, np.int16)
        tokens = np.empty((CANDIDATES, TOKENS, 2), np.int16)
        tokens[..., 0] = pad()
        tokens[..., 1] = -1
        worth = np.zeros((CANDIDATES, TOKENS), np.float32)
        for i, a in enumerate(legal):
            actions[i] = a
            tokens[i, 0] = (a, self.card_of(game, a, params))
            if self.appraise is not None:
                worth[i, 0] = self.appraise(game, kind, params, a)
            if kind == "turn" and a in self.follow:
                for j, (b, card, w) in enumerate(self.follow_up(game, a)[: TOKENS - 1]):
                    tokens[i, j + 1] = (b, card)
                    worth[i, j + 1] = w
        return actions, tokens, worth

    def follow_up(self, game, action: int) -> list[tuple[int, int, float]]:
        """The legal actions of the decision ``action`` leads to (through caravan-chain faces),
        each with its card and worth (the best over the faces that reach it), in order of first
        appearance."""
        seen: dict[int, tuple[int, int, float]] = {}
        turn, seat = game.state.turn, game.state.current
        todo = [game.clone()]
        todo[0].apply(action)
        while todo:
            g = todo.pop()
            if g.state.over or g.state.turn != turn or g.state.current != seat:
                continue
            kind, params = g.decision()
            legal = g.legal_actions()
            if kind in PASS_THROUGH:
                for b in legal:
                    child = g.clone()
                    child.apply(b)
                    todo.append(child)
                continue
            for b in legal:
                w = 0.0 if self.appraise is None else self.appraise(g, kind, params, b)
                if b not in seen:
                    seen[b] = (b, self.card_of(g, b, params), w)
                elif w > seen[b][2]:
                    seen[b] = (*seen[b][:2], w)
        return list(seen.values())
