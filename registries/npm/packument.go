package npm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/docidx/docidx"
)

// Bounds on what a packument keeps of each version, so that its names and times cannot hold
// more than a few hundred bytes per version whatever the registry sends: longer ones are skipped.
const (
	maxVersionLen = 256 // bytes of a version name (semver allows any length; npm's are short)
	maxTimeLen    = 64  // bytes of a publish time (RFC 3339: "2006-01-02T15:04:05.000Z")
)

// packument is what docidx keeps of a full packument
// (https://github.com/npm/registry/blob/main/docs/REGISTRY-API.md#getpackage): every version's
// name and whether it is deprecated, the dist-tags, the top-level readme and description, and
// the version objects and publish times of only the few versions a selection keeps. A popular
// package's packument holds thousands of versions, a hostile one any number, each with
// dependencies, scripts and more: decodePackument reads it as a stream and holds one of them at
// a time, besides the few it keeps.
type packument struct {
	DistTags       map[string]flexString
	Versions       map[string]*manifest // every version; nil for those whose object was not kept
	Deprecated     map[string]bool      // versions marked deprecated
	Time           map[string]flexString
	Readme         flexString
	ReadmeFilename flexString
	Description    flexString

	url    string   // where it was fetched, for messages and Package.Source
	sorted []string // Versions' keys, oldest first
	size   int64    // measure() once decoded: what the budget and the cache count it as
}

// footprint returns the bytes p holds, as measured when it was decoded (p is not changed after).
func (p *packument) footprint() int64 { return p.size }

// measure estimates the bytes p holds: its versions' names, each in a map entry and a slice,
// and the version objects kept, by the size of their fields.
func (p *packument) measure() int64 {
	var n int64
	for v, m := range p.Versions {
		n += versionFootprint(v)
		if m != nil {
			n += int64(len(m.Readme) + len(m.Description) + len(m.Exports) + len(m.TypesVersions) + len(m.Dist) + 512)
		}
	}
	return n + int64(len(p.Readme)+len(p.Description))
}

// versionFootprint estimates the bytes a packument holds for a version named v: its name, a map
// entry and a slice entry.
func versionFootprint(v string) int64 { return int64(len(v)) + 64 }

// pick accepts versions a query may select.
type pick func(c *candidate) bool

// candidate is a version as picks see it.
type candidate struct {
	version    string
	deprecated bool
	sv         *semver.Version
	parsed     bool
}

// semver returns the version parsed as semver (nil when it is not), parsing it once: the strict
// parser first, which allocates little and accepts what npm publishes, then the loose one resolve
// matches with.
func (c *candidate) semver() *semver.Version {
	if !c.parsed {
		c.parsed = true
		var err error
		if c.sv, err = semver.StrictNewVersion(c.version); err != nil {
			c.sv, _ = semver.NewVersion(c.version)
		}
	}
	return c.sv
}

// selection names the version objects a streamed packument keeps: those of versions, those the
// dist-tags named in tags point at (when "dist-tags" comes before "versions", as registries
// write it), and the highest version each of picks accepts. A selection only saves a second
// fetch: a version whose object was not kept is fetched again (see Registry.manifest).
type selection struct {
	versions []string
	tags     []string
	picks    []pick
}

// querySelection keeps what resolve may pick for query: the version or dist-tag it names,
// dist-tags.latest, the highest version and the highest release, the highest version equal to
// an exact query, and the highest versions (deprecated or not) in a range query.
func querySelection(query string) selection {
	query = strings.TrimSpace(query)
	s := selection{
		versions: []string{query},
		tags:     []string{"latest", query},
		picks: []pick{
			func(*candidate) bool { return true },
			func(c *candidate) bool { return !docidx.IsPrerelease(docidx.NPM, c.version) },
		},
	}
	if exact, err := semver.StrictNewVersion(strings.TrimPrefix(strings.TrimPrefix(query, "="), "v")); err == nil {
		s.picks = append(s.picks, func(c *candidate) bool { return c.semver() != nil && c.semver().Equal(exact) })
	} else if cons, err := semver.NewConstraint(query); err == nil {
		match := func(c *candidate) bool { return c.semver() != nil && cons.Check(c.semver()) }
		s.picks = append(s.picks, match, func(c *candidate) bool { return !c.deprecated && match(c) })
	}
	return s
}

// errValueTooLarge is a packument value over its limit.
var errValueTooLarge = errors.New("value too large")

