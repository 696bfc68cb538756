"""Import circles in cybleu, lazy imports included.

    python tools/import_circles.py            # the circles, one line each; exit 1 if any
    python tools/import_circles.py --graph    # every edge, for a closer look

An edge A -> B is any import of B that A can run: top-level imports and the ones inside functions
(lazy imports), `importlib.import_module` with a literal name, `_backend.module("x")` (the
compiled step `_kernels.x` or its twin `_kernels.x_py`), and, in a module that calls
`import_module` with a computed name, every string in it that names a cybleu module (a table of
lazily loaded modules). Imports under `if TYPE_CHECKING:` never run and are left out; so is the
import of a package's `__init__` that Python makes before one of its submodules (every module
would otherwise be in a circle with a package that loads it lazily). `.pyx` files count with
their Python-level `import`s and `cimport`s.

Two graphs are checked:

- modules: a circle is a strongly connected set of modules (counted once however many loops run
  through it; one loop of each is printed);
- floors: each subpackage directly under cybleu (`_kernels`, `_scoring`, `metrics`, ...) taken
  as one node, each top-level module as its own; a circle here is two rooms that import each
  other, even through modules that are not in a circle themselves.
"""
import ast
import os
import re
import sys

PACKAGE = "cybleu"
ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src", PACKAGE)

_PYX_IMPORT = re.compile(r"^\s*(?:from\s+([.\w]+)\s+c?import\s+(.+)|c?import\s+([.\w, ]+))",
                         re.M)


def _modules(root=ROOT):
    """{dotted name: path} of every .py and .pyx file (a package is its __init__)."""
    out = {}
    for directory, _, files in os.walk(root):
        for name in files:
            if not name.endswith((".py", ".pyx")):
                continue
            rel = os.path.relpath(os.path.join(directory, name), os.path.dirname(root))
            parts = rel[:-len(".pyx" if name.endswith(".pyx") else ".py")].split(os.sep)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out.setdefault(".".join(parts), os.path.join(directory, name))
    return out


def _package_of(module, path):
    return module if path.endswith("__init__.py") else module.rpartition(".")[0]


def _resolve(name, level, package):
    """The absolute name of `from <level dots><name>` in `package`."""
    if level == 0:
        return name
    base = package.split(".")
    if level > 1:
        base = base[:-(level - 1)]
    return ".".join(base + ([name] if name else []))


def _target(name, modules):
    """The longest prefix of `name` that is one of our modules (None outside the package)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _is_type_checking(test):
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node):
    """ast.walk without the bodies of `if TYPE_CHECKING:`."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for child in ast.iter_child_nodes(current):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                stack.extend(child.orelse)
                continue
            stack.append(child)


def _python_edges(module, path, modules):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    package = _package_of(module, path)
    edges = set()
    computed = False
    strings = []
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                edges.add(_target(alias.name, modules))
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module or "", node.level, package)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                edges.add(sub if sub in modules else _target(base, modules))
        elif isinstance(node, ast.Call):
            func = node.func
            fname = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            arg = node.args[0] if node.args else None
            literal = arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                else None
            if fname == "import_module":
                if literal is None:
                    computed = True
                elif literal.startswith("."):
                    level = len(literal) - len(literal.lstrip("."))
                    edges.add(_target(_resolve(literal.lstrip("."), level, package), modules))
                else:
                    edges.add(_target(literal, modules))
            elif fname == "module" and literal is not None and re.fullmatch(r"\w+", literal):
                # _backend.module("x"): the compiled step or its twin, whichever is live
                for name in (f"{PACKAGE}._kernels.{literal}", f"{PACKAGE}._kernels.{literal}_py"):
                    if name in modules:
                        edges.add(name)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.append(node.value)
    if computed:  # a table of lazily loaded modules: every string that names one of ours
        for text in strings:
            for name in _string_targets(text, package, modules):
                edges.add(name)
    edges.discard(None)
    edges.discard(module)
    return edges


def _string_targets(text, package, modules):
    text = text.split(":")[0]
    if text in (PACKAGE, "__main__") or not re.fullmatch(r"\.?[A-Za-z_][\w.]*", text):
        return []  # the package's own name (a logger's), and `__name__ == "__main__"`
    if text.startswith("."):
        candidates = [_resolve(text[1:], 1, package)]
    else:
        candidates = [text, f"{package}.{text}"]
    return [c for c in candidates if c in modules and c != package]


def _pyx_edges(module, path, modules):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    package = module.rpartition(".")[0]
    edges = set()
    for found in _PYX_IMPORT.finditer(text):
        source, names, plain = found.groups()
        if source is not None:
            level = len(source) - len(source.lstrip("."))
            base = _resolve(source.lstrip("."), level, package)
            for alias in names.strip("() \\").split(","):
                name = alias.strip().split(" ")[0]
                sub = f"{base}.{name}"
                edges.add(sub if sub in modules else _target(base, modules))
        else:
            for name in plain.split(","):
                edges.add(_target(name.strip().split(" ")[0], modules))
    edges.discard(None)
    edges.discard(module)
    return edges


def graph(root=ROOT):
    """{module: set of modules it imports}."""
    modules = _modules(root)
    out = {}
    for module, path in modules.items():
        edges = _pyx_edges if path.endswith(".pyx") else _python_edges
        out[module] = edges(module, path, modules)
    return out


def floor_of(module):
    parts = module.split(".")
    return ".".join(parts[:2])


def floors(edges):
    """The graph of floors: subpackages directly under the package, and top-level modules."""
    out = {}
    for module, targets in edges.items():
        a = floor_of(module)
        out.setdefault(a, set())
        for target in targets:
            b = floor_of(target)
            if b != a and b != PACKAGE and a != PACKAGE:
                out[a].add(b)
    return out


def strongly_connected(edges):
    """Tarjan's strongly connected components with more than one node."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        work = [(v, iter(sorted(edges.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def one_loop(edges, component):
    """A loop through the component, from its first node (breadth-first, the shortest)."""
    members = set(component)
    start = component[0]
    previous = {start: None}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for w in sorted(edges.get(node, ())):
            if w == start:
                path = [node]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return list(reversed(path)) + [start]
            if w in members and w not in previous:
                previous[w] = node
                queue.append(w)
    return component


def circles(root=ROOT):
    """(module circles, floor circles): lists of strongly connected components."""
    edges = graph(root)
    return strongly_connected(edges), strongly_connected(floors(edges))


def main(argv):
    edges = graph()
    if "--graph" in argv:
        for module in sorted(edges):
            for target in sorted(edges[module]):
                print(f"{module} -> {target}")
        return 0
    short = lambda name: name[len(PACKAGE) + 1:] or PACKAGE
    status = 0
    for label, g in (("modules", edges), ("floors", floors(edges))):
        found = strongly_connected(g)
        print(f"{label}: {len(found)} circle(s)")
        for component in found:
            print("  " + " -> ".join(short(m) for m in one_loop(g, component))
                  + (f"   ({len(component)} in the circle)" if len(component) > 2 else ""))
        status |= bool(found)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
