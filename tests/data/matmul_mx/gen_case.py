"""Writes the data of tests/data/matmul_mx into DIR (tests/cli/matmul_mx.sh).

The definition of tile.matmul_mx / matmul_mx_acc computed here independently
of ptodb (docs/ops.md): FP8E4M3FN data decoded from its bit fields, E8M0
scales 2^(code - 127), the left scales packed MX_A_ZZ and the right ones
MX_B_NN as PyPTO's tests/st/runtime/ops/test_matmul_mx.py packs them, and
the sum in float32 in k order with each product in double (pto-isa's
TMatmulMX). The golden is matmul_mx_acc(base, ...) = base + base, as in
PyPTO's test. Usage: gen_case.py DIR
"""
import os
import random
import struct
import sys

out = sys.argv[1]
M, K, N, G = 32, 128, 32, 4
rnd = random.Random(23)
def e4m3(code):
    s = -1.0 if code & 0x80 else 1.0
    e = (code >> 3) & 15; m = code & 7
    if e == 15 and m == 7: return float('nan')
    if e == 0: return s * m * 2.0 ** -9
    return s * (1 + m / 8) * 2.0 ** (e - 7)
def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]
# data codes: any number pattern (NaN excluded), mostly small
def code():
    while True:
        c = rnd.randrange(256)
        if (c & 0x7F) != 0x7F: return c
a = [[code() for _ in range(K)] for _ in range(M)]
b = [[code() for _ in range(N)] for _ in range(K)]
s0 = [[rnd.randrange(120, 135) for _ in range(G)] for _ in range(M)]
s1 = [[rnd.randrange(120, 135) for _ in range(N)] for _ in range(G)]
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
os.makedirs(out + '/data/in', exist_ok=True); os.makedirs(out + '/data/out', exist_ok=True)
open(out + '/data/in/a.bin', 'wb').write(bytes(c for row in a for c in row))
open(out + '/data/in/b.bin', 'wb').write(bytes(c for row in b for c in row))
open(out + '/data/in/a_scale.bin', 'wb').write(bytes(pack_a(s0)))
open(out + '/data/in/b_scale.bin', 'wb').write(bytes(pack_b(s1)))
res = []
for i in range(M):
    for j in range(N):
        acc = 0.0
        for k in range(K):
            scale = 2.0 ** (s0[i][k // 32] - 127) * 2.0 ** (s1[k // 32][j] - 127)
            acc = f32(acc + e4m3(a[i][k]) * e4m3(b[k][j]) * scale)
        res.append(f32(acc + acc))  # matmul_mx_acc(base, ...): base + base
open(out + '/data/out/out.bin', 'wb').write(struct.pack('<%df' % len(res), *res))
