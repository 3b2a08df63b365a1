#!/usr/bin/python3
"""Checks `why --json` output (docs/why.md) against arithmetic of its own.

Every line must be one JSON object; hops first ("type": "hop", numbered from
0), then one summary. Two oracles, independent of ptodb's kernels:
  - the chain is connected: each hop's value is the value the hop above it
    read from it (the followed input);
  - each hop's value is what its op makes of the inputs the hop lists:
    copies (load, store, move, push, pop) give the input bit for bit; add,
    sub, mul, div, maximum, minimum, neg, exp, recip, sqrt, rsqrt are
    recomputed in double and compared within fp32 rounding (the machine
    computes in fp32); row_max / row_min give the extreme of their inputs;
    a cast to bf16 is within bf16 rounding of its input.
A wrong element mapping (another row, another operand) fails the second.
Usage: check_chain.py FILE  (exit 1 with the hop and what differs)."""
import json
import math
import sys

COPIES = {'load', 'store', 'slice', 'assemble', 'move', 'tpush_to_aiv', 'tpush_to_aic', 'tpop_from_aic',
          'tpop_from_aiv'}


def close(a, b, rel=2e-6):
    if a is None or b is None:
        return False
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-30


def main(path):
    with open(path) as f:
        lines = [l for l in f.read().split('\n') if l.strip()]
    if not lines:
        print('check_chain: no output')
        return 1
    objs = []
    for i, l in enumerate(lines):
        try:
            objs.append(json.loads(l))
        except ValueError as e:
            print('check_chain: line %d is not JSON (%s): %s' % (i + 1, e, l[:200]))
            return 1
    if objs[-1].get('type') != 'summary':
        print('check_chain: the last object is no summary')
        return 1
    hops = objs[:-1]
    if objs[-1]['hops'] != len(hops):
        print('check_chain: the summary counts %d hops, %d given' % (objs[-1]['hops'], len(hops)))
        return 1
    checked = 0
    for k, h in enumerate(hops):
        for key in ("hop", "position", "step", 'core', 'lane', 'line', 'call', 'func', 'iteration', 'statement', 'op', 'index',
                    'value', 'inputs', 'note'):
            if key not in h:
                print('check_chain: hop %d has no %s' % (k, key))
                return 1
        if h['type'] != 'hop' or h['hop'] != k:
            print('check_chain: object %d is not hop %d' % (k, k))
            return 1
        ins = h['inputs']
        followed = [i for i in ins if i['followed']]
        if k > 0:
            up = hops[k - 1]
            f = [i for i in up['inputs'] if i['followed']]
            if len(f) != 1 or f[0]['value'] != h['value']:
                print('check_chain: hop %d (line %d) = %r is not what hop %d read from it (%r)' %
                      (k, h['line'], h['value'], k - 1, f and f[0]['value']))
                return 1
        op, v = h['op'], h['value']
        vals = [i['value'] for i in ins]
        ok = None
        if h['reduce_count'] == 0 and None not in vals:
            if op in COPIES and len(ins) == 1:
                ok = vals[0] == v
            elif op in ('add', 'sub', 'mul', 'div', 'maximum', 'minimum') and len(ins) == 2:
                a, b = vals
                r = {'add': a + b, 'sub': a - b, 'mul': a * b, 'div': a / b if b else None,
                     'maximum': max(a, b), 'minimum': min(a, b)}[op]
                ok = close(r, v)
            elif op in ('neg', 'exp', 'recip', 'sqrt', 'rsqrt') and len(ins) == 1:
                a = vals[0]
                try:
                    r = {'neg': lambda: -a, 'exp': lambda: math.exp(a), 'recip': lambda: 1 / a,
                         'sqrt': lambda: math.sqrt(a), 'rsqrt': lambda: 1 / math.sqrt(a)}[op]()
                except (ValueError, ZeroDivisionError, OverflowError):
                    r = None
                ok = r is not None and close(r, v, 1e-5)
            elif op == 'cast' and len(ins) == 1:
                ok = abs(vals[0] - v) <= 2 ** -8 * abs(vals[0]) + 1e-30
        elif op in ('row_max', 'col_max') and h['reduce_count']:
            ok = v == max(vals) and len(followed) == 1 and followed[0]['value'] == v
        elif op in ('row_min', 'col_min') and h['reduce_count']:
            ok = v == min(vals) and len(followed) == 1 and followed[0]['value'] == v
        if ok is False:
            print('check_chain: hop %d (line %d, %s): value %r is not %s of its inputs %r' %
                  (k, h['line'], h['statement'][:80], v, op, vals))
            return 1
        if ok:
            checked += 1
    print('check_chain: %d hops, %d recomputed' % (len(hops), checked))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
