#!/usr/bin/env python
"""Run-time checker for TEN501 labels.

Usage: python check501.py TARGET [--json OUT] [--fix FILE:LINE]
TARGET is a single program (qNN_*.py) or a package directory (run as `python -m pkg.main`).

Method
------
* Every labeled line (`# expect: TEN501`, `# ok`, `# either: TEN501`) is parsed with `ast` to find the
  statement starting there and its *keeper*: the assignment target (name / attribute / container of a
  subscript) or the receiver of the call (`lst.append(..)` -> lst, `meter.update(..)` -> meter,
  `heapq.heappush(h, ..)` -> h, `setattr(o, ..)` -> o).
* The program runs in-process under sys.settrace.  Right after each execution of a labeled statement the
  keeper is resolved in that frame and registered.
* A global *tick* counter advances on every autograd backward()/autograd.grad() call, and on loop-header
  lines listed for the program in config501.json (eval / rollout loops that have no backward).
* Ownership: right before a labeled statement runs, its keeper is walked and every reachable autograd
  node is marked; right after, the keeper is walked again and the nodes that were NOT reachable before
  (i.e. the graph this execution stored) are tagged node.metadata['ten501_own'][site] = current tick.
  A node's tag is therefore >= the tick in which it was created, and a site is only charged for graphs it
  stored itself (a keeper shared with another site does not leak that site's graphs into this one).
* The keeper is walked (containers, object __dict__, closures, partials, generator frames, deques,
  tensors -> grad_fn -> next_functions ...) after each execution of the site, at every tick, when the
  frame owning a local keeper returns, and at program end.  If a node owned by the site with tag <= tick-2
  is reachable (it survived at least two backward/iteration ticks) the site RETAINS an old graph.
  AccumulateGrad nodes (parameters) are ignored.
* expect sites must RETAIN; ok sites must NOT retain and must have run >= 2 times spanning >= 2 ticks.
"""
import ast, builtins, functools, gc, inspect, json, os, re, runpy, shutil, subprocess, sys, tempfile, types, weakref

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = json.load(open(os.path.join(HERE, 'config501.json')))
MARK = re.compile(r'#\s*(expect:\s*TEN501|either:\s*TEN501|ok)\s*$')
MARGIN = 2


def deep_detach(x):
    import torch
    if isinstance(x, torch.Tensor):
        return x.detach()
    if isinstance(x, tuple) and not hasattr(x, '_fields'):
        return tuple(deep_detach(v) for v in x)
    if isinstance(x, list):
        return [deep_detach(v) for v in x]
    if isinstance(x, dict):
        return {k: deep_detach(v) for k, v in x.items()}
    return x


builtins.__ten501_detach__ = deep_detach


def files_of(target):
    if os.path.isdir(target):
        out = []
        for r, _, fs in os.walk(target):
            out += [os.path.join(r, f) for f in sorted(fs) if f.endswith('.py')]
        return sorted(out)
    return [target]


def parse_labels(path):
    labels = {}
    for i, line in enumerate(open(path).read().split('\n'), 1):
        m = MARK.search(line)
        if m:
            kind = m.group(1).split(':')[0].strip()
            labels[i] = kind
    return labels


def stmt_at(tree, line):
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == line:
            if best is None or (node.end_lineno - node.lineno) < (best.end_lineno - best.lineno):
                best = node
    return best


def keeper_specs(st):
    specs = []

    def from_target(t):
        if isinstance(t, ast.Name):
            specs.append(('name', t.id))
        elif isinstance(t, ast.Attribute):
            specs.append(('attr', ast.unparse(t.value), t.attr))
        elif isinstance(t, ast.Subscript):
            specs.append(('expr', ast.unparse(t.value)))
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                from_target(e)
    if isinstance(st, ast.Assign):
        for t in st.targets:
            from_target(t)
        # `r = obj.method(value)`: obj may keep the value too (receiver, never re-evaluating call arguments)
        if isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute):
            base = st.value.func.value
            while isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute):
                base = base.func.value
            if not isinstance(base, ast.Call):
                specs.append(('recv', ast.unparse(base), None))
    elif isinstance(st, (ast.AugAssign, ast.AnnAssign)):
        from_target(st.target)
    elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
        call = st.value
        f = call.func
        if isinstance(f, ast.Attribute):
            base = f.value
            while isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute):
                base = base.func.value
            first = ast.unparse(call.args[0]) if call.args else None
            specs.append(('recv', ast.unparse(base), first))
        elif call.args:
            specs.append(('expr', ast.unparse(call.args[0])))
    return specs


