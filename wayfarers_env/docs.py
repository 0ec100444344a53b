"""Generated reference documents: ``python -m wayfarers_env.docs actions|observation``.

docs/ACTIONS.md and docs/OBSERVATION.md are printed from the catalog and the observation layout
themselves, so they cannot drift from the code (tests compare the committed files with this output).
"""

from __future__ import annotations

import sys

DOCUMENTS = ("actions", "observation")


def document(name: str) -> str:
    if name == "actions":
        from wayfarers_env.rules.actions import CATALOG

        return CATALOG.markdown()
    if name == "observation":
        from wayfarers_env.envs.observation import markdown

        return markdown()
    raise ValueError(f"unknown document {name!r}; documents: {', '.join(DOCUMENTS)}")


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in DOCUMENTS:
        print(f"usage: python -m wayfarers_env.docs {{{'|'.join(DOCUMENTS)}}}", file=sys.stderr)
        return 2
    print(document(argv[0]), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
