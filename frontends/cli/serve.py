"""``madang serve``: the local web page to play every game against the bots."""

from __future__ import annotations

from .common import user_input


def run(args) -> int:
    """Run ``madang serve`` with the parsed ``args``; returns the exit status."""
    from ..play.web import check_address, serve

    with user_input("e.g. madang serve --port 8080 (the default host 127.0.0.1 is this machine only)"):
        check_address(args.host, args.port)
    return serve(args.host, args.port, bots=args.bot or ())


def add_parser(sub) -> None:
    """Add the command's parser to ``sub`` (the ``madang`` subparsers)."""
    serve = sub.add_parser("serve", help="a local web page to play every game against the bots")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: this machine only)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--bot", action="append", metavar="POLICY",
                       help="offer your own policy too: a path (.onnx, SB3 .zip, policy files, RLlib checkpoint) "
                            "or module:attr (repeat for more)")
    serve.set_defaults(func=run)
