package crawl

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/docidx/docidx"
)

// Installed is a local cache that records what each of its package versions requires and knows
// the environment they were installed for, as a Python site-packages does
// (pypi.SitePackages implements it; crawl declares it so that it imports no registry).
type Installed interface {
	docidx.Cache
	// EvalMarker evaluates a PEP 508 environment marker
	// (https://peps.python.org/pep-0508/#environment-markers) for the interpreter the cache
	// belongs to, with extras as the extras asked for. known is false when the marker depends on
	// something the cache cannot tell; holds is then false. A marker that does not parse is an
	// error.
	EvalMarker(marker string, extras []string) (holds, known bool, err error)
	// Requires returns the PEP 508 requirements, markers included, that the installed package
	// version name@version declares (a distribution's Requires-Dist). Errors wrap
	// docidx.ErrNotFound when that version is not installed.
	Requires(ctx context.Context, name, version string) ([]string, error)
}

// installedCache is an Installed cache and the labelled cache crawl fetches it through.
type installedCache struct {
	Installed
	src docidx.Cache // the labelled cache: jobs fetch through it, so Source is its label
}

// installedCaches returns the caches of opts that implement Installed, by ecosystem.
func installedCaches(caches []docidx.Cache) map[docidx.Ecosystem][]installedCache {
	out := map[docidx.Ecosystem][]installedCache{}
	for _, c := range caches {
		inner := c
		if lc, ok := c.(*labelledCache); ok {
			inner = lc.Cache
		}
		if in, ok := inner.(Installed); ok {
			out[c.Ecosystem()] = append(out[c.Ecosystem()], installedCache{in, c})
		}
	}
	return out
}

// wanted is one requirement the closure resolves: a spec, and who asked for it.
type wanted struct {
	spec   Spec
	parent string   // "flask 3.1.3" for a dependency, "" for a spec the caller gave
	pextra []string // the extras the parent was asked with: what its requirements' markers see
}

// closure resolves requirement specs against the installed caches of their ecosystem and walks
// what the installed versions require, transitively: it returns one job per installed version
// (with the extras each was asked with, so that its conditional requirements are followed), and
// a failed job for each requirement that no cache satisfies. A requirement whose marker does not
// hold for the caches' interpreter is left out; one whose marker cannot be decided is followed
// only when it is installed. With opts.Shard, the versions of other shards are counted in others
// but still walked, since what they require may belong to this shard.
func closure(ctx context.Context, opts Options, log *slog.Logger, caches []installedCache, reqs []Spec) (jobs []job, others int, err error) {
	queue := make([]wanted, 0, len(reqs))
	for _, s := range reqs {
		queue = append(queue, wanted{spec: s})
	}
	expanded := map[string]bool{} // ref and extras already walked
	added := map[docidx.Ref]bool{}
	failed := map[string]bool{} // names already reported
	for len(queue) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		w := queue[0]
		queue = queue[1:]
		s := w.spec
		optional := false
		if s.Marker != "" {
			holds, known, err := caches[0].EvalMarker(s.Marker, w.pextra)
			switch {
			case err != nil && w.parent != "":
				log.Debug("crawl: requirement with a bad marker not followed", "requirement", s.String(), "of", w.parent, "err", err)
				continue
			case err != nil:
				jobs = append(jobs, job{spec: s, err: fmt.Errorf("%s (%s): %w", s, s.Origin, err)})
				continue
			case known && !holds:
				log.Log(ctx, levelFor(w), "crawl: requirement not crawled: its marker does not hold for "+describe(caches[0].src),
					"requirement", s.String(), "marker", s.Marker, "from", s.Origin)
				continue
			case !known:
				optional = true
			}
		}
		ref, src, err := resolveInstalled(ctx, caches, s)
		if err != nil {
			if errors.Is(err, docidx.ErrNotFound) && optional {
				log.Debug("crawl: requirement not installed, and its marker cannot be decided: not crawled", "requirement", s.String(), "marker", s.Marker, "from", s.Origin)
				continue
			}
			if failed[s.Name] {
				continue
			}
			failed[s.Name] = true
			if !opts.Shard.Has(docidx.Ref{Ecosystem: s.Ecosystem, Name: s.Name}) {
				others++
				continue
			}
			jobs = append(jobs, job{spec: s, err: requirementError(ctx, caches, w, err)})
			continue
		}
		if !added[ref] {
			added[ref] = true
			if opts.Shard.Has(ref) {
				jobs = append(jobs, job{spec: s, ref: ref, src: src.src})
			} else {
				others++
			}
		}
		key := ref.String() + "[" + s.Extras + "]"
		if expanded[key] {
			continue
		}
		expanded[key] = true
		deps, err := src.Requires(ctx, ref.Name, ref.Version)
		if err != nil {
			return nil, 0, fmt.Errorf("reading what %s requires: %w", ref, err)
		}
		parent := ref.Name + " " + ref.Version
		for _, d := range deps {
			r, err := parseRequirement(d)
			if err != nil || r.skip != "" {
				log.Debug("crawl: requirement not followed", "requirement", d, "of", parent, "err", err, "why", r.skip)
				continue
			}
			queue = append(queue, wanted{spec: r.spec("required by " + parent), parent: parent, pextra: splitExtras(s.Extras)})
		}
	}
	return jobs, others, nil
}

