package npm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docidx/docidx"
	"github.com/docidx/docidx/internal/budget"
	"github.com/docidx/docidx/registries/internal/fetch"
)

// bigPackument returns a packument of n versions 1.0.0 … 1.0.<n-1>, each about 1 KB, with
// dist-tags before or after "versions", and the published time of each.
func bigPackument(n int, tagsFirst bool) []byte {
	var b bytes.Buffer
	tags := fmt.Sprintf(`"dist-tags":{"latest":"1.0.%d"},`, n/2)
	b.WriteString(`{"_id":"big","name":"big","description":"a big package",`)
	if tagsFirst {
		b.WriteString(tags)
	}
	b.WriteString(`"versions":{`)
	filler := strings.Repeat("filler ", 120)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		dep := ""
		if i%7 == 0 {
			dep = `"deprecated":"use a newer one",`
		}
		fmt.Fprintf(&b, `"1.0.%d":{"name":"big","version":"1.0.%d","description":%q,%s"dependencies":{"a":"^1.0.0","b":"~2.3.4"},"dist":{"tarball":"http://127.0.0.1:1/big/-/big-1.0.%d.tgz","shasum":"%040d"}}`,
			i, i, filler, dep, i, i)
	}
	b.WriteString(`},"time":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"1.0.%d":"2024-01-01T00:00:%02dZ"`, i, i%60)
	}
	b.WriteString(`},`)
	if !tagsFirst {
		b.WriteString(tags)
	}
	b.WriteString(`"readme":"# big"}`)
	return b.Bytes()
}

