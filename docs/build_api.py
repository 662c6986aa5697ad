"""Build the browsable API reference from the docstrings, with pdoc.

    pip install -e '.[docs]'
    python docs/build_api.py            # HTML into docs/api/ (not kept in git), open docs/api/index.html
    python docs/build_api.py --serve    # or browse it live at http://localhost:8080

`engine`'s own page holds only its front door (`__all__`); the layers are listed
here so that each gets its pages.
"""

import argparse
import sys
from pathlib import Path

MODULES = ["engine", "engine.game", "engine.pgn", "engine.rl", "engine.io", "engine.rules", "engine.search",
           "engine.protocol", "engine.web"]
OUT = Path(__file__).resolve().parent / "api"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"where the HTML goes (default {OUT})")
    parser.add_argument("--serve", action="store_true", help="serve it on localhost:8080 instead")
    args = parser.parse_args(argv)
    try:
        import pdoc
        import pdoc.web
    except ImportError:
        print("build_api: pdoc is missing: pip install -e '.[docs]'", file=sys.stderr)
        return 2
    pdoc.render.configure(docformat="markdown", search=True)
    if args.serve:
        server = pdoc.web.DocServer(("localhost", 8080), MODULES)
        print("API reference at http://localhost:8080 (Ctrl-C stops)", file=sys.stderr)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        return 0
    pdoc.pdoc(*MODULES, output_directory=args.out)
    print(f"API reference in {args.out / 'index.html'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
