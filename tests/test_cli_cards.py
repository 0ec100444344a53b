"""``wayfarers cards``: the table and JSON views of the content show the real values (rulebook p.2 component counts,
p.9 Space cards, p.10 Townsfolk tuck tags), through cli.main and through the installed console script."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from experiments.cli import main


def cards_json(capsys, *args: str) -> list[dict]:
    assert main(["cards", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def cards_text(capsys, *args: str) -> str:
    assert main(["cards", *args]) == 0
    return capsys.readouterr().out


def by_id(records: list[dict]) -> dict[str, dict]:
    return {r["id"]: r for r in records}


@pytest.mark.parametrize(
    ("kind", "count"),
    [("land", 36), ("water", 36), ("space", 36), ("townsfolk", 36), ("inspiration", 16), ("upgrades", 23)],
)
def test_json_count_per_kind(capsys, kind, count):
    """Rulebook p.2: 36 cards of each of the four main kinds, 16 Inspiration cards; 23 tile designs (13 coloured + 10 pink)."""
    recs = cards_json(capsys, "--kind", kind)
    assert len(recs) == count
    assert all({"id", "name", "tags"} <= set(r) for r in recs)
    assert len({r["id"] for r in recs}) == count


def test_json_every_kind_at_once(capsys):
    recs = cards_json(capsys)
    kinds = {}
    for r in recs:
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    assert kinds == {
        "land": 36,
        "water": 36,
        "space": 36,
        "townsfolk": 36,
        "inspiration": 16,
        "upgrade": 23,
        "journal_node": 28,
        "journal_link": 44,
        "journal_tile": 10,
        "scheme": 6,
    }
    assert all(r["expansion"] is None and r["provenance"] is None for r in recs if "expansion" in r)


def test_json_space_cards(capsys):
    """Rulebook p.9: one tag entry per printed icon (a Comet card with three comets lists three), the VP expressions."""
    space = by_id(cards_json(capsys, "--kind", "space"))
    assert space["space.comet6"]["tags"] == ["comet", "comet", "comet"]
    assert space["space.comet3"]["tags"] == ["comet", "comet"]
    assert space["space.comet1"] == {
        "kind": "space",
        "id": "space.comet1",
        "name": "Bright Comet",
        "tags": ["comet"],
        "immediate": "journal",
        "vp": "4 if comet_majority else 3",
        "expansion": None,
        "provenance": None,
    }
    assert space["space.sun"]["vp"] == "7 if moon else 3"
    assert space["space.comet6"]["immediate"] is None
    assert sum(r["tags"].count("comet") for r in space.values()) == 17


def test_json_townsfolk_hosts_are_not_tags(capsys):
    """Rulebook p.10: Townsfolk do not provide tags but require them; the black Scholar goes under a Library or
    Observatory, resting Townsfolk under an Open Water."""
    folk = by_id(cards_json(capsys, "--kind", "townsfolk"))
    assert all(r["tags"] == [] for r in folk.values())
    assert folk["townsfolk.26"]["name"] == "Scholar"
    assert folk["townsfolk.26"]["hosts"] == ["library", "observatory"]
    assert folk["townsfolk.26"]["ability"] == "guild(black) / move_influence"
    assert folk["townsfolk.12"]["resting"] == "provision, silver" and folk["townsfolk.12"]["hosts"] == ["open_water"]
    assert folk["townsfolk.16"]["gives"] == ["ship", "ship"] and folk["townsfolk.16"]["cost"] == 2


def test_json_land_and_water(capsys):
    """Rulebook p.10/p.14 Farmer example City; p.8 connection-link example Open Water (receives only in the Provision row,
    gives 2 Blue Influence, offers 3 new links)."""
    land = by_id(cards_json(capsys, "--kind", "land"))
    assert land["land.1"]["die_space"] == {"requires": ["camel"], "influence": [], "action": "tile(land) / 2 x guild(yellow)"}
    assert land["land.1"]["trigger"] is None
    assert land["land.27"]["trigger"] == {"on": ["planet", "sun", "moon"], "effect": "provision"}
    assert land["land.27"]["die_space"] is None and land["land.27"]["immediate"] == "2 silver"
    assert land["land.18"]["tags"] == ["city", "library", "observatory"]
    water = by_id(cards_json(capsys, "--kind", "water"))
    assert water["water.34"]["immediate"] == "2 x guild(blue)"
    assert water["water.34"]["links"] == {"left": ["provision"], "right": ["guild(yellow)", "silver", "card_influence"]}
    assert water["water.4"]["die_space"] == {"requires": ["ship", "ship"], "influence": [], "action": "provision -> water_card"}


def test_json_inspiration_option(capsys):
    """RULES-FACTS §9.7 / docs/CONTENT.md: cards 17 and 18 only with --tides-inspiration."""
    base = by_id(cards_json(capsys, "--kind", "inspiration"))
    tides = by_id(cards_json(capsys, "--kind", "inspiration", "--tides-inspiration"))
    assert len(base) == 16 and len(tides) == 18
    assert base["inspiration.16"]["goal"] == "provisions >= 6" and base["inspiration.16"]["expansion"] is None
    assert tides["inspiration.18"]["goal"] == "water_cards >= 8"
    assert tides["inspiration.18"]["expansion"] == "tides_of_trade"
    assert tides["inspiration.18"]["provenance"] == "reference-table"


def test_json_upgrades(capsys):
    """Rulebook p.2: 62 tiles, 4 of each coloured tile and 1 of each pink; p.12: only Land/Water tiles flip."""
    tiles = by_id(cards_json(capsys, "--kind", "upgrades"))
    assert sum(r["copies"] for r in tiles.values()) == 62
    land1 = tiles["tile.land1"]
    assert (land1["tile_kind"], land1["size"], land1["vp"], land1["copies"]) == ("land", [2, 1], 0, 4)
    assert land1["columns"] == [["up"], ["camel"]] and land1["flipped"] == [["camel"], ["down"]]
    assert tiles["tile.space1"]["columns"] == [["telescope", "provision_discount"]] and tiles["tile.space1"]["flipped"] is None
    two = tiles["tile.special.two_comets"]
    assert (two["tags"], two["vp"], two["copies"], two["board"]) == (["comet", "comet"], 4, 1, {"row": "top", "column": 5})


def test_json_journal(capsys):
    """Rulebook p.7: nodes, links with both printed sides, 10 journal tiles, 5 final spaces."""
    recs = cards_json(capsys, "--kind", "journal")
    nodes = {r["id"]: r for r in recs if r["kind"] == "journal_node"}
    links = {r["id"]: r for r in recs if r["kind"] == "journal_link"}
    tiles = [r for r in recs if r["kind"] == "journal_tile"]
    assert (len(nodes), len(links), len(tiles)) == (28, 44, 10)
    assert nodes["journal.1.1"]["effect"] == "journal_tile, !green_worker" and nodes["journal.1.1"]["takes_tile"] is True
    assert nodes["journal.9.2"]["next"] == ["journal.10.3", "journal.10.4", "journal.10.5"]
    assert sum(n["final"] for n in nodes.values()) == 5
    link = links["journal.4.1->journal.5.1"]
    assert (link["from"], link["to"], link["section"]) == ("journal.4.1", "journal.5.1", 2)
    assert link["side_a"] == {"requires": None, "cost": "spend(black)"}
    assert link["side_b"] == {"requires": None, "cost": "spend(blue), spend(yellow)"}
    assert links["journal.2.3->journal.3.2"]["side_a"] == {"requires": "library >= 2", "cost": None}
    assert tiles[0] == {
        "kind": "journal_tile",
        "id": "journal_tile.1",
        "name": "Journal tile 1",
        "tags": [],
        "effect": "tile(basic, free)",
    }


def test_text_tables(capsys):
    """The plain table shows the same values a person reads off the cards, in lines of at most 120 characters."""
    out = cards_text(capsys)
    for title in ("LAND CARDS (36 cards)", "WATER CARDS (36 cards)", "SPACE CARDS (36 cards)", "TOWNSFOLK CARDS (36 cards)"):
        assert title in out
    assert "INSPIRATION CARDS (16 cards)" in out and "UPGRADE TILES (23 designs)" in out and "JOURNAL TRACK (28 nodes)" in out
    assert "SCHEME CARDS (solo) (6 cards)" in out and "TRADERS" not in out and "[ToT" not in out
    assert "62 tiles in the box" in out
    assert max(len(line) for line in out.splitlines()) <= 120
    lines = out.splitlines()
    land1 = next(line for line in lines if line.startswith("land.1 "))
    assert "City 1" in land1 and "die [camel] tile(land) / 2 x guild(yellow)" in land1
    comet6 = next(line for line in lines if line.startswith("space.comet6 "))
    assert "comet, comet, comet" in comet6 and "4 if comet_majority else 1" in comet6
    scholar = next(line for line in lines if line.startswith("townsfolk.26 "))
    assert "library or observatory" in scholar and "ability: guild(black) / move_influence" in scholar
    link = next(line for line in lines if line.startswith("journal.4.1 -> journal.5.1"))
    assert "pay spend(black)" in link and "pay spend(blue), spend(yellow)" in link


def test_text_single_kind(capsys):
    out = cards_text(capsys, "--kind", "inspiration", "--tides-inspiration")
    assert out.startswith("INSPIRATION CARDS (18 cards)")
    assert "LAND CARDS" not in out
    line = next(x for x in out.splitlines() if x.startswith("inspiration.17 "))
    assert "land_cards >= 8" in line and "tides_of_trade" in line


def test_bad_kind_is_refused(capsys):
    with pytest.raises(SystemExit) as err:
        main(["cards", "--kind", "dice"])
    assert err.value.code == 2
    assert "invalid choice: 'dice'" in capsys.readouterr().err


def test_installed_console_script():
    """The ``wayfarers`` script installed in the environment runs the same command."""
    script = Path(sys.executable).parent / "wayfarers"
    assert script.exists(), f"console script not installed next to {sys.executable}"
    done = subprocess.run([str(script), "cards", "--kind", "townsfolk", "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    folk = by_id(json.loads(done.stdout))
    assert len(folk) == 36
    assert folk["townsfolk.22"]["name"] == "Messenger" and folk["townsfolk.22"]["hosts"] == ["city", "harbour"]


# --------------------------------------------------------------------------- Tides of Trade, from the shell


def wayfarers(*args: str) -> subprocess.CompletedProcess:
    """``wayfarers cards ...`` as a user runs it."""
    return subprocess.run([sys.executable, "-m", "experiments.cli", "cards", *args], capture_output=True, text=True, timeout=120)


def shell_json(*args: str) -> list[dict]:
    done = wayfarers("--json", *args)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return json.loads(done.stdout)


def test_tides_of_trade_json_beside_the_base_game():
    """ToT component list: 8 Land, 8 Water, 3 Space, 13 Townsfolk, 2 Inspiration cards, 1 Scheme, 1 pink tile,
    4 traders, 32 worker tile halves, listed after the base game's entries, each with expansion and provenance."""
    recs = shell_json("--tides-of-trade")
    kinds = Counter(r["kind"] for r in recs)
    assert kinds == {
        "land": 44,
        "water": 44,
        "space": 39,
        "townsfolk": 49,
        "inspiration": 18,
        "upgrade": 24,
        "journal_node": 28,
        "journal_link": 44,
        "journal_tile": 10,
        "scheme": 7,
        "trader": 4,
        "worker_tile": 32,
    }
    marked = [r for r in recs if "provenance" in r]
    tides = [r for r in marked if r["expansion"] == "tides_of_trade"]
    assert len(tides) == 35 + 1 + 4 + 32
    assert {r["provenance"] for r in tides} == {"rulebook", "reference-table", "reconstructed"}
    assert all(r["provenance"] is None for r in marked if r["expansion"] is None)
    land = [r["id"] for r in recs if r["kind"] == "land"]
    assert land[:36] == [f"land.{n}" for n in range(1, 37)] and land[36:] == [f"land.{n}" for n in range(37, 45)]