class Site:
    def __init__(self, path, line, label, st, override):
        self.path, self.line, self.label = path, line, label
        self.end = st.end_lineno
        self.specs = keeper_specs(st)
        if override.get('keeper'):
            self.specs = [('expr', e) for e in override['keeper']]
        self.execs = 0
        self.first_tick = None
        self.last_tick = None
        self.retained = False
        self.evidence = None
        self.handles = {}
        self.src = ast.unparse(st).split('\n')[0][:90]

    def key(self):
        return '%s:%d' % (os.path.basename(self.path), self.line)


class Handle:
    __slots__ = ('kind', 'ref', 'obj', 'name', 'frame')

    def __init__(self, kind, obj=None, name=None, frame=None):
        self.kind, self.name, self.frame = kind, name, frame
        self.ref = self.obj = None
        if obj is not None:
            try:
                self.ref = weakref.ref(obj)
            except TypeError:
                self.obj = obj

    def target(self):
        if self.ref is not None:
            return self.ref()
        if self.obj is not None and sys.getrefcount(self.obj) <= 2:
            # only this handle keeps it: the program dropped the container -> no longer a keeper
            self.obj = None
        return self.obj

    def value(self):
        if self.kind == 'local':
            return self.frame.f_locals.get(self.name)
        if self.kind == 'dictkey':
            return self.target().get(self.name) if self.target() is not None else None
        owner = self.target()
        if owner is None:
            return None
        if self.kind == 'attr':
            return getattr(owner, self.name, None)
        return owner


