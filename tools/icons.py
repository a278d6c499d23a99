"""Draw the app icons (PNG and SVG) with the standard library only.

The icons are committed in ``static/icons/``; rerun this script only to change
them: ``python3 tools/icons.py``. The drawing is a white playing card with a
red diamond on green felt; PNGs are antialiased by 4x4 supersampling.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "static" / "icons"

FELT = (20, 83, 45)
CARD = (255, 253, 247)
RED = (198, 40, 40)
EDGE = (31, 107, 58)


def _in_round_rect(x: float, y: float, x0: float, y0: float, x1: float, y1: float,
                   r: float) -> bool:
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _color(x: float, y: float, maskable: bool) -> tuple[int, int, int, int]:
    """Colour of the point (x, y) in a unit square (RGBA)."""
    # Maskable icons keep their content in the centre 80% and fill the square.
    k = 0.8 if maskable else 1.0
    u, v = 0.5 + (x - 0.5) / k, 0.5 + (y - 0.5) / k
    if not maskable and not _in_round_rect(x, y, 0, 0, 1, 1, 0.18):
        return (0, 0, 0, 0)
    if _in_round_rect(u, v, 0.27, 0.18, 0.73, 0.82, 0.05):
        if abs(u - 0.5) / 0.13 + abs(v - 0.5) / 0.19 <= 1:
            return (*RED, 255)
        return (*CARD, 255)
    if _in_round_rect(u, v, 0.25, 0.16, 0.75, 0.84, 0.06):
        return (*EDGE, 255)
    return (*FELT, 255)


def render(size: int, maskable: bool = False, samples: int = 4) -> bytes:
    """Return the RGBA PNG bytes of the icon at ``size`` x ``size``."""
    rows = []
    n = samples * samples
    for j in range(size):
        row = bytearray([0])  # filter type 0
        for i in range(size):
            acc = [0, 0, 0, 0]
            for sj in range(samples):
                for si in range(samples):
                    c = _color((i + (si + 0.5) / samples) / size,
                               (j + (sj + 0.5) / samples) / size, maskable)
                    for k in range(3):
                        acc[k] += c[k] * c[3]
                    acc[3] += c[3]
            alpha = acc[3] / n
            if acc[3]:
                row += bytes(round(acc[k] / acc[3]) for k in range(3))
            else:
                row += b"\0\0\0"
            row.append(round(alpha))
        rows.append(bytes(row))
    return _png(size, size, b"".join(rows))


def _png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


SVG = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <rect width="100" height="100" rx="18" fill="#14532d"/>
  <rect x="25" y="16" width="50" height="68" rx="6" fill="#1f6b3a"/>
  <rect x="27" y="18" width="46" height="64" rx="5" fill="#fffdf7"/>
  <path d="M50 31 L63 50 L50 69 L37 50 Z" fill="#c62828"/>
</svg>
"""


def main() -> int:
    """Write every icon into ``static/icons/``."""
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon.svg").write_text(SVG, encoding="utf-8")
    (OUT / "icon-192.png").write_bytes(render(192))
    (OUT / "icon-512.png").write_bytes(render(512, samples=2))
    (OUT / "icon-maskable-512.png").write_bytes(render(512, maskable=True, samples=2))
    print(f"icons written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
