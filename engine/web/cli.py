"""`hexbee web`: the board in a browser, served on this machine.

    hexbee web                  # http://127.0.0.1:<a free port>/, printed
    hexbee web --port 8000 --open
    hexbee web --host 0.0.0.0   # reachable from other machines (it says so)

Needs the web extra: `pip install -e '.[web]'` (Starlette, uvicorn, websockets).
"""

import argparse
import ipaddress
import socket
import sys
import threading
import webbrowser

from .. import NAME

LOOPBACK = "127.0.0.1"


def _parser():
    parser = argparse.ArgumentParser(prog=f"{NAME} web", description="Play and analyse Hive in a browser.")
    parser.add_argument("--host", default=LOOPBACK,
                        help=f"the address to listen on (default {LOOPBACK}, this machine only)")
    parser.add_argument("--port", type=int, default=0, help="the port (default: a free one)")
    parser.add_argument("--open", action="store_true", help="open the page in the default browser")
    return parser


def _is_loopback(host):
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def main(argv=None):
    """Serve until Ctrl-C; returns the exit status."""
    args = _parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        print(f"{NAME} web: --port {args.port}: a port is 0 to 65535.", file=sys.stderr)
        return 2
    try:
        import uvicorn

        from .app import create_app
    except ImportError as error:
        print(f"{NAME} web needs the web extra ({error.name} is missing): pip install -e '.[web]'", file=sys.stderr)
        return 2
    try:
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((args.host, args.port))
    except OSError as error:
        print(f"{NAME} web: cannot listen on {args.host}:{args.port}: {error.strerror or error}", file=sys.stderr)
        return 2
    port = listener.getsockname()[1]
    shown_host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{shown_host}:{port}/"
    if not _is_loopback(args.host):
        print(f"{NAME} web: listening on {args.host}, not only this machine: anyone who can reach "
              f"port {port} can use the engine.", file=sys.stderr)
    print(f"{NAME} web: loading the engine's kernels ...", file=sys.stderr, flush=True)
    from ..protocol.warmup import warm_up

    warm_up(perft=False)
    print(f"{NAME} web: serving on {url} (Ctrl-C to stop)", flush=True)
    config = uvicorn.Config(create_app(), log_level="warning", ws="websockets-sansio", lifespan="on")
    server = uvicorn.Server(config)
    if args.open:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server.run(sockets=[listener])
    return 0


if __name__ == "__main__":
    sys.exit(main())