// levelFor is the level a requirement left out is logged at: info for the caller's own, debug
// for those of installed distributions.
func levelFor(w wanted) slog.Level {
	if w.parent == "" {
		return slog.LevelInfo
	}
	return slog.LevelDebug
}

// joinExtras returns extras sorted, without duplicates, joined with "," (Spec.Extras).
func joinExtras(extras []string) string {
	s := slices.Clone(extras)
	slices.Sort(s)
	return strings.Join(slices.Compact(s), ",")
}

// splitExtras undoes joinExtras.
func splitExtras(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// resolveInstalled returns the installed version s selects in the first cache that has one.
func resolveInstalled(ctx context.Context, caches []installedCache, s Spec) (docidx.Ref, installedCache, error) {
	var errs []error
	for _, c := range caches {
		v, err := c.Resolve(ctx, s.Name, s.Query)
		if err == nil {
			return docidx.Ref{Ecosystem: s.Ecosystem, Name: s.Name, Version: v}, c, nil
		}
		errs = append(errs, err)
	}
	return docidx.Ref{}, installedCache{}, errors.Join(errs...)
}

// requirementError says why no installed version satisfies w, and what to do. err is what the
// caches answered; it is wrapped.
func requirementError(ctx context.Context, caches []installedCache, w wanted, err error) error {
	s := w.spec
	where := describe(caches[0].src)
	asked := "any version"
	if s.Query != "" {
		asked = s.Query
		if s.Exact {
			asked = "==" + s.Query
		}
	}
	installed := ""
	if errors.Is(err, docidx.ErrNotFound) {
		for _, c := range caches {
			if v, err := c.Resolve(ctx, s.Name, ""); err == nil {
				installed, where = v, describe(c.src)
				break
			}
		}
	}
	todo := fmt.Sprintf("install the project's requirements there (pip install -r %s)", originFile(s.Origin))
	if w.parent != "" {
		todo = "repair that environment (pip install " + strings.Fields(w.parent)[0] + ", then pip check)"
	}
	var what string
	switch {
	case installed != "" && w.parent == "":
		what = fmt.Sprintf("%s has %s %s, which does not satisfy %s", where, s.Name, installed, asked)
	case installed != "":
		what = fmt.Sprintf("%s has %s %s, but %s requires %s", where, s.Name, installed, w.parent, asked)
	case w.parent == "":
		what = fmt.Sprintf("%s is not installed in %s", s.Name, where)
	default:
		what = fmt.Sprintf("%s is not installed in %s, though %s requires it", s.Name, where, w.parent)
	}
	// Only a site-packages implements Installed today, hence the words of pip and docidx crawl.
	return fmt.Errorf("%s (%s): %s; %s, or crawl without --site-packages to take the newest matching release from the index: %w",
		s, s.Origin, what, todo, err)
}

// originFile returns the file of an origin "requirements.txt:3".
func originFile(origin string) string {
	if i := strings.LastIndexByte(origin, ':'); i > 0 {
		return origin[:i]
	}
	return origin
}
