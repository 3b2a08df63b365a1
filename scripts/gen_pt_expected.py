#!/usr/bin/python3
"""Independent figures for every .pt under a fixtures folder, for
tests/data/pt_expected.txt. Decodes with zipfile + pickle.Unpickler (custom
find_class/persistent_load; nothing from ptodb, no torch) and numpy.

Output, one line per file (path relative to the fixtures folder):
  PATH DTYPE SHAPE NUMEL CRC32 SUM
DTYPE is ptodb's short name, SHAPE like 64x64 (scalar for 0-d), CRC32 is
zlib.crc32 of the tensor's elements in row-major order as contiguous
little-endian bytes, SUM is the float64 sum of the elements (numpy, so
pairwise order: compare with a relative tolerance).

usage: /usr/bin/python3 scripts/gen_pt_expected.py [FIXTURES] > tests/data/pt_expected.txt
"""
import os
import pickle
import sys
import zipfile
import zlib

import numpy as np

STORAGES = {
    'DoubleStorage': ('fp64', np.float64), 'FloatStorage': ('fp32', np.float32),
    'HalfStorage': ('fp16', np.float16), 'BFloat16Storage': ('bf16', np.uint16),
    'LongStorage': ('int64', np.int64), 'IntStorage': ('int32', np.int32),
    'ShortStorage': ('int16', np.int16), 'CharStorage': ('int8', np.int8),
    'ByteStorage': ('uint8', np.uint8), 'BoolStorage': ('bool', np.bool_),
}


class StorageClass:
    def __init__(self, name):
        self.name = name


def rebuild(storage, offset, size, stride, requires_grad, hooks, *meta):
    return ('tensor', storage, offset, tuple(size), tuple(stride))


def ordered_dict(*a):
    return {}


class Unpickler(pickle.Unpickler):
    def __init__(self, f, zf, prefix):
        super().__init__(f)
        self.zf, self.prefix = zf, prefix

    def find_class(self, module, name):
        if (module, name) == ('torch._utils', '_rebuild_tensor_v2'):
            return rebuild
        if (module, name) == ('collections', 'OrderedDict'):
            return ordered_dict
        if module == 'torch' and name in STORAGES:
            return StorageClass(name)
        raise pickle.UnpicklingError('forbidden %s.%s' % (module, name))

    def persistent_load(self, pid):
        kind, cls, key, loc, numel = pid
        assert kind == 'storage'
        short, npdt = STORAGES[cls.name]
        raw = self.zf.read(self.prefix + 'data/' + key)
        arr = np.frombuffer(raw, dtype=np.dtype(npdt).newbyteorder('<'))
        assert arr.size == numel
        return (short, arr)


def describe(path):
    zf = zipfile.ZipFile(path)
    pkl = [n for n in zf.namelist() if n.endswith('data.pkl')][0]
    prefix = pkl[:-len('data.pkl')]
    obj = Unpickler(zf.open(pkl), zf, prefix).load()
    _, (short, arr), offset, size, stride = obj
    item = arr.itemsize
    view = np.lib.stride_tricks.as_strided(arr[offset:], shape=size,
                                           strides=[s * item for s in stride])
    flat = np.ascontiguousarray(view)
    crc = zlib.crc32(flat.tobytes()) & 0xffffffff
    if short == 'bf16':
        vals = (flat.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    else:
        vals = flat.astype(np.float64)
    shape = 'x'.join(str(d) for d in size) if size else 'scalar'
    return '%s %s %d %08x %.17g' % (short, shape, flat.size, crc, vals.sum())


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else '/work/shared/fixtures'
    for dirpath, dirs, files in sorted(os.walk(root, followlinks=True)):
        dirs.sort()
        for f in sorted(files):
            if f.endswith('.pt'):
                p = os.path.join(dirpath, f)
                print(os.path.relpath(p, root), describe(p))


if __name__ == '__main__':
    main()
