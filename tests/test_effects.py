"""The effect grammar (wayfarers_env/effects.py): printing and parsing agree, precedence is as documented in
docs/CONTENT.md 'Effect grammar', and every malformed string is refused with a message saying what is wrong."""

from __future__ import annotations

import random

import pytest

import wayfarers_env  # noqa: F401  (its rule modules declare the icons the grammar knows)
from wayfarers_env.content.effects import (
    ATOMS,
    Atom,
    Choice,
    Cost,
    Effect,
    EffectSyntaxError,
    Repeat,
    Seq,
    atoms,
    parse,
    to_text,
)

# --------------------------------------------------------------------------- hand-written round trips

CANONICAL = [
    "silver",
    "2 silver",
    "provision",
    "3 provisions",
    "guild(any)",
    "guild(black)",
    "spend(yellow)",
    "card_influence",
    "move_influence",
    "journal",
    "journal_tile, !green_worker",
    "inspiration, !new_die",
    "refresh_die, 2 x adjust_die",
    "retrieve_worker / card_influence",
    "card_influence / move_influence / adjust_die",
    "land_card",
    "water_card",
    "space_card(discount)",
    "townsfolk(free)",
    "draw_three(land)",
    "tile(basic, free)",
    "tile(special)",
    "tile(land) / 2 x guild(yellow)",
    "2 provisions -> silver, land_card",
    "provision -> water_card",
    "3 provisions -> draw_three(water)",
    "3 silver / 2 x spend(yellow)",
    "spend(blue), spend(yellow)",
    "journal / (retrieve_worker, guild(any))",
    "2 x guild(black), (tile(special) / inspiration)",
    "2 x card_influence / 2 x move_influence",
    "guild(yellow), guild(blue), guild(black)",
    "2 x (silver, provision)",
    "2 x (silver / provision)",
    "silver / provision -> journal",
    "silver -> (provision -> journal)",
    "(silver -> journal) / (provision -> land_card)",
    "journal, (2 silver -> townsfolk)",
    "(silver, journal), provision",
    "(silver / journal) / provision",
    "ai_worker(green, blue)",
    "2 x spend(black) -> ai_card(space)",
    "ai_tile(any), ai_comet, ai_focus, ai_card_influence, ai_retrieve_worker",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_strings_print_back_identically(text):
    tree = parse(text)
    assert to_text(tree) == text
    assert parse(to_text(tree)) == tree


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("1 silver", "silver"),
        ("1 provisions", "provision"),
        ("2 provision", "2 provisions"),
        ("  silver ,journal  ", "silver, journal"),
        ("silver,journal/provision", "(silver, journal) / provision"),
        ("(silver)", "silver"),
        ("((journal))", "journal"),
        ("((silver / journal) / provision)", "(silver / journal) / provision"),
        ("tile( basic ,free )", "tile(basic, free)"),
        ("2x silver", "2 x silver"),
        ("silver->journal", "silver -> journal"),
    ],
)
def test_non_canonical_spellings_are_normalised(written, canonical):
    """Spacing, redundant parentheses and a '1' amount are accepted; printing gives the one canonical form."""
    assert to_text(parse(written)) == canonical
    assert parse(canonical) == parse(written)


# --------------------------------------------------------------------------- precedence


def test_comma_binds_tighter_than_slash():
    """'a, b / c' is a choice between the sequence 'a, b' and 'c'."""
    assert parse("silver, journal / provision") == Choice((Seq((Atom("silver"), Atom("journal"))), Atom("provisions")))
    assert parse("silver / journal, provision") == Choice((Atom("silver"), Seq((Atom("journal"), Atom("provisions")))))


def test_arrow_is_weakest():
    """'x -> a, b' pays x, then gains both a and b; 'x -> a / b' pays x, then gains one of them."""
    two = Atom("provisions", 2)
    assert parse("2 provisions -> land_card, silver") == Cost(two, Seq((Atom("land_card"), Atom("silver"))))
    assert parse("2 provisions -> land_card / silver") == Cost(two, Choice((Atom("land_card"), Atom("silver"))))
    # a choice of prices on the left: pay one of them
    assert parse("3 silver / 2 x spend(yellow) -> journal") == Cost(
        Choice((Atom("silver", 3), Repeat(2, Atom("spend", args=("yellow",))))), Atom("journal")
    )


