"""A small static server for the game: ``python3 tools/serve.py [--port 8000]``.

Why not ``python3 -m http.server``: it cannot add headers. This one sets

* the right ``Content-Type`` for ``.wasm`` (needed for streaming compilation),
  ``.mjs``, ``.webmanifest``, ``.toml``, ``.zip``;
* ``Cache-Control``: ``no-cache`` (always revalidate, cheap ``304``) for the
  page, its config, the service worker and the built engine, and a one-year
  ``immutable`` cache for the vendored runtime, whose folders are named after
  the exact version (``static/vendor/pyodide-314.0.7/``);
* ``X-Content-Type-Options: nosniff``;
* cross-origin isolation (:data:`ISOLATION`: ``Cross-Origin-Opener-Policy:
  same-origin``, ``Cross-Origin-Embedder-Policy: require-corp``): the site
  loads nothing from another origin, and Pyodide's script makes a shared
  WebAssembly memory as it loads, which Chromium reports as a deprecation
  (Lighthouse's best practices) on a page that is not isolated. ``make
  dist`` writes the same headers in ``_headers`` for the hosts that read it.

With ``--precompressed`` (``encodings``) it serves ``name.br`` or ``name.gz``
in place of ``name`` when the browser accepts that encoding and the file is
there, as hosts do with ``make dist``'s precompressed copies (nginx
``gzip_static``): ``--precompressed gzip`` is a host that serves gzip only.

It can serve a tree under a sub-path (``--prefix /eleusis/``) to check that a
build works when hosted below the root, refuses hidden paths (``.git``,
``.venv``) and ``node_modules``, and lists no directories.

Public API (used by the tests and the benchmark):
``make_server(root, host="127.0.0.1", port=0, prefix="/") -> SiteServer``,
``serve_in_thread(root, ..., encodings=()) -> SiteServer`` (call ``.close()`` to stop),
``content_type(path) -> str``, ``cache_control(path) -> str``.
"""

from __future__ import annotations

import argparse
import http.server
import os
import posixpath
import sys
import threading
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: Content types by file suffix (others come from :mod:`mimetypes`).
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".toml": "application/toml; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".py": "text/x-python; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
}

#: Headers that make the page cross-origin isolated (see the module header).
ISOLATION = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
}

#: Precompressed copies, by content coding (tools/dist.py writes them).
ENCODED = {"br": ".br", "gzip": ".gz"}

#: Cache-Control for files that may change without changing their URL.
NO_CACHE = "no-cache"
#: Cache-Control for the vendored runtime (its folders are version-named).
IMMUTABLE = "public, max-age=31536000, immutable"


def content_type(path: str) -> str:
    """Return the Content-Type for a URL path or file name."""
    suffix = posixpath.splitext(path)[1].lower()
    if suffix in CONTENT_TYPES:
        return CONTENT_TYPES[suffix]
    import mimetypes

    guessed, _ = mimetypes.guess_type(path)
    return guessed or "application/octet-stream"


