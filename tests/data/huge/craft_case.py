#!/usr/bin/python3
"""Writes, at test time, a case folder whose one input (and/or golden output)
is a .pt that views a single fp32 element as a ROWS x COLS tensor with
strides (0, 0): a few hundred bytes on disk that claim terabytes.
No torch: the ZIP and pickle are written by hand (as tests/data/bad/gen.py).

usage: craft_case.py DIR ROWS COLS [in|out|both]
"""
import io
import os
import struct
import sys
import zipfile


def pickle_int(n):
    if n < 256:
        return b'K' + bytes([n])
    if n < 1 << 31:
        return b'J' + struct.pack('<i', n)
    return b'\x8a\x08' + struct.pack('<q', n)


def pkl_tensor(rows, cols):
    return (b'\x80\x02ctorch._utils\n_rebuild_tensor_v2\nq\x00((X\x07\x00\x00\x00storageq\x01'
            b'ctorch\nFloatStorage\nq\x02X\x01\x00\x00\x000q\x03X\x03\x00\x00\x00cpuq\x04K\x01'
            b'tq\x05QK\x00' + pickle_int(rows) + pickle_int(cols) + b'\x86q\x06K\x00K\x00\x86'
            b'q\x07\x89ccollections\nOrderedDict\nq\x08)Rq\x09tq\x0aRq\x0b.')


def pt(rows, cols):
    b = io.BytesIO()
    with zipfile.ZipFile(b, 'w', zipfile.ZIP_STORED) as z:
        z.writestr('a/data.pkl', pkl_tensor(rows, cols))
        z.writestr('a/data/0', struct.pack('<f', 1.5))
        z.writestr('a/version', b'3\n')
    return b.getvalue()


def main():
    root, rows, cols = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    which = sys.argv[4] if len(sys.argv) > 4 else 'in'
    shape = '[%d, %d]' % (rows, cols)
    os.makedirs(os.path.join(root, 'passes_dump'), exist_ok=True)
    os.makedirs(os.path.join(root, 'data', 'in'), exist_ok=True)
    os.makedirs(os.path.join(root, 'data', 'out'), exist_ok=True)
    with open(os.path.join(root, 'passes_dump', '00_frontend.py'), 'w') as f:
        f.write('# pypto.program: Huge\nimport pypto.language as pl\n\n@pl.program\nclass Huge:\n'
                '    @pl.function\n'
                '    def main(self, a: pl.Tensor[%s, pl.FP32], out: pl.Out[pl.Tensor[%s, pl.FP32]])'
                ' -> pl.Tensor[%s, pl.FP32]:\n'
                '        out: pl.Tensor[%s, pl.FP32] = pl.tensor.assemble(out, a, [0, 0])\n'
                '        return out\n' % (shape, shape, shape, shape))
    huge = pt(rows, cols)
    small = pt(1, 1)
    with open(os.path.join(root, 'data', 'in', 'a.pt'), 'wb') as f:
        f.write(huge if which in ('in', 'both') else small)
    with open(os.path.join(root, 'data', 'out', 'out.pt'), 'wb') as f:
        f.write(huge if which in ('out', 'both') else small)


main()
