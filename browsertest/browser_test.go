package browsertest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The fixture: the Go module cache of registries/gomod, which holds example.com/hello at v1.0.0
// (one function, Hi), v1.1.0 (33 symbols, among them the type Greeter and NewGreeter) and v1.2.0
// (Hi again). A search for "greets" finds its latest version, v1.2.0; the version switcher leads
// to v1.1.0, whose outline and symbols are the richer ones. The test adds example.com/hostile,
// whose README and doc comments try to run script.
const (
	searchBox   = `form#q input[name="q"]`
	query       = "greets"
	pkgPattern  = `^/golang/example\.com/hello@v[0-9.]+$`
	pkgPath     = "/golang/example.com/hello@v1.1.0"
	symbolID    = "hello.Greeter"
	symbolSig   = "func (g *Greeter) Greet(name string) string"
	diffPath    = "/golang/example.com/hello/diff?from=v1.0.0&to=v1.1.0"
	diffAdded   = "NewGreeter"
	snapshotHas = "example.com/hello"
	hostilePath = "/golang/example.com/hostile@v1.0.0"
)

// hostile is a module whose README and doc comments carry every way in that issue 18 names:
// script elements, event handler attributes, javascript: links, HTML comments, and remote
// resources (a badge image, as most READMEs have, and an iframe). Each script would set
// window.docidxPwned or open a dialog.
var hostile = map[string]string{
	"go.mod": "module example.com/hostile\n\ngo 1.21\n",
	"README.md": `# Hostile

Package hostile tries to run script in the page.

[![build](https://img.shields.io/badge/build-passing-green.svg)](https://example.org/ci)

<script>window.docidxPwned = "script"; alert("script")</script>

<img src="x.png" onerror="window.docidxPwned = 'onerror'">

<a href="javascript:window.docidxPwned='html link'">an HTML link</a> and [a markdown link](javascript:window.docidxPwned='md%20link').

<!-- <script>window.docidxPwned = "comment"</script> -->

<iframe src="https://example.org/frame"></iframe>

<div onmouseover="window.docidxPwned = 'mouse'">hover</div>

<svg><script>window.docidxPwned = "svg"</script></svg>
`,
	"hostile.go": `// Package hostile says <script>window.docidxPwned = "doc"</script> in its doc comment.
package hostile

// Run is <img src=x onerror="window.docidxPwned = 'symbol'"> and [javascript:alert(1)].
func Run() {}
`,
}

// stepTimeout bounds each page's actions, so that a missing element fails the step with the
// selector it waited for instead of hanging until go test's own timeout.
const stepTimeout = 20 * time.Second

