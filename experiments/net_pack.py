"""``python -m experiments.net_pack WEIGHTS OUT``: a trained candidate net as a file a bot can play.

Why. ``benchmarks.candidate_probe --save DIR`` keeps bare weights (``DIR/worth.pt``), enough for
the probe to take them back but not for anyone else: they do not say which net they fit, which
decisions it answers, or how they were made. The net file (``agents.net_bot``) says all three, and
keeps the weights in float16, so a net of 2.6M weights takes 5 MB, under the repository's 10 MB cap
for a kept model. The shape (flat, candidates or worth) is read from the weights' names.

    python -m experiments.net_pack runs/scale/nets/worth.pt models/cartographer-worth.pt \\
        --made-by "candidate_probe runs/scale/carto2400.npz --epochs 4 --nets flat worth --save runs/scale/nets"

``--unpack`` goes the other way: a net file's weights, in float32, as ``candidate_probe --init DIR``
reads them (``DIR/worth.pt``), so training can go on from a kept net:

    python -m experiments.net_pack --unpack models/cartographer-worth.pt runs/lead/init/worth.pt
"""

from __future__ import annotations

import argparse
from pathlib import Path


def shape_of(state: dict) -> tuple[bool, bool]:
    """(flat, worth) of the net whose weights are ``state``: a flat net has no candidate scorer, a
    worth net also projects each token's worth."""
    flat = not any(k.startswith("score.") for k in state)
    return flat, not flat and any(k.startswith("worth_proj.") for k in state)


def shape_name(flat: bool, worth: bool) -> str:
    """The net's shape in the probe's words (its ``--nets`` names)."""
    return "flat" if flat else "worth" if worth else "candidates"


def pack(state: dict, kinds: list[str], made_by: str) -> dict:
    """A net file's contents (``agents.net_bot.FIELDS``) for weights ``state`` answering ``kinds``,
    the weights rounded to float16."""
    from agents.net_bot import FORMAT, VERSION
    from wayfarers_env.envs.candidates import KINDS

    flat, worth = shape_of(state)
    return {
        "format": FORMAT,
        "version": VERSION,
        "flat": flat,
        "worth": worth,
        "kinds": [k for k in KINDS if k in kinds],
        "made_by": made_by,
        "state": {k: v.detach().half() for k, v in state.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("weights", help="a net's weights as candidate_probe --save wrote them (DIR/NAME.pt); with --unpack, a net file")
    parser.add_argument("out", help="the net file to write (with --unpack, the weights); refused if it exists, unless --overwrite")
    parser.add_argument("--unpack", action="store_true", help="write a net file's weights in float32, as candidate_probe --init reads them")
    parser.add_argument("--kinds", default=None, help="comma-separated decision kinds the net answers (default: all it was trained on)")
    parser.add_argument("--made-by", default="", help="how the weights were made (the commands), kept in the file")
    parser.add_argument("--overwrite", action="store_true", help="replace OUT if it exists")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if out.exists() and not args.overwrite:
        parser.error(f"{out} exists; choose another OUT or pass --overwrite")
    import torch

    from agents.net_bot import NetFileError, build_net, read_net_file
    from wayfarers_env.envs.candidates import KINDS

    if args.unpack:
        try:
            data = read_net_file(args.weights)
        except NetFileError as exc:
            parser.error(str(exc))
        out.parent.mkdir(parents=True, exist_ok=True)
        torch.save({k: v.float() for k, v in data["state"].items()}, out)
        kind = shape_name(data["flat"], data["worth"])
        print(f"wrote {out}: the weights of {args.weights}, a {kind} net, in float32 (as DIR/{kind}.pt: candidate_probe --init DIR)")
        return 0

    kinds = list(KINDS) if args.kinds is None else [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown or not kinds:
        parser.error(f"--kinds: unknown or no kind(s) {', '.join(unknown) or args.kinds!r}; kinds: {', '.join(KINDS)}")
    try:
        state = torch.load(args.weights, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - torch raises many kinds for a file it cannot read
        parser.error(f"{args.weights}: not weights saved by candidate_probe --save ({type(exc).__name__}: {str(exc)[:120]})")
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        parser.error(f"{args.weights}: not a net's weights (a dict of tensors, as candidate_probe --save writes)")
    flat, worth = shape_of(state)
    data = pack(state, kinds, args.made_by)
    try:
        build_net(data, args.weights)  # weights that fit no net are refused before anything is written
    except NetFileError as exc:
        parser.error(str(exc))
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(data, out)
    read_net_file(out)  # what was written reads back as a net file
    kind = shape_name(flat, worth)
    print(f"wrote {out}: a {kind} net answering {', '.join(data['kinds'])} ({out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
