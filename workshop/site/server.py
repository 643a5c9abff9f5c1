"""A local static server for the site tests that compresses text as
a real static host does."""

from __future__ import annotations

import functools
import gzip
import http.server
import threading
from pathlib import Path

TEXT = (".html", ".js", ".css", ".json", ".svg", ".txt", ".map")


@functools.lru_cache(maxsize=512)
def _gzipped(path: Path, mtime_ns: int) -> bytes:
    """The compressed body, made once per file version (a page's scripts and fonts
    are requested by every page of the survey)."""
    return gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)


class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if (
            path.is_file()
            and path.suffix in TEXT
            and "gzip" in self.headers.get("Accept-Encoding", "")
        ):
            body = _gzipped(path, path.stat().st_mtime_ns)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            import io

            return io.BytesIO(body)
        return super().send_head()


def serve(directory: Path):
    """Start a server on a free loopback port; returns (base_url, stop)."""
    handler = functools.partial(Handler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{httpd.server_address[1]}", httpd.shutdown
