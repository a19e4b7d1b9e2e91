package pypi

import (
	"errors"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/registries/pypi/internal/pyscan"
)

// Bounds of reading other distributions' modules for inheritance (see siteModules): together
// with Limits.MaxFile per file, they bound what one distribution's extraction may read beyond
// its own files.
const (
	// maxSiteModules is the most modules of other distributions read for one distribution.
	maxSiteModules = 64
	// maxSiteBytes is the most bytes of other distributions' modules read for one distribution.
	maxSiteBytes = 8 << 20
)

// siteModules finds the modules of other distributions installed in the same site-packages
// directory as the distribution being extracted, for the bases its public classes inherit
// from (see reexporter.inheritedAcross) and for the names a public module's __all__ declares
// that it imports from another distribution (see reexporter.reexports): celery.exceptions
// lists SoftTimeLimitExceeded, which billiard defines; or, without __all__, that it imports as
// "from m import name as name", the typing spec's explicit re-export (fastapi.Request is
// starlette's). Other names a module imports from another distribution are not documented as
// its own. A module is looked up as Python's import
// system finds it in the directory ("werkzeug.wrappers" is werkzeug/wrappers/__init__.py, else
// werkzeug/wrappers.py, else the .pyi stub beside either); one that is among the distribution's
// own files is not another distribution's and is never read here. Reading goes through the
// site-packages reader, which opens files only inside the directory (os.Root: no ".." and no
// symbolic link out of it), at most maxSiteModules files of at most Limits.MaxFile bytes and
// maxSiteBytes in all, each module at most once. A registry crawl (a wheel or an sdist from an
// index) has no other distribution on disk and no siteModules: its classes inherit only from
// bases within the distribution, as before.
type siteModules struct {
	read  readFunc
	own   map[string]bool // slash paths of the distribution's own files
	lim   Limits
	scans map[string]*privateScan // by module; nil when not found, own or unreadable
	bytes int64
	files int // files read
}

// newSiteModules returns a siteModules reading through read (slash paths relative to the
// site-packages directory) for the distribution whose files are own.
func newSiteModules(read readFunc, own []string, lim Limits) *siteModules {
	m := &siteModules{read: read, own: make(map[string]bool, len(own)), lim: lim, scans: map[string]*privateScan{}}
	for _, p := range own {
		m.own[p] = true
	}
	return m
}

// modulePaths returns the files module mod may be, in the order Python's path finder tries them
// (a package before a module of the same name), then their stubs; nil when a part of mod is
// not an identifier.
func modulePaths(mod string) []string {
	parts := strings.Split(mod, ".")
	for _, p := range parts {
		if !isIdentifier(p) {
			return nil
		}
	}
	base := strings.Join(parts, "/")
	return []string{base + "/__init__.py", base + ".py", base + "/__init__.pyi", base + ".pyi"}
}

// scan returns module mod of another distribution read and scanned with every definition kept,
// or nil when it is not in the directory, is one of the distribution's own files, cannot be
// read or is over the budget.
func (m *siteModules) scan(mod string) *privateScan {
	if sc, ok := m.scans[mod]; ok {
		return sc
	}
	m.scans[mod] = nil
	for _, p := range modulePaths(mod) {
		if m.own[p] {
			return nil
		}
		if m.files >= maxSiteModules || m.bytes >= maxSiteBytes {
			return nil
		}
		limit := min(m.lim.MaxFile, maxSiteBytes-m.bytes)
		src, err := m.read(p, limit)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil
		}
		m.files++
		m.bytes += int64(len(src))
		if !utf8.Valid(src) {
			src = []byte(strings.ToValidUTF8(string(src), "\uFFFD"))
		}
		f := apiFile{module: mod, path: p, file: p}
		sc := &privateScan{file: f, res: pyscan.Scan(src, pyscan.Options{Module: mod, File: p, MaxSymbols: m.lim.MaxSymbols, AllDefinitions: true})}
		m.scans[mod] = sc
		return sc
	}
	return nil
}

// class returns the class that name is in module mod of another distribution, following
// from-imports (relative or absolute) through that distribution's modules and others in the
// directory, up to maxReexportDepth deep: the module that defines it scanned, and the class's
// symbol. ok is false when no class definition is found.
func (m *siteModules) class(mod, name string, depth int, visited map[string]bool) (sc *privateScan, cls docidx.Symbol, ok bool) {
	key := mod + ":" + name
	if depth > maxReexportDepth || visited[key] {
		return nil, cls, false
	}
	visited[key] = true
	sc = m.scan(mod)
	if sc == nil {
		return nil, cls, false
	}
	for _, s := range sc.res.Symbols {
		if s.Parent == "" && s.Name == name && s.Kind != docidx.KindPackage {
			return sc, s, s.Kind == docidx.KindClass
		}
	}
	for _, im := range sc.res.Imports {
		if im.Name == "*" || im.As != name {
			continue
		}
		if target, ok := relativeModule(sc.file, im); ok {
			return m.class(target, im.Name, depth+1, visited)
		}
	}
	return nil, cls, false
}

