"""Sphinx configuration of the API documentation (``make docs``: docs/_build/html).

The pages document the public API, ``twoplustwo.__all__``, under the names
users import (``twoplustwo.evaluate``), and a few modules' own public names
where a page needs them (the table loader and bundles, the preflop charts).
Everything comes from the docstrings; the pages only arrange them.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.nodes import make_refnode

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, ROOT)

import twoplustwo  # noqa: E402  (after the path, so that the checkout's package is documented)

project = "twoplustwo"
author = "the twoplustwo authors"
copyright = "twoplustwo authors, MIT licence"
release = version = twoplustwo.__version__

extensions = [
    "sphinx.ext.autodoc",
    # spec/README.md, its conformance README and CHANGELOG.md are Markdown.
    "myst_parser",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
root_doc = "index"

html_theme = "furo"
html_title = f"twoplustwo {release}"
html_static_path = ["_static"]
html_css_files = ["wide.css"]

# The docstrings are plain reST with Sphinx roles (:func:, :data:, ...) and
# doctest blocks; no Google or NumPy sections, so no napoleon.
autodoc_default_options = {"member-order": "bysource"}
# Signatures as the README writes them, names and defaults only: the
# annotations spell numpy's ArrayLike out as a union of private protocols,
# some are names imported for the type checker only (so autodoc shows some
# evaluated and some as strings), and the docstrings say in words what each
# argument takes and what comes back.
autodoc_typehints = "none"
add_module_names = False
toc_object_entries_show_parents = "hide"

myst_heading_anchors = 3

# Every reference must resolve: a broken link is an error, not a silent
# plain word. What cannot resolve is listed here, each with its reason.
nitpicky = True
nitpick_ignore = [
    # The standard library, named by two docstrings (best_five, and the
    # twoplustwo.odds.preflop module): the build has no intersphinx, since it
    # must work offline and an unreachable inventory would fail it, so these
    # stay plain text.
    ("py:func", "itertools.combinations"),
    ("py:class", "concurrent.futures.Executor"),
]


# --- The public names, under the name users import -------------------------
#
# The runtime imports its public names lazily from the modules that define
# them (twoplustwo._HOME), and their docstrings refer to their neighbours by
# the names of those modules: ``:func:`install_bundled``` in
# twoplustwo.tables.default, ``:data:`AUTO_EXACT_WORK``` in
# twoplustwo.odds.equity. A reference that Sphinx cannot resolve where it
# stands is looked up here in the docstring's own module, and linked to
# wherever this documentation documents that object (twoplustwo.X for a
# public name). Only the object itself is matched, never a name that merely
# ends the same way, so nothing links to the wrong place.

_documented: dict[int, str] = {}  # id(object) -> documented full name (functions, classes, modules)
_data_names: dict[tuple[str, str], str] = {}  # (defining module, name) -> documented full name


def _home_of_public(name: str) -> str:
    return f"twoplustwo.{twoplustwo._HOME[name]}"


def _defining_module(name: str, obj: Any) -> str | None:
    """The loaded twoplustwo module whose source documents ``name`` with a ``#:`` comment."""
    for modname, module in sorted(sys.modules.items()):
        if not modname.startswith("twoplustwo.") or getattr(module, name, _MISSING) is not obj:
            continue
        try:
            if ("", name) in ModuleAnalyzer.for_module(modname).find_attr_docs():
                return modname
        except Exception:  # a C extension has no source to analyse
            continue
    return None


_MISSING = object()


