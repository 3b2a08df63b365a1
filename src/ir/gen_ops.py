#!/usr/bin/env python3
"""Regenerates ops.def from §8 of ir-format.md (run by hand; the output is
committed and then corrected by hand where real dumps disagree, see
docs/notes-ir.md).  Usage: gen_ops.py ir-format.md > ops.def.new"""
import re, sys

def arity(col):
    c = col.strip()
    if c in ('—', '-', ''):
        return 0, 0
    if c.startswith('none') and ' or ' in c:
        alts = [c.split(' or ', 1)[0], c.split(' or ', 1)[1]]
    elif ' / ' in c:
        alts = c.split(' / ')
    else:
        alts = [c]
    mins, maxs = [], []
    for a in alts:
        m = re.search(r'\(((?:\d+, )*\d+(?: or \d+)?) args\)', a)
        if m:
            ns = [int(x) for x in re.findall(r'\d+', m.group(1))]
            mins.append(min(ns)); maxs.append(max(ns)); continue
        m = re.search(r'\(always (\d+)\)', a)
        if m:
            mins.append(int(m.group(1))); maxs.append(int(m.group(1))); continue
        a = re.sub(r'\([^()]*(\([^()]*\))?[^()]*\)', '', a)  # parenthetical remarks
        a = re.sub(r'`[^`]*`', '', a)
        if a.strip().startswith('none') or a.strip().startswith('—'):
            mins.append(0); maxs.append(0); continue
        # count required vs optional
        depth = 0; req = 0; opt = 0; cur = ''
        items = []
        for ch in a:
            if ch == '[': depth += 1; cur += ' '; continue
            if ch == ']': depth -= 1; continue
            if ch == ',':
                items.append((cur, depth)); cur = ''; continue
            cur += ch
        items.append((cur, depth))
        for text, d in items:
            t = text.strip()
            if not t:
                continue
            if d > 0 or t.endswith('?'):
                opt += 1
            else:
                req += 1
        mins.append(req); maxs.append(req + opt)
    return min(mins), max(maxs)

def main():
    text = open(sys.argv[1], encoding='utf-8').read()
    sec = text[text.index('## 8. Catalogue'):text.index('## 9. ')]
    rows = []
    for line in sec.splitlines():
        m = re.match(r'\| `(pl|pld)\.([a-z_.0-9]+)` \| ([^|]*) \|', line)
        if not m:
            continue
        prefix, name, args = m.groups()
        if prefix == 'pld':
            name = 'pld.' + name
        parts = name.split('.')
        if parts[-1].endswith('_') and parts[-1][:-1] in ('and', 'or', 'not'):
            parts[-1] = parts[-1][:-1]
        irname = '.'.join(parts)
        fam = '_'.join(parts[:-1]).upper()
        ident = irname.replace('.', '_').upper()
        lo, hi = arity(args)
        rows.append((ident, irname, fam, lo, hi))
    for r in sorted(set(rows), key=lambda r: r[1]):
        # The last three columns (semantics, REF, tested by) are ptodb's, not
        # the doc's: carry them over from the current ops.def by hand.
        print('IR_OP(%s, "%s", %s, %d, %d, NONE, 0, "")' % r)

main()