def test_tides_of_trade_json_values():
    """Real values: the first trader's side A as the rulebook words it, an influence-cost City, an Overseer,
    the pink Trading Post tile, the new scheme card and the rulebook's example worker tile."""
    recs = {r["id"]: r for r in shell_json("--tides-of-trade")}
    trader = recs["trader.1"]
    assert trader["side_a"] == "2 x spend(red) -> space_card(discount3) / inspiration" and trader["provenance"] == "rulebook"
    assert (recs["trader.2"]["copies"], recs["trader.2"]["extension"]) == (2, 1)
    city = recs["land.39"]
    assert city["tags"] == ["city", "trading_post"]
    assert city["die_space"] == {"requires": [], "influence": ["yellow"], "action": "trader, 2 silver"}
    overseer = recs["townsfolk.40"]
    assert (overseer["overseer"], overseer["cost"], overseer["hosts"]) == (True, 3, ["market"])
    assert overseer["dismiss"] == "tile(land, free), provision" and overseer["resting"] == "2 provisions, silver"
    assert recs["townsfolk.39"]["gives_influence"] == ["yellow", "blue"]
    pink = recs["tile.special.trading_post"]
    assert (pink["tags"], pink["board"], pink["solo_after"], pink["provenance"]) == (
        ["trading_post"],
        {"row": "extension", "column": 1},
        5,
        "reconstructed",
    )
    scheme = recs["scheme.7"]
    assert (scheme["colour"], scheme["silver"], scheme["draw_next"], scheme["special_tile"]) == ("none", 1, True, None)
    assert scheme["second"] == "ai_tile(worker), 3 x guild(red)"
    assert (recs["worker_tile.top1"]["effect"], recs["worker_tile.bottom1"]["effect"]) == ("guild(yellow)", "provision")
    assert recs["worker_tile.top13"]["never_blocked"] is True
    assert recs["space.comet9"]["name"] == "Rare Fragment" and recs["space.comet9"]["provenance"] == "reference-table"


