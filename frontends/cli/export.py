"""``madang export``: a shipped policy as ONNX with metadata and conformance vectors."""

from __future__ import annotations

from .common import user_input


def run(args) -> int:
    """Run ``madang export`` with the parsed ``args``; returns the exit status."""
    from ..export import check_examples, check_exportable, export_policy, output_dir
    from ..export.onnx_export import INSTALL_HINT, require_onnx

    with user_input("only trained policies export (the message lists them); `madang bots` lists every bot"):
        check_exportable(args.name)
    with user_input(INSTALL_HINT):
        require_onnx()
    with user_input("e.g. --examples 100"):
        check_examples(args.examples)
    with user_input("--out names a directory (created if missing) that you can write to"):
        output_dir(args.out)
    r = export_policy(args.name, args.out, count=args.examples, seed=args.seed)
    print(f"wrote {r.onnx}, {r.metadata} and {r.examples}")
    print(f"onnxruntime on the {r.num_examples} examples: greedy action agrees on {r.greedy_agree}, "
          f"max |logit difference| {r.max_logit_diff:.2e}")
    return 0 if r.greedy_agree == r.num_examples else 1


def add_parser(sub) -> None:
    """Add the command's parser to ``sub`` (the ``madang`` subparsers)."""
    export = sub.add_parser("export", help="write a shipped policy as ONNX with metadata and "
                                           "conformance vectors (needs madang[onnx])")
    export.add_argument("name", help="a shipped policy, e.g. yacht-ppo")
    export.add_argument("--out", default=".", help="output directory (default: the current one)")
    export.add_argument("--examples", type=int, default=100, help="conformance vectors to record")
    export.add_argument("--seed", type=int, default=0, help="seed of the recorded games")
    export.set_defaults(func=run)