class Checker:
    def __init__(self, target, cfg):
        import torch
        self.torch = torch
        self.tick = 0
        self.sites = {}
        self.cfg = cfg
        self.files = [os.path.realpath(f) for f in files_of(target)]
        self.tick_lines = set()
        self.pending = {}
        overrides = cfg.get('sites', {})
        for f in self.files:
            src = open(f).read()
            tree = ast.parse(src)
            lines = src.split('\n')
            for ln, lab in parse_labels(f).items():
                st = stmt_at(tree, ln)
                if st is None:
                    raise SystemExit('no statement at %s:%d' % (f, ln))
                ov = overrides.get('%s:%d' % (os.path.basename(f), ln), {})
                self.sites[(f, ln)] = Site(f, ln, lab, st, ov)
            for i, l in enumerate(lines, 1):
                for pat in cfg.get('ticks', []):
                    if pat in l:
                        self.tick_lines.add((f, i))
        self.fileset = set(self.files)
        self.node_type = torch.autograd.graph.Node

    # ---- graph walking -------------------------------------------------
    def walk(self, root, site, mode, token=None):
        """mode 'pre': mark nodes already reachable before the site runs;
        'post': nodes not marked by 'pre' were stored by this execution -> owned by the site (tagged with the
        current tick); 'check': only look for old owned nodes.  Returns owned nodes with tick <= tick-MARGIN."""
        torch = self.torch
        old = []
        seen = set()
        keep = []
        stack = [root]
        nodes = []
        budget = 300000
        while stack and budget > 0:
            o = stack.pop()
            budget -= 1
            if o is None or id(o) in seen:
                continue
            seen.add(id(o)); keep.append(o)
            if isinstance(o, (str, bytes, int, float, complex, bool, type, types.ModuleType, types.CodeType,
                              types.BuiltinFunctionType, weakref.ref)):
                continue
            if isinstance(o, torch.Tensor):
                if o.grad_fn is not None:
                    nodes.append(o.grad_fn)
                continue
            if isinstance(o, self.node_type):
                nodes.append(o)
                continue
            if isinstance(o, types.FunctionType):
                stack.extend(c.cell_contents for c in (o.__closure__ or ()) if _cell_ok(c))
                stack.extend(o.__defaults__ or ())
                stack.extend((o.__kwdefaults__ or {}).values())
                continue
            if isinstance(o, types.MethodType):
                stack.append(o.__self__); stack.append(o.__func__)
                continue
            if inspect.isgenerator(o):
                if o.gi_frame is not None:
                    stack.extend(o.gi_frame.f_locals.values())
                continue
            if isinstance(o, types.FrameType):
                continue
            try:
                stack.extend(gc.get_referents(o))
            except Exception:
                pass
        # autograd graph part
        key = site.key()
        nseen = set()
        while nodes:
            n = nodes.pop()
            if n is None or id(n) in nseen:
                continue
            nseen.add(id(n)); keep.append(n)
            if type(n).__name__ == 'AccumulateGrad':
                continue
            md = n.metadata
            if mode == 'pre':
                md['ten501_pre:' + key] = token
            else:
                own = md.setdefault('ten501_own', {})
                t = own.get(key)
                if t is None:
                    if mode == 'post' and md.get('ten501_pre:' + key) != token:
                        own[key] = self.tick
                elif t <= self.tick - MARGIN:
                    old.append((t, type(n).__name__))
            nodes.extend(nf for nf, _ in n.next_functions)
        return old

    def check_handle(self, site, h, where, mode='check', token=None):
        try:
            v = h.value()
        except Exception:
            return
        if v is None:
            return
        old = self.walk(v, site, mode, token)
        if mode == 'pre':
            return
        if old and not site.retained:
            t, name = min(old)
            site.retained = True
            site.evidence = dict(where=where, tick=self.tick, node=name, node_tick=t, n_old_nodes=len(old))

    # ---- events ----------------------------------------------------------
    def begin(self, frame, site):
        site.token = (site.execs, id(frame))
        for spec in site.specs:
            try:
                h = self.resolve(frame, spec)
            except Exception:
                continue
            if h is not None:
                self.check_handle(site, h, 'pre', 'pre', site.token)

    def complete(self, frame, site):
        site.execs += 1
        if site.first_tick is None:
            site.first_tick = self.tick
        site.last_tick = self.tick
        for spec in site.specs:
            try:
                h = self.resolve(frame, spec)
            except Exception as e:
                continue
            if h is None:
                continue
            k = (h.kind, id(h.frame) if h.kind == 'local' else id(h.ref() if h.ref else h.obj), h.name)
            site.handles[k] = h
            self.check_handle(site, h, 'site', 'post', getattr(site, 'token', None))

    def resolve(self, frame, spec):
        g, l = frame.f_globals, frame.f_locals
        if spec[0] == 'name':
            if l is g:
                return Handle('dictkey', g, spec[1])
            return Handle('local', name=spec[1], frame=frame)
        if spec[0] == 'attr':
            return Handle('attr', eval(spec[1], g, l), spec[2])
        if spec[0] == 'recv':
            obj = eval(spec[1], g, l)
            if isinstance(obj, types.ModuleType) or obj is builtins:
                if spec[2] is None:
                    return None
                obj = eval(spec[2], g, l)
            return Handle('obj', obj)
        obj = eval(spec[1], g, l)
        return Handle('obj', obj)

    def do_tick(self):
        self.tick += 1
        for site in self.sites.values():
            for k, h in list(site.handles.items()):
                if h.kind in ('obj', 'attr', 'dictkey') and h.target() is None:
                    del site.handles[k]
                    continue
                self.check_handle(site, h, 'tick')

    def frame_return(self, frame):
        for site in self.sites.values():
            for k, h in list(site.handles.items()):
                if h.kind == 'local' and h.frame is frame:
                    self.check_handle(site, h, 'return')
                    del site.handles[k]

    def _real(self, fn, _cache={}):
        r = _cache.get(fn)
        if r is None:
            r = _cache[fn] = os.path.realpath(fn)
        return r

    def global_trace(self, frame, event, arg):
        if self._real(frame.f_code.co_filename) in self.fileset:
            return self.local_trace
        return None

    def local_trace(self, frame, event, arg):
        fn = self._real(frame.f_code.co_filename)
        if event == 'line':
            p = self.pending.get(frame)
            ln = frame.f_lineno
            if p is not None and not (p.line <= ln <= p.end):
                del self.pending[frame]
                self.complete(frame, p)
            if (fn, ln) in self.tick_lines:
                self.do_tick()
            s = self.sites.get((fn, ln))
            if s is not None and self.pending.get(frame) is not s:
                self.pending[frame] = s
                self.begin(frame, s)
        elif event == 'return':
            p = self.pending.pop(frame, None)
            if p is not None:
                self.complete(frame, p)
            self.frame_return(frame)
        return self.local_trace

    def install_ticks(self):
        torch = self.torch
        ab, ag = torch.autograd.backward, torch.autograd.grad
        ck = self

        @functools.wraps(ab)
        def backward(*a, **k):
            r = ab(*a, **k)
            ck.do_tick()
            return r

        @functools.wraps(ag)
        def grad(*a, **k):
            r = ag(*a, **k)
            ck.do_tick()
            return r
        torch.autograd.backward = backward
        torch.autograd.grad = grad


