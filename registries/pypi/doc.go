// Package pypi reads Python distribution documentation from a package index and from installed
// site-packages directories, implementing docidx.Registry ([Registry]) and docidx.Cache
// ([SitePackages]) for the PyPI ecosystem.
//
// What it owns:
//
//   - index configuration ([LoadConfig]): the index URL from a flag, PIP_INDEX_URL or pip.conf
//     read the way pip reads them (https://pip.pypa.io/en/stable/topics/configuration/), else
//     the public PyPI ([DefaultIndexURL]); a simple API URL (".../simple/") also gives the JSON
//     API base beside it;
//   - the remote [Registry]: the JSON API (https://docs.pypi.org/api/json/) and, for mirrors
//     without it, the simple API as PEP 691 JSON or PEP 503 HTML with PEP 658/714 metadata
//     files; PEP 440 version resolution ("", exact pins, specifier sets); wheels and sdists
//     downloaded under size limits, checked against the index's sha256, read in memory with
//     path-traversal-safe, size-limited extraction;
//   - the [SitePackages] cache: *.dist-info directories (METADATA, RECORD) and Debian-style
//     *.egg-info files and directories (PKG-INFO, installed-files.txt, top_level.txt,
//     SOURCES.txt);
//   - core metadata parsing ([ParseMetadata]): METADATA and PKG-INFO files, old and new;
//   - PEP 503 name normalization ([Normalize]): every package is named by its normalized name,
//     which is also its purl name (pkg:pypi/pyyaml@6.0.3);
//   - the API: internal/pyscan, a hand-written scanner of Python sources and stubs for public
//     module-level functions, classes and constants, and the methods, properties, fields and
//     constants of classes (Retry.DEFAULT_BACKOFF_MAX = 120), with signatures and values as
//     written and whole docstrings (bounded) whose reST, Google and NumPy parameter sections,
//     and PEP 257's definition lines ("real -- the real part"), become Symbol.Params, with each parameter's default from the docstring ("Defaults to 30",
//     "Default: x") or the signature, and the undocumented parameters whose default is a
//     literal or a constant (a class carries its __init__'s), a default that names a constant
//     spelled out with the value the defining module binds it to, its own or imported, private
//     or not ("max_incomplete_event_size = DEFAULT_MAX_INCOMPLETE_EVENT_SIZE = 16 * 1024"), and
//     the constants a field's value or a docstring names in Symbol.Values (constants.go); an overload's or a stub's
//     "= ..." shows the implementation's value; names a public module imports from a private
//     module of the same distribution ("from ._core import open_nursery" in trio/__init__.py)
//     are followed to their definitions and documented as the public module's
//     (trio.open_nursery); a public class lists the class attributes it inherits from bases in
//     its file, and the methods and attributes it inherits from private bases there or in
//     private modules (at most 32 of each, kept after every module's own symbols) or, read
//     from a site-packages directory, from a base another installed distribution defines
//     (flask.Request lists what it inherits from werkzeug; see siteModules); an alias of a function or method ("find_packages =
//     PackageFinder.find", PackageFinder imported) is documented as its target; code vendored from other projects (_vendor/, vendored/, third_party/,
//     bundled typeshed and *-stubs) is left out; a Cython source (.pyx, as lxml ships
//     lxml/etree.pyx beside the compiled module) is the module of its name when no .py or .pyi
//     of that module exists (else it documents theirs), with the .pxi files it includes: its
//     cdef classes and def and cpdef functions are API, its C declarations are not;
//   - the README: the long description by its content type — markdown through readme.Parse,
//     reStructuredText (the default when no type is given) through internal/rst, plain text as
//     one section;
//   - documents from the release's sdist (docs.go): Sphinx and MkDocs pages under docs/, doc/ or
//     mkdocs.yml's docs_dir, and examples/ — the sdist downloaded for them alone, up to
//     Limits.MaxDocsSdist bytes, when the API comes from a wheel. Installed distributions
//     ([SitePackages]) were installed from wheels and have no docs tree.
//
// Every limit is a field of [Limits], a zero field meaning its value in [DefaultLimits]; exceeding
// a download or archive limit returns an error wrapping docidx.ErrTooLarge, an archive entry that
// escapes its root one wrapping docidx.ErrUnsafePath, and a digest mismatch one wrapping
// docidx.ErrIntegrity.
//
// Import rule (docs/ARCHITECTURE.md §1): pypi imports docidx, readme, registries/internal/fetch and the
// standard library; never crawl, index or serve. Package pypitest fakes an index and lays out
// site-packages directories for tests.
package pypi
