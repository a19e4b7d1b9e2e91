"""The public API of one installed Python distribution, as the interpreter sees it.

Usage: python_api.py DISTRIBUTION SITE_PACKAGES  (run with the virtualenv's own python)

Prints one JSON object: {"package", "version", "modules", "failed", "items"}. The distribution's
top-level import packages come from its RECORD (names starting with "_" left out). Its public
modules are every module of those packages on disk whose dotted path has no component starting
with "_", none that is no identifier (Django's 0001_initial migrations) and none named "tests",
"conftest" or "migrations" (test suites and their configuration, Django's migrations), each
imported here; a module that fails to import is listed in
"failed" and contributes nothing. A module's public names are its __all__ when it has one, else
its non-underscore names, bound by its source (not made at run time), that it defines itself
(a class or function whose __module__ is that module or that a def or class statement of its
source defines, or a name bound by a top-level assignment in its source), those it re-exports
explicitly ("from x import a as a", PEP 484's convention) and, in a package's __init__, also
the classes and functions it imports from inside the same top-level package (re-exports).
Submodules are modules, not items.

Each item is one object: a class or function counts once however many public paths expose it,
keyed by its definition (__module__ + "." + __qualname__); any other value counts once per
object (a number, string, tuple or None: once per public path). An item has: "paths" (the public module.name paths, sorted), "def" (the definition
path, classes and functions only), "kind" (class, function, value), "doc" (it has a docstring of
its own: __doc__ set in its own __dict__ for a class, not the "Name(field, …)" that dataclasses and
namedtuples make up, __doc__ for a function; values have none),
"params" (for a function or class, the names of the parameters inspect.signature gives, without
self and cls; absent when it has none or no signature). A value re-exported from the public
module whose source assigns it (the same object) has that module's path as "def". "tags" sets
apart two kinds of values the benchmark counts in columns of their own: "typevar" (a TypeVar,
ParamSpec, TypeVarTuple or NewType: typing machinery, not an API item) and "modvar" (a value
whose name is not UPPER_CASE, in a module without __all__: loggers, caches, compiled regexes
and the like, which neither the module's __all__ nor the constant naming convention makes
public, and which Sphinx's autodoc also leaves out unless documented).
"""

import ast
import importlib
import importlib.metadata as md
import inspect
import io
import json
import os
import pkgutil
import sys
import typing
import contextlib
import warnings


def top_packages(dist):
    tops = set()
    for f in dist.files or []:
        parts = f.parts
        if not parts or parts[0] in ("..", "__pycache__") or parts[0].endswith((".dist-info", ".egg-info", ".data")):
            continue
        name = parts[0]
        if len(parts) == 1:
            if name.endswith(".py"):
                tops.add(name[:-3])
            continue
        if name.startswith("_"):
            continue
        tops.add(name)
    return sorted(t for t in tops if not t.startswith("_") and t.isidentifier())


def public_module(name):
    return not any(p.startswith("_") or p in ("tests", "conftest", "migrations") or not p.isidentifier()
                   for p in name.split("."))


def assigned_names(mod, reexports=True):
    try:
        src = inspect.getsource(mod)
        tree = ast.parse(src)
    except Exception:
        return set()
    out = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and reexports:
            # "from x import a as a": an explicit re-export (PEP 484's convention).
            for a in node.names:
                if a.asname is not None and a.asname == a.name:
                    out.add(a.name)
            continue
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = [node.target]
        for t in targets:
            for n in ast.walk(t):
                if isinstance(n, ast.Name):
                    out.add(n.id)
    return out


def bound_names(mod):
    """Every name the module's source binds at module level (def, class, assignment, import, also
    inside if/try blocks), and those of them bound by def and class statements; (None, None)
    when there is no source to read."""
    try:
        tree = ast.parse(inspect.getsource(mod))
    except Exception:
        return None, None
    out, defs = set(), set()

    def visit(body):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.add(node.name)
                defs.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for a in node.names:
                    out.add((a.asname or a.name).split(".")[0])
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            out.add(n.id)
            elif isinstance(node, ast.If):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                visit(node.orelse)
                visit(node.finalbody)
                for h in node.handlers:
                    visit(h.body)
            elif isinstance(node, (ast.With, ast.For)):
                visit(node.body)
    visit(tree.body)
    return out, defs


def params_of(obj):
    try:
        sig = inspect.signature(obj)
    except Exception:
        return None
    names = [p for p in sig.parameters if p not in ("self", "cls")]
    return names or None


def own_doc(obj):
    if inspect.isclass(obj):
        d = obj.__dict__.get("__doc__")
        # dataclasses and namedtuples make up "Name(field, …)" when the class has no docstring.
        if isinstance(d, str) and "\n" not in d.strip() and d.startswith(obj.__name__ + "(") and d.strip().endswith(")"):
            return False
    else:
        d = getattr(obj, "__doc__", None)
    return isinstance(d, str) and d.strip() != ""


