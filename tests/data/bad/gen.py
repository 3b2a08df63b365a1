#!/usr/bin/python3
"""Writes the malformed data files under tests/data/bad/ and EXPECTED, the
error text each must produce (tests/cli/data_malformed.sh checks them).
Run from anywhere: /usr/bin/python3 tests/data/bad/gen.py
Files are small and committed, so the tests need no Python."""
import io
import os
import struct
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
expected = []


def put(name, data, want):
    path = os.path.join(HERE, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data)
    expected.append((name, want))


def pkl_tensor(cls=b'FloatStorage', numel=6, size=b'K\x02K\x03\x86', stride=b'K\x03K\x01\x86',
               offset=b'K\x00', key=b'0', glob=b'ctorch._utils\n_rebuild_tensor_v2\n'):
    return (b'\x80\x02' + glob + b'q\x00((X\x07\x00\x00\x00storageq\x01ctorch\n' + cls +
            b'\nq\x02X' + struct.pack('<I', len(key)) + key + b'q\x03X\x03\x00\x00\x00cpuq\x04' +
            (b'K' + bytes([numel]) if numel < 256 else b'\x8a\x08' + struct.pack('<q', numel)) +
            b'tq\x05Q' + offset + size + b'q\x06' + stride +
            b'q\x07\x89ccollections\nOrderedDict\nq\x08)Rq\x09tq\x0aRq\x0b.')


def pt(records, compress=False):
    b = io.BytesIO()
    with zipfile.ZipFile(b, 'w', zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED) as z:
        for name, data in records:
            z.writestr(name, data)
    return b.getvalue()


FLOATS = struct.pack('<6f', 0, 1, 2, 3, 4, 5)


def good(pkl=None, data=FLOATS, extra=()):
    return pt([('a/data.pkl', pkl or pkl_tensor()), ('a/data/0', data), ('a/version', b'3\n')] +
              list(extra))