def test_tides_of_trade_kinds_and_text():
    """One new kind at a time, as a table of at most 120 characters a line, expansion entries marked."""
    done = wayfarers("--tides-of-trade", "--kind", "traders")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("TRADERS (Tides of Trade) (4 traders)")
    line = next(x for x in done.stdout.splitlines() if x.startswith("trader.2 "))
    assert "2 x spend(red) -> land_card" in line and "2 x spend(red) -> water_card" in line
    halves = wayfarers("--tides-of-trade", "--kind", "worker_tiles").stdout
    assert "(32 halves)" in halves and "price: 3 silver / 2 x spend(red)" in halves
    assert "yellow bottom: guild(red)" in halves
    everything = wayfarers("--tides-of-trade").stdout
    assert "LAND CARDS (44 cards)" in everything and "WORKER UPGRADE TILE HALVES" in everything
    assert max(len(x) for x in everything.splitlines()) <= 120
    lines = everything.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("land.39 "))
    first, second = lines[start], lines[start + 1]  # a long cell continues on the row's next line
    assert first.endswith("die [any die] pay yellow influence -> trader,") and second.endswith("2 silver")
    assert "Trading Post City 39" in first and "[ToT reconstructed]" in second
    assert "tile.special.trading_post: Tides of Trade (reconstructed)" in everything
    assert len(shell_json("--tides-of-trade", "--kind", "worker_tiles")) == 32


def test_tides_of_trade_kinds_need_the_flag():
    """A Tides of Trade kind without --tides-of-trade: one error line, status 2, no traceback, nothing printed."""
    for kind in ("traders", "worker_tiles"):
        done = wayfarers("--kind", kind)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == f"error: --kind {kind} lists Tides of Trade components: add --tides-of-trade\n"


def test_tides_inspiration_still_brings_only_the_two_cards():
    recs = shell_json("--tides-inspiration")
    assert Counter(r["kind"] for r in recs)["inspiration"] == 18
    assert [r["id"] for r in recs if r.get("expansion")] == ["inspiration.17", "inspiration.18"]
    assert not any(r["kind"] in ("trader", "worker_tile") for r in recs)