def test_repeat_binds_tightest():
    assert parse("2 x silver, journal") == Seq((Repeat(2, Atom("silver")), Atom("journal")))
    assert parse("2 x (silver, journal)") == Repeat(2, Seq((Atom("silver"), Atom("journal"))))
    assert parse("2 x silver / journal") == Choice((Repeat(2, Atom("silver")), Atom("journal")))
    # an amount is part of the atom, a repeat is around it
    assert parse("2 x 3 silver") == Repeat(2, Atom("silver", 3))


def test_parentheses_override_precedence():
    assert parse("silver, (journal / provision)") == Seq((Atom("silver"), Choice((Atom("journal"), Atom("provisions")))))
    assert parse("(silver -> journal), provision") == Seq((Cost(Atom("silver"), Atom("journal")), Atom("provisions")))


def test_sequences_and_choices_do_not_flatten():
    """Grouping is kept: '(a, b), c' is not 'a, b, c', so printing can reproduce the source."""
    assert parse("(silver, journal), provision") == Seq((Seq((Atom("silver"), Atom("journal"))), Atom("provisions")))
    assert parse("silver, journal, provision") == Seq((Atom("silver"), Atom("journal"), Atom("provisions")))


def test_atom_fields():
    a = parse("!new_die")
    assert a == Atom("new_die", mandatory=True) and a.arg() is None and a.arg(0, "x") == "x"
    t = parse("tile(land, free)")
    assert t.args == ("land", "free") and t.arg(1) == "free"
    assert parse("provision") == Atom("provisions", 1)


def test_atoms_lists_costs_and_gains_in_order():
    tree = parse("2 provisions -> silver, (land_card / 2 x guild(yellow))")
    assert [(a.name, a.amount, a.args) for a in atoms(tree)] == [
        ("provisions", 2, ()),
        ("silver", 1, ()),
        ("land_card", 1, ()),
        ("guild", 1, ("yellow",)),
    ]


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # unknown atom: says which, and lists the known ones
        ("silvr", r"unknown effect 'silvr' in 'silvr'; known effects: .*silver"),
        ("journal, travel", r"unknown effect 'travel'"),
        # bad argument: names it and what is allowed
        ("guild(green)", r"bad argument 'green' for 'guild' in 'guild\(green\)'; allowed: \['any', 'black', 'blue', 'red', 'yellow'\]"),
        ("tile(land, cheap)", r"bad argument 'cheap' for 'tile'.*allowed: \['discount3', 'free'\]"),
        ("silver(black)", r"'silver' takes 0 argument\(s\)"),
        ("draw_three(land, water)", r"'draw_three' takes 1 argument\(s\)"),
        ("guild", r"'guild' needs an argument in 'guild'; allowed: \['any', 'black', 'blue', 'red', 'yellow'\]"),
        ("spend", r"'spend' needs an argument"),
        # missing ')'
        ("guild(black", r"unexpected end of 'guild\(black', expected '\)'"),
        ("(silver, journal", r"unexpected end of '\(silver, journal', expected '\)'"),
        ("2 x (silver / journal", r"expected '\)'"),
        ("tile(land journal)", r"expected '\)' but found 'journal'"),
        # amount on a non-amount atom
        ("2 journal", r"'journal' takes no amount in '2 journal'; write '2 x journal' to repeat it"),
        ("3 guild(black)", r"'guild' takes no amount"),
        ("0 silver", r"amount must be positive"),
        # '!' on an atom that may be declined
        ("!journal", r"only \['green_worker', 'new_die'\] may be marked '!' in '!journal'"),
        ("silver, !tile(special)", r"may be marked '!'"),
        # a mandatory icon without '!' (it is never optional)
        ("inspiration, new_die", r"'new_die' is never optional: write '!new_die'"),
        # non-cost atom left of '->'
        (
            "journal -> silver",
            r"'journal' cannot be a cost in 'journal -> silver'; costs are \['provisions', 'silver', 'spend', 'spend_card_influence'\]",
        ),
        ("silver, guild(black) -> journal", r"'guild' cannot be a cost"),
        ("2 x journal -> silver", r"'journal' cannot be a cost"),
        # structure
        ("silver -> provision -> journal", r"only one '->' per level; add parentheses"),
        ("(silver -> provision) -> journal", r"nested '->' inside a cost"),
        ("1 x silver", r"a repeat count must be at least 2, got 1"),
        ("silver journal", r"unexpected 'journal' after a complete effect"),
        ("silver )", r"unexpected '\)' after a complete effect"),
        ("silver; journal", r"unexpected character ';'"),
        ("Silver", r"unexpected character 'S'"),
        ("silver,", r"unexpected end of 'silver,'"),
        ("", r"non-empty string"),
        ("   ", r"non-empty string"),
    ],
)
def test_malformed_effects_are_refused_with_a_clear_message(text, message):
    with pytest.raises(EffectSyntaxError, match=message):
        parse(text)