g = good()
put('pt/empty.pt', b'', 'not a ZIP archive')
put('pt/text.pt', b'hello, this is not a tensor\n' * 4, 'not a ZIP archive')
put('pt/truncated.pt', g[:len(g) // 2], 'truncated ZIP archive')
i = g.index(FLOATS)
put('pt/bad_crc_data.pt', g[:i + 5] + bytes([g[i + 5] ^ 0x40]) + g[i + 6:], 'a/data/0: CRC-32 mismatch')
j = g.index(b'cpu')
put('pt/bad_crc_pickle.pt', g[:j] + b'cpv' + g[j + 3:], 'a/data.pkl: CRC-32 mismatch')
put('pt/os_system.pt', good(b'\x80\x02cos\nsystem\nq\x00X\x02\x00\x00\x00idq\x01\x85q\x02Rq\x03.'),
    "forbidden global 'os.system'")
put('pt/builtins_eval.pt', good(b'\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00\x8c\x08builtins\x8c\x04eval\x93.'),
    "forbidden global 'builtins.eval'")
put('pt/rebuild_parameter.pt', good(pkl_tensor(glob=b'ctorch._utils\n_rebuild_parameter\n')),
    "forbidden global 'torch._utils._rebuild_parameter'")
put('pt/bytes_mismatch.pt', good(pkl_tensor(numel=6), data=FLOATS[:20]),
    "storage '0' holds 20 bytes but 6 fp32 elements need 24")
put('pt/view_oob.pt', good(pkl_tensor(size=b'K\x03K\x03\x86')), 'reaches past its storage of 6 fp32 elements')
put('pt/offset_oob.pt', good(pkl_tensor(offset=b'K\x01')), 'reaches past its storage')
put('pt/no_pickle.pt', pt([('a/data/0', FLOATS), ('a/version', b'3\n')]), 'no data.pkl record')
put('pt/missing_storage.pt', pt([('a/data.pkl', pkl_tensor()), ('a/version', b'3\n')]),
    "storage record 'a/data/0' is missing")
put('pt/compressed.pt', pt([('a/data.pkl', pkl_tensor()), ('a/data/0', FLOATS * 50)], compress=True),
    'compressed ZIP entry (method 8)')
put('pt/bad_opcode.pt', good(b'\x80\x02i__builtin__\nobject\n.'), 'unsupported pickle opcode 0x69')
put('pt/no_stop.pt', good(pkl_tensor()[:-1]), 'pickle ends without STOP')
put('pt/legacy.pt', b'\x80\x02\x8a\x0alp\xfc\x9cF\xf9 j\xa8P\x19.' + b'\x00' * 32, 'legacy (pre-1.6, non-ZIP) torch file')
put('pt/big_endian.pt', good(extra=[('a/byteorder', b'big')]), "byteorder record is not 'little'")
put('pt/complex.pt', good(pkl_tensor(cls=b'ComplexFloatStorage')), 'unsupported storage type torch.ComplexFloatStorage')
put('pt/nine_dims.pt', good(pkl_tensor(size=b'(' + b'K\x01' * 9 + b't', stride=b'(' + b'K\x01' * 9 + b't')),
    'tensor has 9 dimensions; ptodb supports at most 8')
put('pt/huge_numel.pt', good(pkl_tensor(numel=1 << 60)), "storage '0' claims 1152921504606846976 elements: too large")
put('pt/negative_stride.pt', good(pkl_tensor(stride=b'K\x03J\xff\xff\xff\xff\x86')),
    'tensor stride[1] is not a non-negative integer')
put('pt/size_not_tuple.pt', good(pkl_tensor(size=b'K\x06')), 'tensor size is a int, not a tuple')
put('pt/memo_unset.pt', good(b'\x80\x02h\x05.'), 'memo index 5 used before it was set')
put('pt/two_values.pt', good(b'\x80\x02K\x01K\x02.'), 'pickle leaves 2 values on the stack at STOP, expected 1')
put('pt/not_tensor.pt', good(b'\x80\x02K\x07.'), 'the pickle holds a int, not a tensor, dict or list of tensors')
put('pt/self_list.pt', good(b'\x80\x02]q\x00h\x00a.'), 'APPEND with a bad item')
put('pt/deep.pt', good(b'\x80\x02)' + b'\x85' * 200 + b'.'), 'values nested too deeply')
put('pt/long_string.pt', good(b'\x80\x02X\xff\xff\xff\x7fabc.'), 'string of 2147483647 bytes runs past the end')
cd_bad = bytearray(g)
eocd = bytes(cd_bad).rindex(b'PK\x05\x06')
cd_bad[eocd + 16:eocd + 20] = struct.pack('<I', 0x7fffff00)
put('pt/bad_cd_offset.pt', bytes(cd_bad), 'central directory (offset 2147483392')
many = bytearray(g)
many[eocd + 8:eocd + 12] = struct.pack('<HH', 0xfffe, 0xfffe)
put('pt/entry_count.pt', bytes(many), 'the end record claims 65534 entries')
loc = bytearray(g)
cdpos = bytes(loc).index(b'PK\x01\x02')
loc[cdpos + 42:cdpos + 46] = struct.pack('<I', 3)
put('pt/bad_local_offset.pt', bytes(loc), 'a/data.pkl: local header at offset 3 is missing')


def npy(header, data, version=1, magic=b'\x93NUMPY'):
    h = header.encode()
    pre = 10 if version == 1 else 12
    pad = (64 - (pre + len(h) + 1) % 64) % 64
    h = h + b' ' * pad + b'\n'
    ln = struct.pack('<H', len(h)) if version == 1 else struct.pack('<I', len(h))
    return magic + bytes([version, 0]) + ln + h + data


F4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
put('npy/bad_magic.npy', npy(F4, FLOATS, magic=b'\x93NUMPX'), 'not a .npy file (bad magic)')
put('npy/not_dict.npy', npy("['descr', '<f4']", FLOATS), 'bad .npy header: expected a dict')
put('npy/short_data.npy', npy(F4, FLOATS[:16]), 'holds 16 bytes of data but shape [2, 3] of fp32 needs 24')
put('npy/long_data.npy', npy(F4, FLOATS + b'\0' * 4), 'holds 28 bytes of data but shape [2, 3] of fp32 needs 24')
put('npy/complex.npy', npy("{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }", FLOATS),
    "unsupported .npy dtype '<c8'")
put('npy/version9.npy', npy(F4, FLOATS, version=9), 'unsupported .npy version 9.0')
put('npy/header_len.npy', b'\x93NUMPY\x01\x00\xff\xff{}', 'truncated .npy header (65535 bytes announced')
put('npy/structured.npy', npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (6,), }", FLOATS),
    'structured dtypes are not tensors')
put('npy/no_shape.npy', npy("{'descr': '<f4', 'fortran_order': False, }", FLOATS),
    'needs descr, fortran_order and shape')
put('npy/negative_dim.npy', npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 3), }", FLOATS),
    'shape entries must be non-negative integers')
put('npy/bad_fortran.npy', npy("{'descr': '<f4', 'fortran_order': 0, 'shape': (6,), }", FLOATS),
    'fortran_order is not True or False')
