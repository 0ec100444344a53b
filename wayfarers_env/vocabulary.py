"""The game's words, defined once: guild and worker colours, market rows, tags, tile kinds, assets
and content options.

Every module that names or counts these takes them from here (component counts such as dice per
player or cards per row come from the data files instead), so that a fourth guild or a new content
option is one edit here plus the data, not a search for literal 3s. The index of a name in its
tuple is the index the engine uses in its integer state (``PlayerState.guild[GUILDS.index("blue")]``).
"""

from __future__ import annotations

# Influence: the guilds in the order of PlayerState.guild (and the tie-break order at the end).
# Red is Tides of Trade's guild: it exists in every game (always 0 in the base game); the "any
# guild" icon never reaches it (ToT: "only allows players to gain either Black, Yellow, or Blue").
GUILDS = ("black", "yellow", "blue", "red")
BASE_GUILDS = GUILDS[:3]  # the base game's guilds: what "any guild" offers
GUILD_INDEX = {name: i for i, name in enumerate(GUILDS)}
BLACK, YELLOW, BLUE, RED = (GUILD_INDEX[g] for g in GUILDS)
SCIENCE, TRADE, EXPLORATION = BLACK, YELLOW, BLUE  # the guild abilities, by the guild that grants them
ANY_GUILD = "any"  # the "influence in any guild" icon

# Workers: colours in the order of PlayerState.workers and of a market card's worker bits
WORKER_COLOURS = ("yellow", "blue", "green")
WORKER_INDEX = {name: i for i, name in enumerate(WORKER_COLOURS)}
GREEN_WORKER = WORKER_INDEX["green"]

# The market: one row (and one deck) per card kind, in the order of GameState.market and decks
ROWS = ("townsfolk", "land", "water", "space", "inspiration")
ROW_INDEX = {name: i for i, name in enumerate(ROWS)}
TOWNSFOLK_ROW, LAND_ROW, WATER_ROW, SPACE_ROW, INSPIRATION_ROW = range(len(ROWS))
CARD_KINDS = ("land", "water", "space", "townsfolk", "inspiration")  # the kinds a card may have

# Tags printed on cards and tiles (counted by VP and goal expressions); Tides of Trade's Trading
# Post comes last so that the base game's tag indices stay put
TAGS = ("city", "vista", "harbour", "open_water", "observatory", "library", "stars", "planet", "sun", "moon", "comet", "trading_post")
PRIMARY_TAGS = TAGS[:4]  # the four scored for majorities and sets
TRIGGERS = TAGS + ("townsfolk", "tile")  # what a Vista can be set off by

# Upgrade tiles and the caravan
TILE_KINDS = ("land", "water", "space", "basic", "special")
TILE_KIND_INDEX = {name: i for i, name in enumerate(TILE_KINDS)}
ASSETS = ("camel", "ship", "pigeon", "telescope")  # what a die space may require
CAMEL, SHIP, PIGEON, TELESCOPE = range(len(ASSETS))
# per caravan column: the assets, then the manipulation arrows, then the two discounts
COLUMN_ICONS = ASSETS + ("up", "down", "silver_discount", "provision_discount")
UP, DOWN, SILVER_DISCOUNT, PROVISION_DISCOUNT = range(len(ASSETS), len(COLUMN_ICONS))
CARAVAN_ICONS = ASSETS + ("up", "down", "up_down", "silver_discount", "provision_discount")  # as printed on tiles

# Water-card link rows (right edge of one card, left edge of the next)
LINK_ROWS = ("guild", "silver", "provision", "card_influence")

# Dice
FACES = (1, 2, 3, 4, 5, 6)

# The main board: three sections, each printed on two sides
BOARD_SECTIONS = 3
BOARD_SIDES = ("a", "b")
DRAW_COUNT = 3  # "draw 3, keep 1" from a Land or Water deck (rulebook p.10)

# Expansions (a card's ``expansion`` in the data) and content options (GameConfig.content_options):
# an option brings one expansion's cards of one kind into the base game; the expansion's own name,
# as a content option, brings all of it (GameConfig.tides_of_trade)
TIDES_OF_TRADE = "tides_of_trade"
EXPANSIONS = (TIDES_OF_TRADE,)
TIDES_INSPIRATION = "tides_inspiration"  # Tides of Trade's two Inspiration cards, with the base game
OPTION_CARDS = {TIDES_INSPIRATION: (TIDES_OF_TRADE, "inspiration")}  # option -> (expansion, card kind)
CONTENT_OPTIONS = tuple(OPTION_CARDS)  # what GameConfig.content_options accepts
EXTENSIONS = 2  # Tides of Trade's main-board extensions, each printed on two sides
CARD_INFLUENCE = ("both", "ink_well", "cards")  # Tides of Trade's "Alternative Rules" for card influence

# Players
MIN_PLAYERS, MAX_PLAYERS = 2, 4  # the multiplayer game (the solo mode seats the AI beside one player)
ALL_SEATS = (1 << MAX_PLAYERS) - 1  # bitmask of every seat (cards everyone has seen)