def _record(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Remember what is documented where, and fill in what a public alias lacks."""
    if what in ("function", "class", "exception", "module", "method", "property"):
        _documented.setdefault(id(obj), name)
    if what in ("data", "attribute") and "." in name:
        modname, attr = name.rsplit(".", 1)
        _data_names[(modname, attr)] = name
        if modname == "twoplustwo" and attr in twoplustwo._HOME:
            _data_names[(_home_of_public(attr), attr)] = name
            # twoplustwo.MAX_THREADS is documented by a #: comment in its own
            # module, which autodoc does not read for the alias: take it there.
            home = _defining_module(attr, obj)
            if home is not None:
                _data_names[(home, attr)] = name
                # (Without it, autodoc shows the value's class docstring: numpy's ndarray.)
                lines[:] = ModuleAnalyzer.for_module(home).find_attr_docs()[("", attr)]
    # twoplustwo.evaluate is the C core's entry point when the C backend is
    # built, whose docstring only points back here: document the Python
    # function it stands for, which has the signature, words and examples.
    if name == "twoplustwo.evaluate" and inspect.isbuiltin(obj):
        from twoplustwo.hands import single

        lines[:] = (inspect.getdoc(single._evaluate) or "").splitlines()


def _signature(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, signature: str | None, return_annotation: str | None
) -> tuple[str, str | None] | None:
    if name == "twoplustwo.evaluate" and inspect.isbuiltin(obj):
        from twoplustwo.hands import single

        # Names and defaults only, as for every other function (autodoc_typehints).
        sig = inspect.signature(single._evaluate)
        params = [p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()]
        return str(sig.replace(parameters=params, return_annotation=inspect.Signature.empty)), None
    return None


def _import(dotted: str) -> Any:
    """The object a dotted name stands for, importing the longest module prefix; _MISSING if none."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr, _MISSING)
            if obj is _MISSING:
                return _MISSING
        return obj
    return _MISSING


def _docstring_module(node: nodes.Node) -> str | None:
    """The module a docstring was written in, from autodoc's source name ``...:docstring of mod.name``."""
    source = node.source or ""
    marker = ":docstring of "
    if marker not in source:
        return None
    dotted = source.split(marker, 1)[1]
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        modname = ".".join(parts[:cut])
        if modname in sys.modules:
            return modname
    return None


def _resolve(app: Sphinx, env: Any, node: Any, contnode: nodes.Node) -> nodes.Node | None:
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".")
    scopes = [m for m in (_docstring_module(node), node.get("py:module")) if m]
    if "." not in target and target in twoplustwo.__all__:
        # A public name written bare in a module that does not import it
        # (twoplustwo.odds.charts names preflop_vs_random): the public name.
        scopes.append("twoplustwo")
    for scope in [*scopes, ""]:
        dotted = f"{scope}.{target}" if scope else target
        obj = _import(dotted)
        if obj is _MISSING:
            continue
        if _ignored(node["reftype"], _full_name(obj, dotted)):
            # An internal object, found but deliberately not documented
            # (nitpick_ignore_regex above): plain text, no warning.
            return contnode
        found = _documented.get(id(obj))
        if found is None and "." in dotted:
            modname, attr = dotted.rsplit(".", 1)
            found = _data_names.get((modname, attr))
        if found is None:
            continue
        domain = env.get_domain("py")
        entry = domain.objects.get(found)
        if entry is None:
            continue
        return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, found)
    return None


def _full_name(obj: Any, dotted: str) -> str:
    """Where ``obj`` is defined (``twoplustwo.odds.montecarlo.monte_carlo``), else the name it was found by."""
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if inspect.ismodule(obj):
        return obj.__name__
    if isinstance(module, str) and isinstance(qualname, str):
        return f"{module}.{qualname}"
    return dotted


def _ignored(reftype: str, name: str) -> bool:
    import re

    roles = {"func": "function", "meth": "method", "mod": "module", "attr": "attribute", "exc": "exception"}
    types = {f"py:{reftype}", f"py:{roles.get(reftype, reftype)}"}
    return any(t in types and re.fullmatch(target, name) for t, target in _IGNORE_BY_DEFINITION)


# Internal modules a docstring points to for the curious: the C core and its
# numpy twin, the pots, the exact and sampled equity engines,
# publishing, atomic writes and pages. They are implementation, not API, so
# their names stay plain text. Matched against where an object is defined,
# so a bare name (:func:`monte_carlo` in twoplustwo.odds.montecarlo) is
# matched by what it is, not by how it was spelt.
_INTERNAL = (
    r"twoplustwo\.(kernels|progress|odds\.(exact|counting|cost|request|montecarlo|sampler|pots|players|omaha))(\..*)?",
    r"twoplustwo\.(tables\.(publish|atomic|pages|system)|hands\.(space|rows|batch\.walk.*))(\..*)?",
    r"twoplustwo\.tables\.format\.(check_header|check_shapes|parse_manifest|npy_header|role_dag)",
)
_IGNORE_BY_DEFINITION = [(f"py:{t}", pattern) for pattern in _INTERNAL for t in ("module", "function", "class", "data")]


def _rewrite_links(app: Sphinx, relative_path: Any, parent_docname: str, content: list[str]) -> None:
    """Point the spec's links to its conformance README, and back, at their pages here."""
    path = str(relative_path).replace(os.sep, "/")
    if path.endswith("spec/README.md"):
        content[0] = content[0].replace("](conformance/README.md)", "](conformance.md)")
    elif path.endswith("spec/conformance/README.md"):
        content[0] = content[0].replace("](../README.md)", "](spec.md)")


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("autodoc-process-docstring", _record)
    app.connect("autodoc-process-signature", _signature)
    app.connect("missing-reference", _resolve)
    app.connect("include-read", _rewrite_links)
    return {"parallel_read_safe": False}
