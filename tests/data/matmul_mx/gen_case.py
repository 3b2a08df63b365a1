"""Writes the data of tests/data/matmul_mx into DIR (tests/cli/matmul_mx.sh).

The definition of tile.matmul_mx / matmul_mx_acc computed here independently
of ptodb (docs/ops.md): FP8E4M3FN data decoded from its bit fields, E8M0
scales 2^(code - 127), the left scales packed MX_A_ZZ and the right ones
MX_B_NN as PyPTO's tests/st/runtime/ops/test_matmul_mx.py packs them, and
the sum in float32 in k order with each product in double (pto-isa's
TMatmulMX). The golden is matmul_mx_acc(base, ...) = base + base, as in
PyPTO's test.

Two cases, as PyPTO's test has two programs: FP8 x FP8 (raw bytes, dtypes
from tests/data/matmul_mx/ptodb.yaml), and an FP4 lhs (tests/data/matmul_mx_fp4:
a torch 2.x .pt of float4_e2m1fn_x2, two E2M1 codes a byte, low nibble
first, written here as torch.save lays it out) that the kernel casts to
FP8E4M3FN. Usage: gen_case.py FP8_CASE_DIR FP4_CASE_DIR (each gets data/)
"""
import os
import random
import struct
import sys
import zipfile

M, K, N, G = 32, 128, 32, 4


def e4m3(code):
    s = -1.0 if code & 0x80 else 1.0
    e = (code >> 3) & 15
    m = code & 7
    if e == 15 and m == 7:
        return float('nan')
    if e == 0:
        return s * m * 2.0 ** -9
    return s * (1 + m / 8) * 2.0 ** (e - 7)


def e2m1(code):
    s = -1.0 if code & 8 else 1.0
    e = (code >> 1) & 3
    m = code & 1
    if e == 0:
        return s * m * 0.5
    return s * (1 + m / 2) * 2.0 ** (e - 1)


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def pack_a(s):  # MX_A_ZZ: [M/16, G/2, 16, 2]
    flat = [0] * (M * G)
    for r in range(M):
        for g in range(G):
            flat[(((r // 16) * (G // 2) + g // 2) * 16 + r % 16) * 2 + g % 2] = s[r][g]
    return flat


def pack_b(s):  # MX_B_NN: [N/16, G/2, 16, 2]
    flat = [0] * (G * N)
    for g in range(G):
        for n in range(N):
            flat[(((n // 16) * (G // 2) + g // 2) * 16 + n % 16) * 2 + g % 2] = s[g][n]
    return flat


def golden(av, bv, s0, s1):
    res = []
    for i in range(M):
        for j in range(N):
            acc = 0.0
            for k in range(K):
                scale = 2.0 ** (s0[i][k // 32] - 127) * 2.0 ** (s1[k // 32][j] - 127)
                acc = f32(acc + av[i][k] * bv[k][j] * scale)
            res.append(f32(acc + acc))  # matmul_mx_acc(base, ...): base + base
    return struct.pack('<%df' % len(res), *res)


def binint(v):
    return b'J' + struct.pack('<i', v)


def write_pt_v3(path, torch_dtype, shape, data):
    """One tensor as torch 2.x saves a dtype without a legacy storage class:
    _rebuild_tensor_v3 over an UntypedStorage of bytes plus the dtype."""
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    pkl = (b'\x80\x02ctorch._utils\n_rebuild_tensor_v3\nq\x00((X\x07\x00\x00\x00storageq\x01'
           b'ctorch.storage\nUntypedStorage\nq\x02X\x01\x00\x00\x000q\x03X\x03\x00\x00\x00cpuq\x04' +
           binint(len(data)) + b'tq\x05Q' + binint(0) +
           b'(' + b''.join(binint(x) for x in shape) + b't' +
           b'(' + b''.join(binint(x) for x in strides) + b't' +
           b'\x89ccollections\nOrderedDict\nq\x08)Rq\x09ctorch\n' + torch_dtype.encode() +
           b'\nq\x0atq\x0bRq\x0c.')
    stem = os.path.splitext(os.path.basename(path))[0]
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_STORED) as z:
        z.writestr(stem + '/data.pkl', pkl)
        z.writestr(stem + '/data/0', data)
        z.writestr(stem + '/version', b'3\n')


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data)


def main():
    out8, out4 = sys.argv[1], sys.argv[2]
    rnd = random.Random(23)

    def fp8_code():  # any number pattern, NaN excluded
        while True:
            c = rnd.randrange(256)
            if (c & 0x7F) != 0x7F:
                return c

    a = [[fp8_code() for _ in range(K)] for _ in range(M)]
    b = [[fp8_code() for _ in range(N)] for _ in range(K)]
    s0 = [[rnd.randrange(120, 135) for _ in range(G)] for _ in range(M)]
    s1 = [[rnd.randrange(120, 135) for _ in range(N)] for _ in range(G)]
    bv = [[e4m3(c) for c in row] for row in b]
    for case in (out8, out4):
        write(case + '/data/in/b.bin', bytes(c for row in b for c in row))
        write(case + '/data/in/a_scale.bin', bytes(pack_a(s0)))
        write(case + '/data/in/b_scale.bin', bytes(pack_b(s1)))
    write(out8 + '/data/in/a.bin', bytes(c for row in a for c in row))
    write(out8 + '/data/out/out.bin', golden([[e4m3(c) for c in row] for row in a], bv, s0, s1))

    a4 = [[rnd.randrange(16) for _ in range(K)] for _ in range(M)]
    packed = bytes(row[k] | (row[k + 1] << 4) for row in a4 for k in range(0, K, 2))
    write_pt_v3(out4 + '/data/in/a.pt', 'float4_e2m1fn_x2', [M, K // 2], packed)
    write(out4 + '/data/out/out.bin', golden([[e2m1(c) for c in row] for row in a4], bv, s0, s1))


main()