// The streaming decoder holds one version object at a time. What it allocates in all (one pass
// over each version: its name, a probe of its object, garbage as soon as the next comes) is
// about the document's size; what it keeps (the versions' names and a few version objects) is
// a small fraction of it, where decoding every version object, as docidx did before, kept about
// the document's size on top of the document itself.
func TestDecodePackumentAllocatesPerVersion(t *testing.T) {
	body := bigPackument(20000, true)
	allocated := func(f func()) (total, kept uint64) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		total = after.TotalAlloc - before.TotalAlloc
		runtime.GC()
		runtime.ReadMemStats(&after)
		return total, after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
	}
	var (
		p   *packument
		err error
	)
	total, kept := allocated(func() {
		p, err = decodePackument(bytes.NewReader(body), querySelection("^1.0.0"), DefaultLimits.MaxPackumentValue, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	var whole struct {
		Versions map[string]*manifest `json:"versions"`
	}
	wholeTotal, wholeKept := allocated(func() { err = json.Unmarshal(body, &whole) })
	if err != nil {
		t.Fatal(err)
	}
	n := float64(len(body))
	runtime.KeepAlive(whole.Versions)
	runtime.KeepAlive(body)
	t.Logf("%d bytes, %d versions: streaming allocated %.2f × the document and kept %.3f ×; decoding every version object allocated %.2f × and kept %.2f ×",
		len(body), len(p.Versions), float64(total)/n, float64(kept)/n, float64(wholeTotal)/n, float64(wholeKept)/n)
	if float64(total) > 1.5*n {
		t.Errorf("streaming allocated %.2f × the document, want at most 1.5 ×", float64(total)/n)
	}
	if float64(kept) > n/8 || kept > wholeKept/4 {
		t.Errorf("the decoded packument holds %.2f × the document (decoding every version object: %.2f ×), want at most 1/8 and a quarter of the other",
			float64(kept)/n, float64(wholeKept)/n)
	}
	runtime.KeepAlive(p)
	versionObjects := 0
	for _, m := range p.Versions {
		if m != nil {
			versionObjects++
		}
	}
	if len(p.Versions) != 20000 || versionObjects > 6 {
		t.Errorf("%d versions, %d version objects kept; want 20000 and at most 6", len(p.Versions), versionObjects)
	}
	if v, err := p.resolve("big", "^1.0.0"); err != nil || v != "1.0.10000" || p.Versions[v] == nil {
		t.Errorf("resolve ^1.0.0 = %q, %v (kept: %v); want 1.0.10000, kept", v, err, p.Versions[v] != nil)
	}
	if len(p.Time) != versionObjects || p.Time["1.0.10000"] == "" {
		t.Errorf("kept %d times for %d version objects (latest's: %q)", len(p.Time), versionObjects, p.Time["1.0.10000"])
	}
}

// What a selection keeps is what resolve picks, for every kind of query.
func TestQuerySelectionKeepsResolved(t *testing.T) {
	body := bigPackument(300, true)
	for _, q := range []string{"", "latest", "1.0.3", "v1.0.4", "=1.0.5", "^1.0.0", "<1.0.100", "1.0.7 || 1.0.14", ">=1.0.299"} {
		p, err := decodePackument(bytes.NewReader(body), querySelection(q), DefaultLimits.MaxPackumentValue, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := p.resolve("big", q)
		if err != nil {
			t.Errorf("resolve %q: %v", q, err)
			continue
		}
		if p.Versions[v] == nil {
			t.Errorf("query %q resolves to %s, whose version object was not kept", q, v)
		}
		if q == "1.0.7 || 1.0.14" && v != "1.0.14" && p.Deprecated["1.0.14"] {
			t.Errorf("query %q resolves to %s", q, v)
		}
	}
}

// A value over the limit fails the packument with ErrTooLarge before it is read whole.
func TestDecodePackumentValueLimit(t *testing.T) {
	huge := `{"versions":{"1.0.0":{"version":"1.0.0","readme":"` + strings.Repeat("x", 1<<20) + `"}}}`
	r := &countingReader{r: strings.NewReader(huge)}
	_, err := decodePackument(r, querySelection("latest"), 64<<10, nil)
	if !errors.Is(err, docidx.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if r.n > 128<<10 {
		t.Errorf("read %d bytes of a 1 MiB value before failing, want about the 64 KiB limit", r.n)
	}
}

type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// When "dist-tags" comes after "versions", the version dist-tags.latest names cannot be kept
// on the way: Fetch's manifest reads the packument again for it, once.
func TestManifestRefetchesWhatWasNotKept(t *testing.T) {
	for _, tagsFirst := range []bool{true, false} {
		body := bigPackument(50, tagsFirst)
		var hits atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.Write(body)
		}))
		r := registryOver(t, configAt(t, srv.URL), &fetch.Client{HTTP: srv.Client(), Retries: -1, MinBackoff: time.Millisecond}, nil)
		ctx := context.Background()
		v, err := r.Resolve(ctx, "big", "")
		if err != nil || v != "1.0.25" {
			t.Fatalf("tags first %v: Resolve = %q, %v; want 1.0.25", tagsFirst, v, err)
		}
		p, err := r.packument(ctx, "big", selection{versions: []string{v}})
		if err != nil {
			t.Fatal(err)
		}
		m, err := r.manifest(ctx, p, "big", v)
		if err != nil || string(m.Version) != v {
			t.Fatalf("tags first %v: manifest = %+v, %v", tagsFirst, m, err)
		}
		want := int32(1)
		if !tagsFirst {
			want = 2
		}
		if hits.Load() != want {
			t.Errorf("tags first %v: %d packument requests, want %d", tagsFirst, hits.Load(), want)
		}
		srv.Close()
	}
}

// Fetch keeps in the crawl's budget what it holds after it returns: the packument's list of
// versions and the files kept from the tarball, not the tarball itself.
func TestFetchReservesWhatItHolds(t *testing.T) {
	r, _ := newTestRegistry(t, nil)
	work := budget.New(1 << 30).Start()
	ctx := budget.NewContext(context.Background(), work)
	v, err := r.Resolve(ctx, "widget", "")
	if err != nil {
		t.Fatal(err)
	}
	afterResolve := work.Held()
	p, err := r.packument(ctx, "widget", selection{})
	if err != nil {
		t.Fatal(err)
	}
	if afterResolve != p.footprint() {
		t.Errorf("after Resolve %d bytes reserved, want the packument's footprint %d", afterResolve, p.footprint())
	}
	files, err := r.tarball(context.Background(), "widget", v, p.Versions[v])
	if err != nil {
		t.Fatal(err)
	}
	var kept int64
	for _, b := range files {
		kept += int64(len(b))
	}
	if _, err := r.Fetch(ctx, "widget", v); err != nil {
		t.Fatal(err)
	}
	if got := work.Held() - afterResolve; got != kept {
		t.Errorf("Fetch reserved %d bytes, want the %d bytes of the files kept from the tarball", got, kept)
	}
}

// A version name or publish time longer than any real one is skipped, however the members come.
func TestDecodePackumentSkipsOverlongNames(t *testing.T) {
	long := strings.Repeat("1", maxVersionLen+1)
	for _, body := range []string{
		`{"dist-tags":{"latest":"1.0.0"},"versions":{"1.0.0":{"version":"1.0.0"},"` + long + `":{"version":"x"}},"time":{"1.0.0":"2024-01-01T00:00:00Z","` + long + `":"2024-01-01T00:00:00Z"}}`,
		`{"time":{"1.0.0":"` + strings.Repeat("2", maxTimeLen+1) + `","` + long + `":"2024-01-01T00:00:00Z"},"dist-tags":{"latest":"1.0.0"},"versions":{"1.0.0":{"version":"1.0.0"},"` + long + `":{"version":"x"}}}`,
	} {
		p, err := decodePackument(strings.NewReader(body), querySelection(""), DefaultLimits.MaxPackumentValue, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Versions) != 1 || p.Versions["1.0.0"] == nil || len(p.Time) > 1 {
			t.Errorf("versions %d (1.0.0 kept: %v), times %d; want the one real version and at most its time", len(p.Versions), p.Versions["1.0.0"] != nil, len(p.Time))
		}
	}
}

// FuzzDecodePackument checks the streaming decoder against json.Unmarshal of the whole document
// (what docidx did before): on any document both read, the same versions, deprecations,
// dist-tags and readme, and for every query, a kept version object equal to the whole one.
func FuzzDecodePackument(f *testing.F) {
	f.Add(`{"dist-tags":{"latest":"1.0.0"},"versions":{"1.0.0":{"version":"1.0.0","description":"d"},"0.9.0":{"version":"0.9.0","deprecated":"old"}},"time":{"1.0.0":"2024-01-01T00:00:00Z"},"readme":"# r"}`, "^0.9.0")
	f.Add(`{"versions":{"2.0.0-rc.1":{"dist":{}},"1.0.0":null,"1.1.0":"x","1.2.0":{"version":5,"dist":{"tarball":"t"}}},"dist-tags":{"latest":"1.2.0","next":"2.0.0-rc.1"}}`, "next")
	f.Add(`{"time":{"1.0.0":"2024"},"versions":{"1.0.0":{"version":"1.0.0","deprecated":true}},"readme":7}`, "1.x")
	f.Add(`[]`, "")
	f.Add(`{"versions":{"1.0.0":{"version":"1.0.0","description":"a","deprecated":"x"},"2.0.0":{"version":"2.0.0"},"1.0.0":{"version":"1.0.0","description":"b"},"2.0.0":null}}`, "")
	f.Fuzz(func(t *testing.T, body, query string) {
		var whole struct {
			DistTags map[string]flexString `json:"dist-tags"`
			Versions map[string]*manifest  `json:"versions"`
			Readme   flexString            `json:"readme"`
		}
		if err := json.Unmarshal([]byte(body), &whole); err != nil {
			return // the oracle cannot say; the decoder must only not panic
		}
		p, err := decodePackument(strings.NewReader(body), querySelection(query), DefaultLimits.MaxPackumentValue, nil)
		if err != nil {
			t.Fatalf("decodePackument failed where json.Unmarshal did not: %v", err)
		}
		for v, m := range whole.Versions {
			if m == nil || m.Version == "" && len(m.Dist) == 0 || len(v) > maxVersionLen {
				delete(whole.Versions, v)
			}
		}
		if len(p.Versions) != len(whole.Versions) {
			t.Fatalf("%d versions, want %d", len(p.Versions), len(whole.Versions))
		}
		for v, m := range whole.Versions {
			got, ok := p.Versions[v]
			if !ok {
				t.Fatalf("version %q missing", v)
			}
			if p.Deprecated[v] != (m.deprecated() != "") {
				t.Errorf("version %q deprecated = %v, want %q", v, p.Deprecated[v], m.deprecated())
			}
			if got != nil && fmt.Sprintf("%+v", *got) != fmt.Sprintf("%+v", *m) {
				t.Errorf("version %q kept as %+v, want %+v", v, *got, *m)
			}
		}
		if fmt.Sprint(p.DistTags) != fmt.Sprint(whole.DistTags) || p.Readme != whole.Readme {
			t.Errorf("dist-tags %v, readme %q; want %v, %q", p.DistTags, p.Readme, whole.DistTags, whole.Readme)
		}
	})
}

// The decoder reports what it keeps as it grows, a step at a time, and stops when the budget
// says no.
func TestDecodePackumentReserves(t *testing.T) {
	body := bigPackument(20000, true)
	var calls int
	var total int64
	p, err := decodePackument(bytes.NewReader(body), querySelection(""), DefaultLimits.MaxPackumentValue, func(n int64) error {
		calls++
		total += n
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 2 || total != p.footprint() {
		t.Errorf("%d reservations of %d bytes in all; want several, adding up to the footprint %d", calls, total, p.footprint())
	}
	stop := errors.New("no room")
	if _, err := decodePackument(bytes.NewReader(body), querySelection(""), DefaultLimits.MaxPackumentValue, func(int64) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("err = %v, want the reservation's error", err)
	}
}

func TestDecodePackumentMaxVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes a million versions")
	}
	var b bytes.Buffer
	b.WriteString(`{"versions":{`)
	for i := range maxPackumentVersions + 1 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%d":{"dist":0}`, i)
	}
	b.WriteString(`}}`)
	if _, err := decodePackument(&b, querySelection(""), DefaultLimits.MaxPackumentValue, nil); !errors.Is(err, docidx.ErrTooLarge) {
		t.Errorf("err = %v, want ErrTooLarge", err)
	}
}