// TestBrowser walks search → package → version → API outline → symbol → upgrade diff → snapshot
// in headless Chromium, then a hostile package's README and outline, the search page again in
// dark mode on a phone-sized screen, search and version switcher with JavaScript off, checks
// that Content-Security-Policy stops an inline script,
// and last that every link to the server those pages showed leads somewhere. Every step that
// cannot follow a link says so and opens its page directly, so that one broken link still leaves
// the later pages checked.
func TestBrowser(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	bin := os.Getenv("DOCIDX_BIN")
	if bin == "" {
		bin = filepath.Join(root, "bin", "docidx")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("no docidx binary at %s (%v): run `make browser-test`, which builds it, or set DOCIDX_BIN", bin, err)
	}
	chrome := chromiumPath(t)
	shots := os.Getenv("DOCIDX_SCREENSHOTS")
	if shots == "" {
		// Only the default directory is emptied first, so that no screenshot of an earlier run
		// is taken for this one's; a directory the caller names may hold other files.
		shots = filepath.Join(root, "dist", "browser-test")
		if err := os.RemoveAll(shots); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}

	work := t.TempDir()
	env := hermeticEnv(work)
	index := filepath.Join(work, "index")
	modcache := filepath.Join(work, "mod")
	if err := os.CopyFS(modcache, os.DirFS(filepath.Join(root, "registries", "gomod", "testdata", "mod"))); err != nil {
		t.Fatal(err)
	}
	for name, content := range hostile {
		file := filepath.Join(modcache, "example.com", "hostile@v1.0.0", name)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	crawl := exec.Command(bin, "crawl", "--offline", "--quiet", "--index", index, "--go-modcache", modcache)
	crawl.Env = env
	if out, err := crawl.CombinedOutput(); err != nil {
		t.Fatalf("docidx crawl: %v\n%s", err, out)
	}
	base := serve(t, bin, env, index)
	t.Logf("docidx serves %s; screenshots go to %s", base, shots)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome),
		chromedp.UserDataDir(filepath.Join(work, "chromium")),
		chromedp.WindowSize(1280, 900),
		// Nothing but the docidx server resolves, so a page that reaches for a remote font,
		// script or image fails here as it would on an air-gapped machine.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
	)
	if os.Geteuid() == 0 {
		// Chromium refuses to start as root with its sandbox on (containers, CI).
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()

	rec := &recorder{origin: base}
	if err := chromedp.Listen(bctx, rec.event); err != nil {
		t.Fatalf("start Chromium %s: %v", chrome, err)
	}
	// A dialog stops the page until it is answered, and only another goroutine can answer it.
	dialogs := chromedp.Events(bctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			rec.add(fmt.Sprintf("a script opened a dialog (%s): %q (%s)", ev.Type, ev.Message, ev.URL))
			_, _ = chromedp.Call(bctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{})
		}
	}()
	w := &walker{t: t, ctx: bctx, base: base, shots: shots, rec: rec, links: map[string]string{}}

	// 1. Search: "/" focuses the box from anywhere on the page, the query is typed and submitted
	// with Enter, and the results list has hits.
	w.step("1-search", func(ctx context.Context) error {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(searchBox))); err != nil {
			return fmt.Errorf("search box %s: %w", searchBox, err)
		}
		// The box may have autofocus; "/" is for when the focus is elsewhere, as after a click
		// on the page, and in a focused box it is a character to type.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.activeElement.blur(), true`)); err != nil {
			return err
		}
		if err := pressSlash(ctx); err != nil {
			return err
		}
		focused, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.activeElement === document.querySelector('`+searchBox+`')`))
		if err != nil {
			return err
		}
		if !focused {
			w.errorf("pressing / did not focus the search box %s", searchBox)
			if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(searchBox))); err != nil {
				return err
			}
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(query)); err != nil {
			return err
		}
		typed, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(searchBox)))
		if err != nil {
			return err
		}
		if typed != query {
			w.errorf("search box holds %q after typing %q (the / that focused it must not be typed)", typed, query)
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent("\r"), chromedp.WaitVisible(chromedp.CSS(`#results li.hit`))); err != nil {
			return fmt.Errorf("results #results li.hit after submitting %q: %w", query, err)
		}
		loc, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil {
			return err
		}
		if u, err := url.Parse(loc); err != nil || u.Query().Get("q") != query {
			w.errorf("submitting the search went to %s, want /?q=%s", loc, query)
		}
		return nil
	})

	// 2. Package overview: the first hit's link to a package version.
	w.step("2-package", func(ctx context.Context) error {
		href, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
			const re = new RegExp(%q);
			for (const a of document.querySelectorAll('#results li.hit a[href]')) {
				if (a.origin === location.origin && re.test(a.pathname)) return a.getAttribute('href');
			}
			return '';
		})()`, pkgPattern)))
		if err != nil {
			return err
		}
		if href == "" {
			links, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#results li.hit a[href]')].map(a => a.getAttribute('href'))`))
			w.errorf("no hit in #results links to a package version page (path matching %s); hit links: %q", pkgPattern, links)
			return w.open(ctx, "/golang/example.com/hello@v1.2.0", `#version, #versions`)
		}
		return w.click(ctx, `#results li.hit a[href="`+cssString(href)+`"]`, `#version, #versions`)
	})

	// 3. The version switcher: a <select id="version"> that loads the version picked, or links
	// in #versions.
	w.step("3-version", func(ctx context.Context) error {
		hasSelect, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('select#version') !== null`))
		if err != nil {
			return err
		}
		if !hasSelect {
			return w.follow(ctx, pkgPath, `#version, #versions`)
		}
		// Picking an option fires change, as a person's choice does; the page's script submits.
		pick := chromedp.Evaluate[bool](`(() => {
			const s = document.querySelector('select#version');
			s.value = 'v1.1.0';
			s.dispatchEvent(new Event('change', {bubbles: true}));
			return s.value === 'v1.1.0';
		})()`)
		resp, err := chromedp.RunResponse(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			ok, err := pick(ctx, t)
			if err == nil && !ok {
				err = errors.New("select#version has no option v1.1.0")
			}
			return err
		}))
		if err != nil {
			return fmt.Errorf("picking v1.1.0 in select#version: %w", err)
		}
		if resp.Status != http.StatusOK {
			w.errorf("GET %s: status %d, want 200", resp.URL, resp.Status)
		}
		loc, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
		if err != nil {
			return err
		}
		if loc != pkgPath {
			w.errorf("picking v1.1.0 in select#version led to %s, want %s", loc, pkgPath)
			return w.open(ctx, pkgPath, `#version, #versions`)
		}
		return nil
	})

	// 4. API outline: linked from the overview, one element per symbol with its qualified name as id.
	w.step("4-api", func(ctx context.Context) error {
		return w.follow(ctx, pkgPath+"/api", `[id="`+cssString(symbolID)+`"]`)
	})

	// 5. One symbol's page, linked from the outline, with its members.
	w.step("5-symbol", func(ctx context.Context) error {
		if err := w.follow(ctx, pkgPath+"/symbol/"+symbolID, `body`); err != nil {
			return err
		}
		return w.bodyHas(ctx, symbolSig)
	})

	// 6. The API difference between two versions: v1.1.0 added NewGreeter. The overview may link
	// to it; if it does not, the page is opened by its address.
	w.step("6-diff", func(ctx context.Context) error {
		if err := w.open(ctx, pkgPath, `body`); err != nil {
			return err
		}
		href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
			for (const a of document.querySelectorAll('a[href]')) {
				if (a.origin === location.origin && a.pathname.endsWith('/diff')) return a.getAttribute('href');
			}
			return '';
		})()`))
		if err != nil {
			return err
		}
		if href == "" {
			w.cur.Logf("%s has no link to a /diff page; opening %s", pkgPath, diffPath)
			if err := w.open(ctx, diffPath, `body`); err != nil {
				return err
			}
		} else if err := w.click(ctx, `a[href="`+cssString(href)+`"]`, `body`); err != nil {
			return err
		}
		return w.bodyHas(ctx, diffAdded)
	})

	// 7. The snapshot page lists what is indexed.
	w.step("7-snapshot", func(ctx context.Context) error {
		if err := w.open(ctx, "/snapshot", `body`); err != nil {
			return err
		}
		return w.bodyHas(ctx, snapshotHas)
	})

	// 8, 9. Hostile package content: the README page and the API outline of example.com/hostile
	// show its words, run none of its script (no dialog, no window.docidxPwned, and no CSP
	// violation either, since nothing of it may reach the page as markup) and load nothing remote.
	for _, p := range []struct{ name, path, text string }{
		{"8-hostile-readme", hostilePath + "/readme", "tries to run script"},
		{"9-hostile-api", hostilePath + "/api", "hostile.Run"},
	} {
		w.step(p.name, func(ctx context.Context) error {
			if err := w.open(ctx, p.path, `body`); err != nil {
				return err
			}
			if err := w.bodyHas(ctx, p.text); err != nil {
				return err
			}
			found, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
				const found = [];
				if (window.docidxPwned !== undefined) found.push('a script ran: window.docidxPwned = ' + window.docidxPwned);
				for (const a of document.querySelectorAll('a[href]')) {
					if (a.protocol === 'javascript:') found.push('javascript: link ' + a.outerHTML);
				}
				for (const e of document.querySelectorAll('main *')) {
					for (const at of e.attributes) {
						if (/^on/i.test(at.name)) found.push('event handler attribute ' + at.name + ' on <' + e.tagName.toLowerCase() + '>');
					}
					// The page's own scripts come from /static/; an inline one or any other
					// can only be package content, as can a frame or plugin.
					const tag = e.tagName.toUpperCase();
					const ownScript = tag === 'SCRIPT' && e.src && new URL(e.src).origin === location.origin && new URL(e.src).pathname.startsWith('/static/');
					if ((tag === 'SCRIPT' && !ownScript) || /^(I?FRAME|OBJECT|EMBED)$/.test(tag)) {
						found.push('element from package content: ' + e.outerHTML.slice(0, 120));
					}
				}
				return found;
			})()`))
			if err != nil {
				return err
			}
			for _, f := range found {
				w.errorf("%s: %s", p.path, f)
			}
			// Hover and click every link of the content, as a curious reader would, without
			// leaving the page: a javascript: URL would run now.
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
				for (const e of document.querySelectorAll('main *')) e.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));
				for (const a of document.querySelectorAll('main a[href]')) {
					if (a.protocol === 'javascript:') a.click();
				}
				return true;
			})()`)); err != nil {
				return err
			}
			pwned, err := chromedp.Run(ctx, chromedp.Evaluate[string](`String(window.docidxPwned)`))
			if err != nil {
				return err
			}
			if pwned != "undefined" {
				w.errorf("%s: a script of the package ran: window.docidxPwned = %s", p.path, pwned)
			}
			return nil
		})
	}

	// 10. The results again, on a phone-sized screen with the system set to dark: the page follows
	// the setting and needs no sideways scrolling.
	w.step("10-search-dark-phone", func(ctx context.Context) error {
		light, err := w.background(ctx, "/?q="+url.QueryEscape(query))
		if err != nil {
			return err
		}
		if err := chromedp.Do(ctx,
			chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
			chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
				})
				return err
			}),
		); err != nil {
			return err
		}
		dark, err := w.background(ctx, "/?q="+url.QueryEscape(query))
		if err != nil {
			return err
		}
		if dark == light {
			w.errorf("the page's colours are %s in light and dark mode alike: it does not follow prefers-color-scheme", dark)
		}
		overflow, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - document.documentElement.clientWidth`))
		if err != nil {
			return err
		}
		if overflow > 0 {
			w.errorf("on a 390 px wide screen the page is %d px wider than the screen", overflow)
		}
		return chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#results li.hit`)))
	})

	// 11. Without JavaScript the pages still work (issue 18: "the pages work without it"): a
	// search submitted with Enter, and the version switcher with its button.
	w.step("11-no-script", func(ctx context.Context) error {
		if err := setScripts(ctx, false); err != nil {
			return err
		}
		defer func() { _ = setScripts(ctx, true) }()
		if err := w.open(ctx, "/", searchBox); err != nil {
			return err
		}
		// Step 1 saw the page's script focus the box on "/"; now it must not, or this step
		// would check nothing.
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.activeElement.blur(), true`)); err != nil {
			return err
		}
		if err := pressSlash(ctx); err != nil {
			return err
		}
		if focused, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.activeElement === document.querySelector('`+searchBox+`')`)); err != nil || focused {
			return fmt.Errorf("the page's script still runs after Emulation.setScriptExecutionDisabled (%v)", err)
		}
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(searchBox)), chromedp.KeyEvent(query+"\r"),
			chromedp.WaitVisible(chromedp.CSS(`#results li.hit`))); err != nil {
			return fmt.Errorf("search without JavaScript: %w", err)
		}
		if err := w.open(ctx, "/golang/example.com/hello@v1.2.0", `#version, #versions`); err != nil {
			return err
		}
		hasSelect, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('select#version') !== null`))
		if err != nil || !hasSelect {
			return err // links in #versions need no script
		}
		button := `select#version`
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
			const s = document.querySelector('select#version');
			s.value = 'v1.1.0';
			return s.value === 'v1.1.0' && s.form !== null && s.form.querySelector('button, input[type=submit]') !== null;
		})()`))
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("without JavaScript, %s is in no form with a submit button, so no other version can be picked", button)
		}
		if err := w.click(ctx, `form:has(select#version) button, form:has(select#version) input[type=submit]`, `body`); err != nil {
			return err
		}
		loc, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
		if err != nil {
			return err
		}
		if loc != pkgPath {
			return fmt.Errorf("without JavaScript, picking v1.1.0 and pressing the switcher's button led to %s, want %s", loc, pkgPath)
		}
		return nil
	})

	// 11b. Every kind of page, light and dark, at a desktop's and a phone's width (issue 29): a
	// screenshot of each to look at, and on a phone no page wider than the screen. The search
	// results' passages are markdown: no raw fence, code in a monospace font.
	for _, view := range []struct {
		name          string
		width, height int64
		mobile, dark  bool
	}{
		{"light-desktop", 1280, 900, false, false}, {"dark-desktop", 1280, 900, false, true},
		{"light-phone", 390, 844, true, false}, {"dark-phone", 390, 844, true, true},
	} {
		for _, pg := range galleryPages {
			w.step("gallery-"+pg.kind+"-"+view.name, func(ctx context.Context) error {
				vp := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
				if view.mobile {
					vp = []chromedp.EmulateViewportOption{chromedp.EmulateScale(2), chromedp.EmulateMobile}
				}
				scheme := "light"
				if view.dark {
					scheme = "dark"
				}
				if err := chromedp.Do(ctx,
					chromedp.EmulateViewport(view.width, view.height, vp...),
					chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
						_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
							Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
						})
						return err
					}),
				); err != nil {
					return err
				}
				if err := w.openStatus(ctx, pg.path, pg.sel, pg.status); err != nil {
					return err
				}
				if view.mobile {
					overflow, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - document.documentElement.clientWidth`))
					if err != nil {
						return err
					}
					if overflow > 0 {
						w.errorf("%s: on a %d px wide screen the page is %d px wider than the screen", pg.path, view.width, overflow)
					}
				}
				if pg.kind == "search" {
					return w.passagesRendered(ctx)
				}
				return nil
			})
		}
	}

	// 12. Content-Security-Policy: a script element with inline code, added to the page as hostile
	// package content would try, must not run, and the browser must report the violation (which
	// also shows that this test sees CSP violations at all).
	t.Run("csp-blocks-inline-script", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(bctx, stepTimeout)
		defer cancel()
		rec.take() // problems of the page before belong to step 11
		ran, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
			const s = document.createElement('script');
			s.textContent = 'window.docidxInlineRan = true';
			document.body.appendChild(s);
			return window.docidxInlineRan === true;
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if ran {
			t.Errorf("an inline script ran: the page has no Content-Security-Policy that forbids inline scripts")
		}
		var csp []string
		for i := 0; i < 50 && len(csp) == 0 && !ran; i++ {
			for _, p := range rec.take() {
				if strings.Contains(p, "Content Security Policy") {
					csp = append(csp, p)
				} else {
					t.Errorf("%s", p)
				}
			}
			if len(csp) == 0 {
				// The violation is reported asynchronously; an evaluation is a round trip that
				// lets the browser's events in.
				if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`true`)); err != nil {
					t.Fatal(err)
				}
				time.Sleep(100 * time.Millisecond)
			}
		}
		if !ran && len(csp) == 0 {
			t.Errorf("the inline script did not run, but the browser reported no Content-Security-Policy violation")
		}
		for _, p := range csp {
			t.Logf("expected: %s", p)
		}
	})

	// 13. Every link the pages above showed that stays on the server leads to a page, and a link
	// with a fragment to an element with that id: "every link on those pages works offline".
	t.Run("links", func(t *testing.T) {
		if len(w.links) == 0 {
			t.Fatal("the pages showed no links to check")
		}
		bodies := map[string]string{}
		for _, l := range slices.Sorted(maps.Keys(w.links)) {
			u, err := url.Parse(l)
			if err != nil {
				t.Errorf("link %s on %s: %v", l, w.links[l], err)
				continue
			}
			frag := u.Fragment
			u.Fragment, u.RawFragment = "", ""
			page := u.String()
			body, ok := bodies[page]
			if !ok {
				body, err = get(page)
				if err != nil {
					t.Errorf("link %s on %s: %v", l, w.links[l], err)
				}
				bodies[page] = body
			}
			if frag != "" && body != "" && !strings.Contains(body, `id="`+html.EscapeString(frag)+`"`) {
				t.Errorf("link %s on %s: the page has no element with id %q", l, w.links[l], frag)
			}
		}
		t.Logf("%d links to %d pages checked", len(w.links), len(bodies))
	})

	for _, p := range rec.takeWarnings() {
		t.Logf("browser warning: %s", p)
	}
}

// get returns the body of a page of the server, waiting as told when the rate limit answers 429.
func get(u string) (string, error) {
	for try := 0; ; try++ {
		resp, err := http.Get(u)
		if err != nil {
			return "", err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return "", err
		}
		if resp.StatusCode == http.StatusTooManyRequests && try < 5 {
			wait, err := strconv.Atoi(resp.Header.Get("Retry-After"))
			if err != nil || wait < 1 {
				wait = 1
			}
			time.Sleep(time.Duration(wait) * time.Second)
			continue
		}
		if resp.StatusCode != http.StatusOK {
			return "", fmt.Errorf("status %d", resp.StatusCode)
		}
		return string(body), nil
	}
}

// galleryPages are the kinds of page the server has, one address each, with an element to wait
// for and the status it answers.
var galleryPages = []struct {
	kind, path, sel string
	status          int64
}{
	{"home", "/", searchBox, http.StatusOK},
	{"search", "/?" + url.Values{"q": {"greeter usage"}, "package": {"example.com/hello"}, "version": {"v1.1.0"}}.Encode(), `#results li.hit`, http.StatusOK},
	{"package", pkgPath, `#version, #versions`, http.StatusOK},
	{"readme", pkgPath + "/readme", `h1`, http.StatusOK},
	{"api", pkgPath + "/api", `[id="` + cssString(symbolID) + `"]`, http.StatusOK},
	{"symbol", pkgPath + "/symbol/" + symbolID, `h1`, http.StatusOK},
	{"diff", diffPath, `h1`, http.StatusOK},
	{"snapshot", "/snapshot", `h1`, http.StatusOK},
	{"notfound", "/golang/example.com/hello@v9.9.9", `h1`, http.StatusNotFound},
}

