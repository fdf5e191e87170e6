#!/usr/bin/env python
"""Mutation test of check501.py.

1. fix:  for every `# expect` site, rewrite ONLY that statement so the stored value is detached
         (assignment RHS / call arguments wrapped in a deep detach; the keeper argument itself untouched),
         re-run the checker on the copy and require that the site no longer RETAINS (checker notices).
2. break: for every `# ok` site, remove the guard on that line (.item() / .detach() / .tolist() / float() /
         .cpu().numpy()) or, if the line has none, turn the enclosing torch.no_grad() into enable_grad();
         re-run and record whether the site now RETAINS.  Sites whose value never had a graph (argmax
         counts, frozen modules, per-iteration buffers consumed by backward) are expected to survive.
3. flip: flip the label of a sample of sites and require the checker to report a disagreement there.
Results: results_mutation.json and mutation_summary.txt
"""
import ast, json, os, re, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
SET = '/tmp/r25/ten501'
sys.path.insert(0, HERE)
from check501 import parse_labels, stmt_at, keeper_specs  # noqa

MOD_BASES = ('torch', 'F', 'np', 'heapq', 'nn', 'functools', 'math')


class Wrap(ast.NodeTransformer):
    def __init__(self, skip):
        self.skip = skip

    def w(self, e):
        if ast.unparse(e) in self.skip or isinstance(e, ast.Constant):
            return e
        return ast.Call(ast.Name('__ten501_detach__', ast.Load()), [e], [])

    def visit_Call(self, node):
        self.generic_visit(node)
        node.args = [self.w(a) for a in node.args]
        for k in node.keywords:
            k.value = self.w(k.value)
        return node


def fix_line(src_lines, tree, line):
    st = stmt_at(tree, line)
    skip = set()
    for sp in keeper_specs(st):
        if sp[0] in ('name', 'expr', 'attr'):
            skip.add(sp[1])
        elif sp[0] == 'recv':
            skip.add(sp[1])
            if sp[1].split('.')[0] in MOD_BASES and sp[2]:
                skip.add(sp[2])  # heapq.heappush(heap, ...): heap is the keeper
    if isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        v = st.value
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and \
                ast.unparse(v.func.value).split('.')[0] not in MOD_BASES:
            Wrap(skip).visit(v)
        else:
            st.value = ast.Call(ast.Name('__ten501_detach__', ast.Load()), [v], [])
    else:
        Wrap(skip).visit(st)
    old = src_lines[line - 1]
    indent = old[:len(old) - len(old.lstrip())]
    marker = old[old.rindex('#'):]
    src_lines[line - 1] = indent + ast.unparse(st) + '  ' + marker
    return src_lines[line - 1]


def break_line(src_lines, line):
    old = src_lines[line - 1]
    code, marker = old[:old.rindex('#')], old[old.rindex('#'):]
    new = code.replace('.detach().cpu().numpy()', '').replace('.cpu().numpy()', '')
    new = new.replace('.item()', '').replace('.detach()', '').replace('.tolist()', '')
    new = re.sub(r'\bfloat\(', '(', new)
    if new != code:
        src_lines[line - 1] = new + marker
        return 'guard removed: ' + new.strip()
    ind = len(old) - len(old.lstrip())
    for j in range(line - 2, -1, -1):
        l = src_lines[j]
        if not l.strip():
            continue
        lind = len(l) - len(l.lstrip())
        if lind < ind and ('torch.no_grad()' in l or 'torch.inference_mode()' in l):
            src_lines[j] = l.replace('torch.no_grad()', 'torch.enable_grad()').replace('torch.inference_mode()', 'torch.enable_grad()')
            return 'no_grad -> enable_grad at line %d' % (j + 1)
        if lind < ind:
            ind = lind
        if l.startswith('def ') or l.startswith('class '):
            # look at decorators directly above a def
            pass
    for j in range(line - 2, -1, -1):
        l = src_lines[j]
        if l.lstrip().startswith('@torch.no_grad()'):
            src_lines[j] = l.replace('@torch.no_grad()', '@torch.enable_grad()')
            return 'decorator no_grad -> enable_grad at line %d' % (j + 1)
        if l.startswith('def ') or l.startswith('class '):
            break
    return None


def flip_line(src_lines, line, label):
    old = src_lines[line - 1]
    code = old[:old.rindex('#')]
    src_lines[line - 1] = code + ('# ok' if label == 'expect' else '# expect: TEN501')


def targets():
    out = []
    for name in sorted(os.listdir(SET)):
        p = os.path.join(SET, name)
        if name.startswith('q') and name.endswith('.py'):
            out.append((p, [p]))
        elif name.startswith('pkg_') and os.path.isdir(p):
            out.append((p, sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith('.py'))))
    return out