// valueReader fails a read with errValueTooLarge once more than left bytes were read since the
// last reset: the decoder reads a value whole into memory, and this bounds how much of it.
type valueReader struct {
	r     io.Reader
	limit int64
	left  int64
}

func (v *valueReader) reset() { v.left = v.limit }

func (v *valueReader) Read(p []byte) (int, error) {
	if v.left <= 0 {
		return 0, errValueTooLarge
	}
	if int64(len(p)) > v.left {
		p = p[:v.left]
	}
	n, err := v.r.Read(p)
	v.left -= int64(n)
	return n, err
}

// maxPackumentVersions bounds the versions of one packument (a million: the largest real ones
// list a few hundred thousand); a packument with more fails with docidx.ErrTooLarge.
const maxPackumentVersions = 1 << 20

// reserveStep is how many bytes of versions' names decodePackument reports at a time.
const reserveStep = 1 << 20

// decodePackument reads a full packument from body, keeping the version objects sel names.
// A member of an unexpected type (a version that is not an object, a readme that is not a
// string) reads as absent. As what it keeps grows, it calls reserve, when not nil, with the
// bytes added (a step at a time; in all, the result's footprint), and stops with reserve's
// error. It fails when body is not a JSON object, and with an error wrapping
// docidx.ErrTooLarge when one value is over maxValue bytes or the versions are more than
// maxPackumentVersions; an error of body itself is returned wrapped.
func decodePackument(body io.Reader, sel selection, maxValue int64, reserve func(bytes int64) error) (*packument, error) {
	if reserve == nil {
		reserve = func(int64) error { return nil }
	}
	lr := &valueReader{r: body, limit: maxValue}
	lr.reset()
	dec := json.NewDecoder(lr)
	p := &packument{Versions: map[string]*manifest{}, Deprecated: map[string]bool{}, Time: map[string]flexString{}}
	d := packumentDecoder{dec: dec, lr: lr, p: p, sel: sel, best: make([]best, len(sel.picks)), reserve: reserve}
	err := d.object(func(key string) error {
		switch key {
		case "versions":
			return d.versions()
		case "time":
			return d.times()
		case "dist-tags":
			return d.value(&p.DistTags)
		case "readme":
			return d.value(&p.Readme)
		case "readmeFilename":
			return d.value(&p.ReadmeFilename)
		case "description":
			return d.value(&p.Description)
		}
		return d.skip()
	})
	if err != nil {
		if errors.Is(err, errValueTooLarge) {
			return nil, fmt.Errorf("%w: a value over %d bytes", docidx.ErrTooLarge, maxValue)
		}
		return nil, err
	}
	if d.timeFirst {
		for v := range p.Time {
			if p.Versions[v] == nil {
				delete(p.Time, v)
			}
		}
	}
	p.sorted = slices.Collect(maps.Keys(p.Versions))
	docidx.SortVersions(docidx.NPM, p.sorted)
	p.size = p.measure()
	if err := reserve(p.size - d.reserved); err != nil {
		return nil, err
	}
	return p, nil
}

// packumentDecoder is decodePackument's state.
type packumentDecoder struct {
	dec       *json.Decoder
	lr        *valueReader
	p         *packument
	sel       selection
	best      []best          // per pick, the highest version it accepted so far
	raw       json.RawMessage // one version object; its storage is reused
	seen      bool            // "versions" was read
	timeFirst bool            // "time" came before "versions": it was kept whole
	reserve   func(bytes int64) error
	reserved  int64 // bytes reported to reserve so far
	pending   int64 // bytes of versions' names not yet reported
}

// object calls member with each key of the JSON object that comes next, which must read the
// member's value. A value that is not an object is skipped and member never called.
func (d *packumentDecoder) object(member func(key string) error) error {
	d.lr.reset()
	t, err := d.dec.Token()
	if err != nil {
		return err
	}
	if t != json.Delim('{') {
		if _, ok := t.(json.Delim); ok { // an array: skip its elements
			return d.skipRest()
		}
		return nil
	}
	for d.dec.More() {
		d.lr.reset()
		t, err := d.dec.Token()
		if err != nil {
			return err
		}
		key, _ := t.(string)
		d.lr.reset()
		if err := member(key); err != nil {
			return err
		}
	}
	_, err = d.dec.Token() // the closing brace
	return err
}

// skipRest skips the rest of an array whose '[' was read.
func (d *packumentDecoder) skipRest() error {
	for d.dec.More() {
		if err := d.skip(); err != nil {
			return err
		}
	}
	_, err := d.dec.Token()
	return err
}

