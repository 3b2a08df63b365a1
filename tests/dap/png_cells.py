"""Checks a screenshot of the webview (editors/vscode/webview.js) against the
heat map it was drawn from: the pixel at the centre of every cell must have
the colour ptodb gave the cell (the one heat scale: the cell's worst element
as a fraction of its tolerance, tensor/heatgrid.h). A small PNG reader (8-bit RGB/RGBA, not interlaced; what chromium
writes) with zlib, no imaging library.
usage: png_cells.py SHOT.png DATA.json CELL LEFT TOP"""
import json, struct, sys, zlib


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


shot, data_path, cell, left, top = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
heat = json.load(open(data_path))["heatmap"]
w, h, bpp, rows = read_png(shot)
bad = 0
reds = 0
for r in range(heat["rows"]):
    for c in range(heat["cols"]):
        k = r * heat["cols"] + c
        v = heat["cells"][k]
        # the colour ptodb gave the cell (the one heat scale, by tolerance)
        hexc = heat["colours"][k]
        want = tuple(int(hexc[i:i + 2], 16) for i in (1, 3, 5))
        px, py = left + c * cell + cell // 2, top + r * cell + cell // 2
        got = tuple(rows[py][px * bpp:px * bpp + 3])
        if any(abs(a - b) > 3 for a, b in zip(got, want)):
            print("cell [%d, %d] at (%d, %d): %s, expected %s for %g" % (r, c, px, py, got, want, v))
            bad += 1
        if heat["chars"][k] in "123456789?":
            reds += 1
assert bad == 0, "%d cells of the wrong colour" % bad
assert reds > 0, "no cell outside the tolerance: the planted bug must show"
print("%d cells match their values (%d outside the tolerance, in reds)" % (heat["rows"] * heat["cols"], reds))