def run_mut(target, file, line, kind, label):
    tmp = tempfile.mkdtemp(prefix='m501_', dir='/tmp/r25/checkers501')
    try:
        dst = os.path.join(tmp, os.path.basename(target))
        if os.path.isdir(target):
            shutil.copytree(target, dst, ignore=shutil.ignore_patterns('__pycache__'))
            mfile = os.path.join(dst, os.path.relpath(file, target))
        else:
            shutil.copy(target, dst)
            mfile = dst
        lines = open(mfile).read().split('\n')
        if kind == 'fix':
            how = fix_line(lines, ast.parse('\n'.join(lines)), line)
        elif kind == 'break':
            how = break_line(lines, line)
            if how is None:
                return dict(kind=kind, site='%s:%d' % (os.path.basename(file), line), result='not-mutable')
        else:
            flip_line(lines, line, label)
            how = 'label flipped'
        open(mfile, 'w').write('\n'.join(lines))
        js = os.path.join(tmp, 'r.json')
        env = dict(os.environ, OMP_NUM_THREADS='1')
        p = subprocess.run([sys.executable, os.path.join(HERE, 'check501.py'), dst, '--json', js],
                           capture_output=True, text=True, env=env, timeout=300)
        if not os.path.exists(js):
            return dict(kind=kind, site='%s:%d' % (os.path.basename(file), line), result='crash',
                        how=how, err=p.stderr[-300:])
        res = json.load(open(js))
        row = [r for r in res['sites'] if r['line'] == line and os.path.basename(r['file']) == os.path.basename(file)][0]
        others_bad = [r['site'] for r in res['sites'] if not r['agree'] and r is not row]
        if kind == 'fix':
            result = 'killed' if not row['retained'] else 'survived'
        elif kind == 'break':
            result = 'killed' if row['retained'] else 'survived'
        else:
            result = 'killed' if not row['agree'] else 'survived'
        return dict(kind=kind, site=row['site'], file=os.path.relpath(file, SET), line=line, how=how,
                    result=result, retained=row['retained'], checker_flags_site=not row['agree'],
                    other_sites_disagreeing=others_bad, rc=res['rc'])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    if '--rerun-nonkilled' in sys.argv:
        prev = json.load(open(os.path.join(HERE, 'results_mutation.json')))
        tmap = {os.path.basename(t): (t, fs) for t, fs in targets()}
        jobs, keep = [], []
        for r in prev:
            if r['result'] == 'killed' or r['result'] == 'not-mutable' or r['kind'] == 'flip':
                keep.append(r)
                continue
            fname, ln = r['site'].rsplit(':', 1)
            for t, fs in tmap.values():
                for f in fs:
                    if os.path.basename(f) == fname and int(ln) in parse_labels(f):
                        jobs.append((t, f, int(ln), r['kind'], parse_labels(f)[int(ln)]))
        with ThreadPoolExecutor(int(os.environ.get('J', '2'))) as ex:
            results = keep + list(ex.map(lambda j: run_mut(*j), jobs))
        return report(results)
    jobs = []
    for target, files in targets():
        k = 0
        for f in files:
            for ln, lab in sorted(parse_labels(f).items()):
                if lab == 'expect':
                    jobs.append((target, f, ln, 'fix', lab))
                elif lab == 'ok':
                    jobs.append((target, f, ln, 'break', lab))
                if k == 0:  # flip the first label of every program/package
                    jobs.append((target, f, ln, 'flip', lab))
                k += 1
    with ThreadPoolExecutor(int(os.environ.get('J', '2'))) as ex:
        results = list(ex.map(lambda j: run_mut(*j), jobs))
    report(results)


def report(results):
    json.dump(results, open(os.path.join(HERE, 'results_mutation.json'), 'w'), indent=1)
    with open(os.path.join(HERE, 'mutation_summary.txt'), 'w') as out:
        for kind in ('fix', 'break', 'flip'):
            rs = [r for r in results if r['kind'] == kind]
            counts = {}
            for r in rs:
                counts[r['result']] = counts.get(r['result'], 0) + 1
            out.write('%s: %d mutants %s\n' % (kind, len(rs), counts))
        for r in results:
            if not (r['result'] == 'killed'):
                out.write('  %s %s -> %s  (%s)\n' % (r['kind'], r['site'], r['result'], r.get('how', '')))
    print(open(os.path.join(HERE, 'mutation_summary.txt')).read())


if __name__ == '__main__':
    main()