put('npy/huge_shape.npy', npy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", FLOATS),
    'array shape is too large')

# YAML manifests share one case folder (yaml/) with a dump file and data.
put('yaml/passes_dump/00_frontend.py', b'# pypto.program: Empty\n', None)
put('yaml/data/x.npy', npy(F4, FLOATS), None)
put('yaml/data/raw.bin', FLOATS, None)
Y = [
    ('wrong_type.yaml', 'tolerance: {rtol: abc, atol: 0.1}\n', "wrong_type.yaml:1:19: error: 'rtol' must be a non-negative number, got 'abc'"),
    ('unknown_key.yaml', 'entry: f\ninptus:\n  x: {file: data/x.npy}\n', "unknown_key.yaml:2:1: error: unknown key 'inptus' (expected entry, tolerance, inputs, outputs)"),
    ('unknown_tensor_key.yaml', 'inputs:\n  x: {file: data/x.npy, dtpye: fp32}\n', "unknown_tensor_key.yaml:2:25: error: unknown key 'dtpye' for input 'x'"),
    ('syntax.yaml', 'inputs:\n  x: {file: data/x.npy\n  y: 3\n', "syntax.yaml:3:4: error: YAML syntax error: did not find expected ',' or '}'"),
    ('raw_no_shape.yaml', 'inputs:\n  w: {file: data/raw.bin, dtype: fp32}\n', "raw_no_shape.yaml:2:6: error: raw data file 'data/raw.bin' needs both 'dtype' and 'shape'"),
    ('shape_mismatch.yaml', 'inputs:\n  x: {file: data/x.npy, shape: [3, 2]}\n', "shape_mismatch.yaml:2:3: error: 'x': "),
    ('missing_file.yaml', 'inputs:\n  x: {file: data/nothere.npy}\n', 'data/nothere.npy: error: cannot open: No such file or directory'),
    ('bad_dtype.yaml', 'inputs:\n  w: {file: data/raw.bin, dtype: fp8, shape: [6]}\n', "bad_dtype.yaml:2:34: error: unknown dtype 'fp8'"),
    ('shape_not_list.yaml', 'inputs:\n  w: {file: data/raw.bin, dtype: fp32, shape: 6}\n', "shape_not_list.yaml:2:47: error: 'shape' must be a list of integers, got a scalar"),
    ('not_mapping.yaml', '- entry\n- f\n', 'not_mapping.yaml:1:1: error: the manifest must be a mapping'),
    ('raw_size.yaml', 'inputs:\n  w: {file: data/raw.bin, dtype: fp32, shape: [7]}\n', 'raw.bin: error: holds 24 bytes after offset 0 but shape [7] of fp32 needs 28'),
    ('dtype_mismatch.yaml', 'inputs:\n  x: {file: data/x.npy, dtype: int32}\n', "the file holds fp32 data (descr '<f4') but int32 was expected"),
    ('rtol_negative.yaml', 'outputs:\n  x: {file: data/x.npy, rtol: -1}\n', "'rtol' must be a non-negative number, got '-1'"),
    ('duplicate.yaml', 'inputs:\n  x: {file: data/x.npy}\n  x: {file: data/x.npy}\n', "duplicate.yaml:3:3: error: 'x' is listed twice in 'inputs'"),
]
for name, text, want in Y:
    put('yaml/' + name, text.encode(), want)

# Case folders.
put('case_dup/passes_dump/00_frontend.py', b'# pypto.program: P\n', None)
put('case_dup/passes_dump/01_after_A.py', b'# pypto.program: P\n', None)
put('case_dup/passes_dump/01_after_B.py', b'# pypto.program: P\n', None)
expected.append(('case_dup', 'duplicate pass index 01 (also 01_after_A.py)'))
put('case_nodumps/README', b'no dumps here\n', None)
expected.append(('case_nodumps', 'no passes_dump/ folder and no .py dump files here'))
put('case_baddata/passes_dump/00_frontend.py', b'# pypto.program: P\n', None)
put('case_baddata/data/in/a.pt', g[:100], None)
expected.append(('case_baddata', 'case_baddata/data/in/a.pt: error: truncated ZIP archive'))

with open(os.path.join(HERE, 'EXPECTED'), 'w') as f:
    f.write('# file<TAB>error text it must give (generated by gen.py)\n')
    for name, want in expected:
        if want:
            f.write('%s\t%s\n' % (name, want))
print(sum(1 for _, w in expected if w), 'malformed inputs')