def _cell_ok(c):
    try:
        c.cell_contents
        return True
    except ValueError:
        return False


def run(target, json_out=None):
    name = os.path.basename(os.path.normpath(target))
    cfg = CONFIG.get(name.replace('.py', ''), {})
    ck = Checker(target, cfg)
    ck.install_ticks()
    import torch
    torch.manual_seed(0)
    rc = 0
    sys.settrace(ck.global_trace)
    try:
        if os.path.isdir(target):
            sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
            sys.argv = [target]
            runpy.run_module(name + '.main', run_name='__main__', alter_sys=True)
        else:
            sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
            sys.argv = [target]
            runpy.run_path(target, run_name='__main__')
    except SystemExit as e:
        rc = e.code or 0
    except BaseException as e:  # a mutated program may crash later; keep what was observed until then
        rc = 'exception: %s: %s' % (type(e).__name__, str(e)[:120])
    finally:
        sys.settrace(None)
    # final check at end of program for surviving handles (no extra tick: the last iteration's graph may
    # legitimately still be referenced by loop variables)
    for s in ck.sites.values():
        for h in list(s.handles.values()):
            if h.kind != 'local':
                ck.check_handle(s, h, 'end')
    rows = []
    for (f, ln), s in sorted(ck.sites.items()):
        span = (s.last_tick - s.first_tick) if s.execs else 0
        if s.label == 'expect':
            ok = s.retained
        elif s.label == 'ok':
            ok = (not s.retained) and s.execs >= 2 and span >= MARGIN
        else:
            ok = True
        rows.append(dict(site=s.key(), file=os.path.relpath(f, os.path.dirname(os.path.abspath(target))), line=ln,
                         label=s.label, execs=s.execs, tick_span=span, retained=s.retained,
                         evidence=s.evidence, agree=ok, src=s.src))
    res = dict(target=target, rc=rc, ticks=ck.tick, sites=rows)
    if json_out:
        json.dump(res, open(json_out, 'w'), indent=1)
    return res


def main():
    args = sys.argv[1:]
    json_out = None
    if '--json' in args:
        i = args.index('--json'); json_out = args[i + 1]; del args[i:i + 2]
    target = os.path.abspath(args[0])
    devnull = open(os.devnull, 'w')
    real_stdout = sys.stdout
    sys.stdout = devnull
    try:
        res = run(target, json_out)
    finally:
        sys.stdout = real_stdout
    bad = [r for r in res['sites'] if not r['agree']]
    for r in res['sites']:
        print('%-4s %-7s %-32s execs=%-4d span=%-4d retained=%-5s %s' % (
            'OK' if r['agree'] else 'BAD', r['label'], r['site'], r['execs'], r['tick_span'], r['retained'],
            (r['evidence'] or {}).get('where', '')))
    print('rc=%s ticks=%d sites=%d disagree=%d' % (res['rc'], res['ticks'], len(res['sites']), len(bad)))
    sys.exit(1 if bad or res['rc'] else 0)


if __name__ == '__main__':
    main()