def cache_control(path: str) -> str:
    """Return the Cache-Control for a site-relative path such as ``static/table.css``.

    Only the vendored runtime is cached for long; everything else is
    revalidated on each use (a ``304`` on loopback costs next to nothing, and a
    stale page or engine zip would be a real bug).
    """
    parts = [p for p in path.split("/") if p]
    if len(parts) >= 3 and parts[0] == "static" and parts[1] == "vendor":
        return IMMUTABLE
    return NO_CACHE


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves ``server.root`` below ``server.prefix`` with our headers."""

    server: SiteServer

    #: Keep-alive connections (HTTP/1.1; every response has a Content-Length)
    #: and TCP_NODELAY: without them each request paid a new connection and
    #: the headers-then-body writes could wait on a delayed ACK, ~30 ms per
    #: small file on loopback.
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            super().log_message(format, *args)

    def _site_path(self) -> str | None:
        """Return the path relative to the prefix, or None when outside it."""
        path = urllib.parse.urlsplit(self.path).path
        prefix = self.server.prefix
        if prefix != "/" and path == prefix.rstrip("/"):
            return None
        if not path.startswith(prefix):
            return None
        return path[len(prefix) :]

    def _refuse(self, rel: str) -> bool:
        parts = [p for p in urllib.parse.unquote(rel).split("/") if p]
        return any(p.startswith(".") or p == "node_modules" for p in parts)

    def send_head(self) -> Any:
        """Map the URL into the root, refuse what must not be served."""
        raw = urllib.parse.urlsplit(self.path).path
        prefix = self.server.prefix
        if prefix != "/" and raw == prefix.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", prefix)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        rel = self._site_path()
        if rel is None or self._refuse(rel):
            self.send_error(404, "Not found")
            return None
        self._rel = rel
        self._encoding = self._precompressed(rel)
        return super().send_head()

    def _precompressed(self, rel: str) -> str | None:
        """The encoding of a precompressed copy to send instead, or None."""
        accepted = {
            token.split(";")[0].strip().lower()
            for token in self.headers.get("Accept-Encoding", "").split(",")
        }
        name = rel if rel and not rel.endswith("/") else rel + "index.html"
        for encoding in self.server.encodings:
            suffix = ENCODED[encoding]
            if encoding in accepted and (self.server.root / (name + suffix)).is_file():
                return encoding
        return None

    def translate_path(self, path: str) -> str:
        """Translate below the prefix (the base class strips ``..``)."""
        rel = self._site_path() or ""
        encoding = getattr(self, "_encoding", None)
        if encoding is not None:
            if not rel or rel.endswith("/"):
                rel += "index.html"
            rel += ENCODED[encoding]
        return super().translate_path("/" + rel)

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """No directory listings: a folder without index.html is a 404."""
        self.send_error(404, "Not found")
        return None

    def copyfile(self, source: Any, outputfile: Any) -> None:
        """Send the body with ``sendfile`` (zero-copy, no GIL held), so a 10 MB
        runtime file does not slow the small requests served beside it."""
        outputfile.flush()
        # socket.sendfile falls back to plain send() where os.sendfile is missing.
        self.connection.sendfile(source)

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        name = os.fspath(path)
        encoding = getattr(self, "_encoding", None)
        if encoding is not None:
            name = name.removesuffix(ENCODED[encoding])
        return content_type(name)

    def end_headers(self) -> None:
        rel = getattr(self, "_rel", None)
        if rel is not None:
            name = rel if not rel.endswith("/") and rel else rel + "index.html"
            self.send_header("Cache-Control", cache_control(name))
            self.send_header("X-Content-Type-Options", "nosniff")
            for header, value in ISOLATION.items():
                self.send_header(header, value)
            if self.server.encodings:
                self.send_header("Vary", "Accept-Encoding")
            encoding = getattr(self, "_encoding", None)
            if encoding is not None:
                self.send_header("Content-Encoding", encoding)
        super().end_headers()


class SiteServer(http.server.ThreadingHTTPServer):
    """A threading HTTP server that knows its root, prefix and URL."""

    daemon_threads = True

    def __init__(
        self, root: Path, host: str, port: int, prefix: str, verbose: bool = False,
        encodings: tuple[str, ...] = (),
    ) -> None:
        if not prefix.startswith("/") or not prefix.endswith("/"):
            raise ValueError(f"prefix must start and end with '/': {prefix!r}")
        unknown = set(encodings) - set(ENCODED)
        if unknown:
            raise ValueError(f"unknown encodings {sorted(unknown)}: use {sorted(ENCODED)}")
        self.encodings = tuple(encodings)
        self.root = Path(root).resolve()
        if not (self.root / "index.html").is_file():
            raise FileNotFoundError(f"no index.html in {self.root}")
        self.prefix = prefix
        self.verbose = verbose
        self._thread: threading.Thread | None = None
        root_dir = str(self.root)

        def handler(*args: Any, **kwargs: Any) -> SiteHandler:
            return SiteHandler(*args, directory=root_dir, **kwargs)

        super().__init__((host, port), handler)

    @property
    def url(self) -> str:
        """The page's URL, e.g. ``http://127.0.0.1:8000/``."""
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}{self.prefix}"

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that drops a connection (reload, test teardown) is normal."""
        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError):
            return
        super().handle_error(request, client_address)

    def close(self) -> None:
        """Stop serving and release the port."""
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)


def make_server(
    root: Path = ROOT,
    host: str = "127.0.0.1",
    port: int = 0,
    prefix: str = "/",
    verbose: bool = False,
    encodings: tuple[str, ...] = (),
) -> SiteServer:
    """Create a server for ``root`` (port 0 picks a free port); ``encodings``:
    the precompressed copies to serve, preferred first (``("br", "gzip")``)."""
    return SiteServer(root, host, port, prefix, verbose, encodings)


def serve_in_thread(
    root: Path = ROOT, host: str = "127.0.0.1", port: int = 0, prefix: str = "/",
    encodings: tuple[str, ...] = (),
) -> SiteServer:
    """Start a server in a daemon thread and return it (``.url``, ``.close()``)."""
    server = make_server(root, host, port, prefix, encodings=encodings)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    server._thread = thread
    thread.start()
    return server


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point: serve until interrupted."""
    parser = argparse.ArgumentParser(description="Serve the Eleusis site locally.")
    parser.add_argument("--root", type=Path, default=ROOT, help="folder to serve")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--prefix", default="/", help="serve below this path, e.g. /eleusis/")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    parser.add_argument(
        "--precompressed", default="", metavar="ENCODINGS",
        help="serve make dist's .br/.gz copies: 'br,gzip' (preferred first) or 'gzip'",
    )
    args = parser.parse_args(argv)
    try:
        encodings = tuple(e for e in args.precompressed.split(",") if e)
        server = make_server(
            args.root, args.host, args.port, args.prefix, args.verbose, encodings
        )
    except OSError as exc:
        print(f"serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        print("serve: choose another port, e.g. `make play PORT=8001`", file=sys.stderr)
        return 1
    except (FileNotFoundError, ValueError) as exc:
        print(f"serve: {exc}", file=sys.stderr)
        return 1
    print(f"Eleusis is served at {server.url}  (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nserve: stopped")
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