def test_non_string_is_refused():
    with pytest.raises(EffectSyntaxError, match="non-empty string"):
        parse(None)  # type: ignore[arg-type]


def test_to_text_refuses_a_non_effect():
    with pytest.raises(TypeError, match="not an effect node"):
        to_text("silver")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- random trees


def random_atom(rng: random.Random, cost: bool = False) -> Atom:
    """Any well-formed atom: arguments from the allowed sets, amounts only where allowed, '!' only where allowed."""
    name = rng.choice(sorted(n for n, g in ATOMS.items() if g.cost or not cost))
    grammar = ATOMS[name]
    args: tuple[str, ...] = ()
    if grammar.args:
        n = rng.randint(1 if grammar.arg_required else 0, len(grammar.args))
        args = tuple(rng.choice(sorted(grammar.args[i])) for i in range(n))
    amount = rng.randint(1, 5) if grammar.amount else 1
    return Atom(name, amount, args, grammar.mandatory)  # a mandatory icon is always written with '!'


def random_tree(rng: random.Random, depth: int, cost: bool = False) -> Effect:
    """A random effect tree of the shapes the parser produces: sequences and choices of 2+ parts, repeats of 2+,
    costs made of cost atoms only, repeats of repeats included."""
    if depth <= 0 or rng.random() < 0.3:
        return random_atom(rng, cost)
    kind = rng.choice(["seq", "choice", "repeat"] + ([] if cost else ["cost"]))
    if kind == "seq":
        return Seq(tuple(random_tree(rng, depth - 1, cost) for _ in range(rng.randint(2, 3))))
    if kind == "choice":
        return Choice(tuple(random_tree(rng, depth - 1, cost) for _ in range(rng.randint(2, 3))))
    if kind == "repeat":
        return Repeat(rng.randint(2, 4), random_tree(rng, depth - 1, cost))
    return Cost(random_tree(rng, depth - 1, cost=True), random_tree(rng, depth - 1))


def test_random_trees_round_trip():
    """parse(to_text(t)) == t for many random trees, and printing is a fixed point."""
    rng = random.Random(20240611)
    shapes = set()
    for _ in range(3000):
        tree = random_tree(rng, depth=4)
        shapes.add(type(tree).__name__)
        text = to_text(tree)
        assert parse(text) == tree, text
        assert to_text(parse(text)) == text
    # the generator really produced every node type at the top
    assert shapes == {"Atom", "Seq", "Choice", "Repeat", "Cost"}


def test_random_trees_cover_every_atom():
    rng = random.Random(7)
    seen = {a.name for _ in range(1500) for a in atoms(random_tree(rng, depth=3))}
    assert seen == set(ATOMS)


def test_repeat_of_a_repeat_round_trips():
    tree = Repeat(2, Repeat(3, Atom("silver")))
    assert parse(to_text(tree)) == tree