// passagesRendered reports an error unless the search results on the page show their passages
// as markdown: at least one passage, none showing a "```" fence as text, every code element in
// one in a monospace font, and at least one code block among them (the query is chosen to
// find the README's usage example).
func (w *walker) passagesRendered(ctx context.Context) error {
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const ps = [...document.querySelectorAll('#results .passage')];
		if (ps.length === 0) return 'no passage on the results page';
		for (const p of ps) {
			if (p.innerText.includes('`+"```"+`')) return 'a passage shows a raw fence: ' + p.innerText.slice(0, 200);
			for (const c of p.querySelectorAll('code, pre')) {
				const f = getComputedStyle(c).fontFamily;
				if (!/mono|consolas|menlo/i.test(f)) return 'code in a passage is in ' + f + ': ' + c.innerText.slice(0, 80);
			}
		}
		if (!document.querySelector('#results .passage pre code')) return 'no passage shows a code block';
		return '';
	})()`))
	if err != nil {
		return err
	}
	if got != "" {
		return errors.New(got)
	}
	return nil
}

// walker runs the steps of TestBrowser in one tab.
type walker struct {
	t     *testing.T
	ctx   context.Context
	base  string
	shots string
	rec   *recorder
	cur   *testing.T        // the subtest of the step that runs
	links map[string]string // each link to the server seen on a page, to the first page it was on
}

// step runs fn as a subtest, then fails it with every console error, exception, CSP violation,
// failed request and request to another host that the page caused, and saves a screenshot of
// the page as it is (also after a failure, where it shows what was there instead).
func (w *walker) step(name string, fn func(ctx context.Context) error) {
	w.t.Run(name, func(t *testing.T) {
		w.cur = t
		ctx, cancel := context.WithTimeout(w.ctx, stepTimeout)
		defer cancel()
		if err := fn(ctx); err != nil {
			t.Errorf("%v", err)
		}
		// A round trip, so that the events the page sent before it are recorded, which also
		// collects the page's links to the server for the links check.
		links, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('a[href]')].filter(a => a.origin === location.origin).map(a => a.href)`))
		if err == nil {
			from, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + location.search`))
			for _, l := range links {
				if _, ok := w.links[l]; !ok {
					w.links[l] = from
				}
			}
		}
		for _, p := range w.rec.take() {
			t.Errorf("%s", p)
		}
		sctx, scancel := context.WithTimeout(w.ctx, stepTimeout)
		defer scancel()
		png, err := chromedp.Run(sctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Errorf("screenshot: %v", err)
			return
		}
		file := filepath.Join(w.shots, name+".png")
		if err := os.WriteFile(file, png, 0o644); err != nil {
			t.Errorf("screenshot: %v", err)
			return
		}
		t.Logf("screenshot %s", file)
	})
}

// pressSlash presses "/" the way a keyboard does: one keyDown that carries the text, so that a
// page which handles the key and calls preventDefault types nothing. (chromedp.KeyEvent sends the
// text in a separate char event, which preventDefault on keydown cannot stop, unlike in a browser
// driven by a person.)
func pressSlash(ctx context.Context) error {
	down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: "/", Code: "Slash", Text: "/", UnmodifiedText: "/", WindowsVirtualKeyCode: 191, NativeVirtualKeyCode: 191}
	up := down
	up.Type, up.Text, up.UnmodifiedText = input.DispatchKeyEventTypeKeyUp, "", ""
	for _, p := range []input.DispatchKeyEventParams{down, up} {
		if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, p); err != nil {
			return fmt.Errorf("press /: %w", err)
		}
	}
	return nil
}

// setScripts turns the page's JavaScript on or off, for this tab, from the next page load on.
func setScripts(ctx context.Context, on bool) error {
	_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !on})
	return err
}

// errorf fails the running step and lets it go on.
func (w *walker) errorf(format string, args ...any) {
	w.cur.Helper()
	w.cur.Errorf(format, args...)
}

// open loads path from the server and waits for the element sel.
func (w *walker) open(ctx context.Context, path, sel string) error {
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(w.base+path))
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	w.cur.Logf("opened %s", path)
	if resp.Status != http.StatusOK {
		w.errorf("GET %s: status %d, want 200", path, resp.Status)
	}
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(sel))); err != nil {
		return fmt.Errorf("%s: waiting for %s: %w", path, sel, err)
	}
	return nil
}

// openStatus is open for a page that answers status: a not-found page answers 404, which the
// recorder, told of every response of 400 or more, is told to expect.
func (w *walker) openStatus(ctx context.Context, path, sel string, status int64) error {
	if status == http.StatusOK {
		return w.open(ctx, path, sel)
	}
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(w.base+path))
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	if resp.Status != status {
		w.errorf("GET %s: status %d, want %d", path, resp.Status, status)
	}
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(sel))); err != nil {
		return fmt.Errorf("%s: waiting for %s: %w", path, sel, err)
	}
	// A round trip lets the response's event in; then the expected status is not a problem.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`true`)); err != nil {
		return err
	}
	want := fmt.Sprintf("Document %s: status %d", w.base+path, status)
	for _, p := range w.rec.take() {
		if p == want {
			w.cur.Logf("expected: %s", p)
		} else {
			w.rec.add(p)
		}
	}
	return nil
}

// follow clicks the current page's link to path (a path on the server, with or without a
// query), or, when the page has none, reports that and opens path directly.
func (w *walker) follow(ctx context.Context, path, sel string) error {
	href, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => {
		const want = %q;
		for (const a of document.querySelectorAll('a[href]')) {
			if (a.origin === location.origin && decodeURIComponent(a.pathname + a.search) === want) return a.getAttribute('href');
		}
		return '';
	})()`, path)))
	if err != nil {
		return err
	}
	if href == "" {
		from, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname`))
		w.errorf("%s has no link to %s; opening it directly", from, path)
		return w.open(ctx, path, sel)
	}
	return w.click(ctx, `a[href="`+cssString(href)+`"]`, sel)
}

// click clicks the first element link matches, waits for the page it loads, and for sel on it.
func (w *walker) click(ctx context.Context, link, sel string) error {
	resp, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(link), chromedp.NodeVisible))
	if err != nil {
		return fmt.Errorf("click %s: %w", link, err)
	}
	w.cur.Logf("clicked %s, got %s", link, strings.TrimPrefix(resp.URL, w.base))
	if resp.Status != http.StatusOK {
		w.errorf("GET %s: status %d, want 200", resp.URL, resp.Status)
	}
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(sel))); err != nil {
		return fmt.Errorf("%s: waiting for %s: %w", resp.URL, sel, err)
	}
	return nil
}

// bodyHas reports an error unless the page's visible text contains s.
func (w *walker) bodyHas(ctx context.Context, s string) error {
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if err != nil {
		return err
	}
	if !strings.Contains(text, s) {
		loc, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + location.search`))
		return fmt.Errorf("%s does not show %q; its text begins %q", loc, s, truncate(text, 300))
	}
	return nil
}