def safe(fn, obj, default):
    """fn(obj), or default when a lazy object raises on being looked at (Django's settings)."""
    try:
        return fn(obj)
    except Exception:
        return default


_assigned = {}


def assigned_in(name):
    """The names a module's source assigns at top level (imports left out), cached."""
    if name not in _assigned:
        mod = sys.modules.get(name)
        _assigned[name] = assigned_names(mod, False) if mod is not None else set()
    return _assigned[name]


def defining_module(modules, n, obj):
    """The public module whose source assigns n to this very object, for a value re-exported."""
    for m in modules:
        if n in assigned_in(m) and safe(lambda mod: getattr(mod, n) is obj, sys.modules.get(m), False):
            return m
    return None


def is_type_variable(obj):
    return isinstance(obj, (typing.TypeVar, typing.ParamSpec, typing.TypeVarTuple)) or \
        type(obj).__name__ == "NewType"


def is_upper(n):
    return n.upper() == n


def is_routine_or_class(obj):
    return inspect.isclass(obj) or inspect.isroutine(obj)


def main():
    dist_name, site = sys.argv[1], sys.argv[2]
    sys.path.insert(0, site)
    warnings.simplefilter("ignore")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "")
    dist = md.distribution(dist_name)
    tops = top_packages(dist)
    modules, failed = [], []
    for top in tops:
        names = [top]
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                pkg = importlib.import_module(top)
        except BaseException as e:  # noqa: BLE001 - any import failure is reported
            failed.append("%s: %s" % (top, type(e).__name__))
            continue
        if hasattr(pkg, "__path__"):
            for info in pkgutil.walk_packages(pkg.__path__, top + ".", onerror=lambda n: None):
                if public_module(info.name):
                    names.append(info.name)
        for name in names:
            if not public_module(name):
                continue
            try:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    importlib.import_module(name)
                modules.append(name)
            except BaseException as e:  # noqa: BLE001
                failed.append("%s: %s" % (name, type(e).__name__))
    items = {}
    for name in modules:
        mod = sys.modules.get(name)
        if mod is None:
            continue
        top = name.split(".")[0]
        is_pkg = hasattr(mod, "__path__")
        exported = getattr(mod, "__all__", None)
        if exported is not None:
            try:
                cands = [str(n) for n in exported]
            except Exception:
                cands = []
        else:
            assigned = assigned_names(mod)
            bound, defs = bound_names(mod)
            cands = []
            for n, obj in list(vars(mod).items()):
                if n.startswith("_") or safe(inspect.ismodule, obj, True):
                    continue
                if bound is not None and n not in bound:
                    continue  # made at run time (globals()[name] = …), not written in the source
                if safe(is_routine_or_class, obj, False):
                    m = safe(lambda o: o.__module__, obj, None) or ""
                    # defs: a class whose __module__ was set elsewhere (pandas' @set_module("pandas"))
                    # is still defined here.
                    if m == name or (is_pkg and (m == top or m.startswith(top + "."))) or n in assigned or \
                            (defs is not None and n in defs):
                        cands.append(n)
                elif n in assigned:
                    cands.append(n)
        for n in cands:
            try:
                obj = getattr(mod, n)
            except Exception:
                continue
            if safe(inspect.ismodule, obj, True):
                continue
            path = name + "." + n
            if safe(is_routine_or_class, obj, False):
                m = getattr(obj, "__module__", None) or name
                q = getattr(obj, "__qualname__", None) or n
                key = m + "." + q
                it = items.get(key)
                if it is None:
                    it = {"paths": [], "def": key, "kind": "class" if inspect.isclass(obj) else "function",
                          "doc": own_doc(obj)}
                    p = params_of(obj)
                    if p:
                        it["params"] = p
                    items[key] = it
            else:
                key = path
                if not isinstance(obj, (int, float, complex, str, bytes, bool, type(None), tuple, frozenset)):
                    key = "object:%d" % id(obj)  # one object exposed at several paths (numpy.add, numpy.matlib.add)
                it = items.get(key)
                if it is None:
                    it = {"paths": [], "kind": "value", "doc": False}
                    if safe(is_type_variable, obj, False):
                        it["tags"] = ["typevar"]
                    elif exported is None and not is_upper(n):
                        it["tags"] = ["modvar"]
                    if n not in assigned_in(name):
                        d = defining_module(modules, n, obj)
                        if d:
                            it["def"] = d + "." + n
                    items[key] = it
            if path not in it["paths"]:
                it["paths"].append(path)
    out = []
    for key in sorted(items):
        it = items[key]
        it["paths"].sort()
        out.append(it)
    json.dump({"package": dist_name, "version": dist.version, "modules": modules, "failed": failed, "items": out},
              sys.stdout, indent=None)


if __name__ == "__main__":
    main()