// definition returns the function, class or variable that name is in module mod of another
// distribution, following from-imports as class does, with a class's members in its file
// (defined and inherited there), and the qualified name of the definition ("billiard.exceptions.
// SoftTimeLimitExceeded"). The definition's Doc, when it has one, ends with "Defined in <qualified
// name>.", so a reader knows where it comes from; File and Line are where it is defined, a path
// relative to the site-packages directory. It returns nil when no definition is found.
func (m *siteModules) definition(mod, name string, depth int, visited map[string]bool) ([]docidx.Symbol, string) {
	key := mod + ":" + name
	if depth > maxReexportDepth || visited[key] {
		return nil, ""
	}
	visited[key] = true
	sc := m.scan(mod)
	if sc == nil {
		return nil, ""
	}
	for _, s := range sc.res.Symbols {
		if s.Parent != "" || s.Name != name || s.Kind == docidx.KindPackage {
			continue
		}
		qual := mod + "." + name
		if s.Doc != "" {
			s.Doc += "\n\nDefined in " + qual + "."
		}
		found := []docidx.Symbol{s}
		if s.Kind == docidx.KindClass {
			for _, list := range [][]docidx.Symbol{sc.res.Symbols, sc.res.Inherited} {
				for _, m := range list {
					if m.Parent == name {
						found = append(found, m)
					}
				}
			}
		}
		return found, qual
	}
	for _, im := range sc.res.Imports {
		if im.Name == "*" || im.As != name {
			continue
		}
		if target, ok := relativeModule(sc.file, im); ok {
			return m.definition(target, im.Name, depth+1, visited)
		}
	}
	return nil, ""
}

// members returns the public members of class name of module mod of another distribution (see
// class), nearest first: those it defines, those it inherits from bases in its file, then
// those of its bases imported from other modules in the directory, each base's in turn, up
// to maxReexportDepth classes up. Each member's Doc ends with "Inherited from <qualified
// name>.", naming the class that defines it where the reader can find it ("Inherited from
// werkzeug.sansio.request.Request."); File and Line are that class's definition, a path
// relative to the site-packages directory. A member a nearer class has is not repeated.
func (m *siteModules) members(mod, name string) []docidx.Symbol {
	var out []docidx.Symbol
	has := map[string]bool{}
	classes := map[string]bool{}
	var walk func(mod, name string, depth int)
	walk = func(mod, name string, depth int) {
		if depth > maxReexportDepth {
			return
		}
		sc, cls, ok := m.class(mod, name, 0, map[string]bool{})
		if !ok || classes[sc.file.module+"."+cls.Name] {
			return
		}
		classes[sc.file.module+"."+cls.Name] = true
		qual := sc.file.module + "." + cls.Name
		add := func(s docidx.Symbol, from string) {
			if has[s.Name] || strings.HasPrefix(s.Name, "_") {
				return
			}
			has[s.Name] = true
			if note := inheritedNote(s.Doc); note != "" {
				// pyscan names a base of the same file by its name: qualify it.
				s.Doc = strings.TrimSuffix(s.Doc, note)
				from = sc.file.module + "." + strings.TrimSuffix(strings.TrimPrefix(note, "Inherited from "), ".")
			}
			if s.Doc != "" && !strings.HasSuffix(s.Doc, "\n\n") {
				s.Doc += "\n\n"
			}
			s.Doc += "Inherited from " + from + "."
			out = append(out, s)
		}
		for _, s := range sc.res.Symbols {
			if s.Parent == cls.Name {
				add(s, qual)
			}
		}
		for _, s := range sc.res.Inherited {
			if s.Parent == cls.Name {
				add(s, qual)
			}
		}
		for _, b := range classBases(cls.Signature) {
			if base, bname, ok := importedName(sc.file, sc.res.Imports, b); ok {
				walk(base, bname, depth+1)
			}
		}
	}
	walk(mod, name, 0)
	return out
}

// importedName returns the module and the name that base, a base class as a class statement
// in module f writes it, names through f's from-imports: "RequestBase" with "from
// werkzeug.wrappers import Request as RequestBase" is Request of werkzeug.wrappers;
// "routing.Router" with "from starlette import routing" is Router of starlette.routing. ok is
// false for a name no from-import binds.
func importedName(f apiFile, imports []pyscan.Import, base string) (mod, name string, ok bool) {
	abs, ok := aliasTarget(f, imports, base)
	if !ok {
		return "", "", false
	}
	i := strings.LastIndexByte(abs, '.')
	return abs[:i], abs[i+1:], true
}

// classBases returns the bases of a class Signature as Scan renders it that are a plain name or
// one attribute of one ("class APIRouter(routing.Router, Generic[T], metaclass=M)":
// "routing.Router"): not keyword arguments or subscripted bases.
func classBases(signature string) []string {
	var out []string
	for b := range pyscan.Bases(signature) {
		if strings.ContainsAny(b, "=[]() ") || strings.Count(b, ".") > 1 {
			continue
		}
		first, rest, _ := strings.Cut(b, ".")
		if isIdentifier(first) && (rest == "" || isIdentifier(rest)) {
			out = append(out, b)
		}
	}
	return out
}