// value decodes the next value into v; a value of another type leaves v as it was.
func (d *packumentDecoder) value(v any) error {
	err := d.dec.Decode(v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return nil
	}
	return err
}

// skip reads the next value into d.raw's reused storage and drops it.
func (d *packumentDecoder) skip() error { return d.dec.Decode(&d.raw) }

// best is the highest version a pick accepted so far, and its version object, in storage
// reused by each better one.
type best struct {
	version string
	raw     []byte
}

// versions reads the "versions" object one version at a time. It parses the version objects
// named by the selection as they come, and those of the picks' highest versions at the end.
func (d *packumentDecoder) versions() error {
	d.seen = true
	named := map[string]bool{}
	for _, t := range d.sel.tags {
		if v, ok := d.p.DistTags[t]; ok {
			named[string(v)] = true
		}
	}
	for _, v := range d.sel.versions {
		named[v] = true
	}
	err := d.object(func(v string) error {
		if err := d.skip(); err != nil {
			return err
		}
		// A name given twice keeps its last value, as json.Unmarshal would.
		delete(d.p.Versions, v)
		delete(d.p.Deprecated, v)
		for i := range d.best {
			if d.best[i].version == v {
				d.best[i].version = ""
			}
		}
		var probe versionProbe
		if len(v) > maxVersionLen || json.Unmarshal(d.raw, &probe) != nil || !bool(probe.Version) && !bool(probe.Dist) {
			return nil // not a version name; null, or not an object
		}
		if len(d.p.Versions) == maxPackumentVersions {
			return fmt.Errorf("%w: more than %d versions", docidx.ErrTooLarge, maxPackumentVersions)
		}
		if d.pending += versionFootprint(v); d.pending >= reserveStep {
			if err := d.reserve(d.pending); err != nil {
				return err
			}
			d.reserved += d.pending
			d.pending = 0
		}
		c := candidate{version: v, deprecated: bool(probe.Deprecated)}
		if c.deprecated {
			d.p.Deprecated[v] = true
		}
		d.p.Versions[v] = nil
		if named[v] {
			if m, err := parseManifest(d.raw); err == nil {
				d.p.Versions[v] = m
			}
		}
		for i, ok := range d.sel.picks {
			b := &d.best[i]
			if ok(&c) && (b.version == "" || docidx.CompareVersions(docidx.NPM, v, b.version) > 0) {
				b.version, b.raw = v, append(b.raw[:0], d.raw...)
			}
		}
		return nil
	})
	for _, b := range d.best {
		if b.version != "" && d.p.Versions[b.version] == nil {
			if m, err := parseManifest(b.raw); err == nil {
				d.p.Versions[b.version] = m
			}
		}
	}
	return err
}

// times reads the "time" object, keeping the times of the versions whose objects were kept
// (all of them when "versions" is yet to come).
func (d *packumentDecoder) times() error {
	d.timeFirst = !d.seen
	return d.object(func(v string) error {
		if d.seen && d.p.Versions[v] == nil || len(v) > maxVersionLen {
			return d.skip()
		}
		var t flexString
		if err := d.value(&t); err != nil {
			return err
		}
		if len(t) <= maxTimeLen {
			d.p.Time[v] = t
		}
		return nil
	})
}

// versionProbe is what decodePackument reads of every version object: whether it is one (a
// version string or a dist member, as manifest requires), and whether it is deprecated. Its
// fields decode without allocating, but for a deprecation message.
type versionProbe struct {
	Version    nonEmptyString `json:"version"`
	Dist       present        `json:"dist"`
	Deprecated deprecation    `json:"deprecated"`
}

// present records that a member exists.
type present bool

// UnmarshalJSON implements json.Unmarshaler.
func (p *present) UnmarshalJSON([]byte) error {
	*p = true
	return nil
}

// nonEmptyString records that a member is a string other than "".
type nonEmptyString bool

// UnmarshalJSON implements json.Unmarshaler.
func (s *nonEmptyString) UnmarshalJSON(b []byte) error {
	*s = len(b) > 2 && b[0] == '"'
	return nil
}

// deprecation is a version's "deprecated" member as manifest.deprecated reads it: deprecated
// when it is a string that is not blank, or true.
type deprecation bool

// UnmarshalJSON implements json.Unmarshaler.
func (d *deprecation) UnmarshalJSON(b []byte) error {
	var s string
	switch {
	case string(b) == "true":
		*d = true
	case json.Unmarshal(b, &s) == nil:
		*d = strings.TrimSpace(s) != ""
	}
	return nil
}