// background opens path and returns the computed colours of its body: background (or the root
// element's when the body's is transparent) and text. The text colour counts too because a page
// may follow the system with CSS color-scheme alone, which leaves both backgrounds transparent.
func (w *walker) background(ctx context.Context, path string) (string, error) {
	if err := w.open(ctx, path, `body`); err != nil {
		return "", err
	}
	return chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const s = getComputedStyle(document.body);
		const b = s.backgroundColor === 'rgba(0, 0, 0, 0)' ? getComputedStyle(document.documentElement).backgroundColor : s.backgroundColor;
		return 'background ' + b + ', text ' + s.color;
	})()`))
}

// recorder collects what the browser reports about the tab. Listen calls event on the goroutine
// that reads the browser's messages, so it only appends under a lock.
type recorder struct {
	origin   string // scheme://host:port of the docidx server
	mu       sync.Mutex
	problems []string
	warnings []string
}

func (r *recorder) event(ev any) {
	var problem, warning string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		switch ev.Type {
		case runtime.ConsoleAPICalledTypeError, runtime.ConsoleAPICalledTypeAssert:
			problem = "console." + string(ev.Type) + ": " + remoteArgs(ev.Args)
		case runtime.ConsoleAPICalledTypeWarning:
			warning = "console.warn: " + remoteArgs(ev.Args)
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		problem = "uncaught exception: " + d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			problem += " " + d.Exception.Description
		}
		problem += fmt.Sprintf(" (%s:%d:%d)", d.URL, d.LineNumber+1, d.ColumnNumber+1)
	case *cdplog.EventEntryAdded:
		// CSP violations, failed loads and deprecations arrive here, not as console calls.
		e := ev.Entry
		msg := fmt.Sprintf("browser %s %s: %s", e.Source, e.Level, e.Text)
		if e.URL != "" {
			msg += " (" + e.URL + ")"
		}
		switch {
		case e.Source == cdplog.EntrySourceNetwork && strings.HasPrefix(e.Text, "Failed to load resource: the server responded with a status"):
			// Reported with its resource type by EventResponseReceived below.
		case e.Level == cdplog.EntryLevelError:
			problem = msg
		case e.Level == cdplog.EntryLevelWarning:
			warning = msg
		}
	case *network.EventRequestWillBeSent:
		if u := ev.Request.URL; !r.local(u) {
			problem = "request leaves the docidx server: " + string(ev.Type) + " " + u
		}
	case *network.EventResponseReceived:
		if ev.Response.Status >= 400 {
			problem = fmt.Sprintf("%s %s: status %d", ev.Type, ev.Response.URL, ev.Response.Status)
		}
	case *network.EventLoadingFailed:
		if !ev.Canceled {
			problem = fmt.Sprintf("%s request failed: %s %s", ev.Type, ev.ErrorText, ev.BlockedReason)
		}
	}
	if problem == "" && warning == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if problem != "" {
		r.problems = append(r.problems, problem)
	}
	if warning != "" {
		r.warnings = append(r.warnings, warning)
	}
}

// add records a problem found outside Listen's events.
func (r *recorder) add(problem string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.problems = append(r.problems, problem)
}

// local reports whether a request for u stays on the docidx server or inside the browser.
func (r *recorder) local(u string) bool {
	for _, p := range []string{"data:", "blob:", "about:"} {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return u == r.origin || strings.HasPrefix(u, r.origin+"/")
}

// take returns the problems recorded since the last call and forgets them.
func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.problems
	r.problems = nil
	return p
}

// takeWarnings returns the warnings recorded since the last call and forgets them.
func (r *recorder) takeWarnings() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.warnings
	r.warnings = nil
	return w
}

func remoteArgs(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		switch {
		case len(a.Value) > 0:
			parts = append(parts, string(a.Value))
		case a.Description != "":
			parts = append(parts, a.Description)
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

// serve starts `docidx serve --http 127.0.0.1:0` over index, waits until it answers /healthz,
// and returns its origin (http://127.0.0.1:PORT). The server is stopped with SIGINT when the
// test ends, and its log is shown if the test failed.
func serve(t *testing.T, bin string, env []string, index string) string {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--http", "127.0.0.1:0", "--index", index, "--log-level", "info", "--drain", "0")
	cmd.Env = env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("docidx serve: %v", err)
	}
	var (
		mu  sync.Mutex
		log strings.Builder
	)
	found := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		re := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			log.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if m := re.FindString(sc.Text()); m != "" {
				select {
				case found <- m:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		_ = cmd.Wait()
		if t.Failed() {
			mu.Lock()
			t.Logf("docidx serve's log:\n%s", log.String())
			mu.Unlock()
		}
	})
	var base string
	select {
	case base = <-found:
	case <-done:
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("docidx serve ended before it printed its address:\n%s", log.String())
	case <-time.After(30 * time.Second):
		t.Fatal("docidx serve printed no http://127.0.0.1:PORT address in 30s")
	}
	for i := 0; ; i++ {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		if i == 100 {
			t.Fatalf("docidx serve at %s: /healthz did not answer 200: %v", base, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// chromiumPath finds the browser: $DOCIDX_CHROMIUM, else Debian's chromium on $PATH, else the
// names other systems give it.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("DOCIDX_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no Chromium found: install Debian's chromium package (apt-get install -y chromium; " +
		"`make browser-test` does this) or set DOCIDX_CHROMIUM to a Chrome or Chromium binary")
	return ""
}

// hermeticEnv is the environment for docidx: the test's own home and data directories, so that
// nothing of the user's snapshot or configuration is read, and no proxy or network use.
func hermeticEnv(work string) []string {
	home := filepath.Join(work, "home")
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || k == "XDG_DATA_HOME" || k == "XDG_CONFIG_HOME" || k == "XDG_CACHE_HOME" || strings.HasPrefix(k, "DOCIDX_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+home, "XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache"))
}

// cssString escapes s for a double-quoted CSS string.
func cssString(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
