"""The game's content: the data files (``data/*.toml``), the effect grammar (``effects``),
counting expressions (``measures``), the records they load into (``records``) and the loader that
checks and caches them (``loader``). The schema is in docs/CONTENT.md."""

from wayfarers_env.content.loader import DATA_DIR, load_content
from wayfarers_env.content.records import Card, Content, ContentError

__all__ = ["DATA_DIR", "Card", "Content", "ContentError", "load_content"]
