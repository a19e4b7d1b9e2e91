package index

import (
	"context"
	"encoding/binary"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/docidx/docidx"
)

// TestRankAccMatchesBleve checks that the ranking index a segment's build accumulates holds what
// one derived from Bleve's postings of the same documents would: for every term of every rank
// field, the same documents, each with the impact of the BM25F sum of Bleve's frequencies and
// norms (summed in fieldWeights' order), and the spelling dictionaries Bleve's document counts.
// The analysis is done once, by rankAcc, and must not drift from Bleve's.
func TestRankAccMatchesBleve(t *testing.T) {
	p := &docidx.Package{Ecosystem: docidx.NPM, Name: "@acme/http-client", Version: "2.1.0",
		Description: "An HTTP client for the browser and Node.js, with retries and timeouts.", Keywords: []string{"http", "fetch", "retry"}}
	docs := []docidx.Document{{Kind: docidx.DocReadme, Title: "HTTP client", Sections: []docidx.Section{
		{Heading: []string{"Install"}, Plain: "Install it with npm. It's the client's easiest setup."},
		{Heading: []string{"Usage", "Retries"}, Plain: "Retries are retried three times; retrying waits between tries. The timeout defaults to 30 seconds.",
			Code: []docidx.CodeBlock{{Lang: "js", Code: "const client = createClient({ retries: 3, timeoutMs: 30000 })"}}},
		{Heading: []string{"Usage", "Errors"}, Plain: "An HTTPError carries the response's statusCode and the request's URL."},
	}}}
	syms := []docidx.Symbol{
		{Kind: docidx.KindFunc, Name: "createClient", QualifiedName: "createClient", Signature: "function createClient(options?: ClientOptions): Client",
			Doc: "createClient returns a Client. Use Client.request to send requests; see ClientOptions.timeoutMs."},
		{Kind: docidx.KindClass, Name: "Client", QualifiedName: "Client", Signature: "class Client", Doc: "A Client sends HTTP requests."},
		{Kind: docidx.KindMethod, Name: "request", QualifiedName: "Client.request", Signature: "request(url: string, init?: RequestInit): Promise<Response>",
			Doc: "Sends a request, retrying on network errors."},
		{Kind: docidx.KindInterface, Name: "ClientOptions", QualifiedName: "ClientOptions", Signature: "interface ClientOptions"},
		{Kind: docidx.KindProperty, Name: "timeoutMs", QualifiedName: "ClientOptions.timeoutMs", Signature: "timeoutMs?: number",
			Doc: "How long a request may take, in milliseconds (default: 30000)."},
		{Kind: docidx.KindClass, Name: "HTTPError", QualifiedName: "HTTPError", Signature: "class HTTPError extends Error", Doc: "HTTPError is thrown for non-2xx responses."},
	}
	sds := slices.Collect(searchDocs(p, docs, syms))

	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	idx, err := bleve.NewUsing("", im, scorch.Name, scorch.Name, nil) // every field indexed
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	batch := idx.NewBatch()
	acc, err := newRankAcc(im)
	if err != nil {
		t.Fatal(err)
	}
	for i := range sds {
		if err := batch.Index(sds[i].id, sds[i].fields); err != nil {
			t.Fatal(err)
		}
		if err := acc.add(&sds[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := idx.Batch(batch); err != nil {
		t.Fatal(err)
	}
	adv, err := idx.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	ir, err := adv.Reader()
	if err != nil {
		t.Fatal(err)
	}
	defer ir.Close()
	docOf := map[string]uint32{} // document ID -> the number add gave it
	for i, sd := range sds {
		docOf[sd.id] = uint32(i)
	}

	// What the ranking index derived from Bleve's postings held (as rank.go did before format 6).
	type key struct {
		term string
		doc  uint32
	}
	wtf := map[key]float64{}
	var order []key // the sum's order: fields in fieldWeights' order
	fuzzy := map[string][len(fuzzyFields)]uint32{}
	for _, f := range fieldWeights {
		dict, err := ir.FieldDict(f.name)
		if err != nil {
			t.Fatal(err)
		}
		for de, err := dict.Next(); de != nil || err != nil; de, err = dict.Next() {
			if err != nil {
				t.Fatal(err)
			}
			tfr, err := ir.TermFieldReader(context.Background(), []byte(de.Term), f.name, true, true, false)
			if err != nil {
				t.Fatal(err)
			}
			var tfd index.TermFieldDoc
			for d, err := tfr.Next(tfd.Reset()); d != nil || err != nil; d, err = tfr.Next(tfd.Reset()) {
				if err != nil {
					t.Fatal(err)
				}
				id, err := ir.ExternalID(d.ID)
				if err != nil {
					t.Fatal(err)
				}
				length := 1.0
				if d.Norm > 0 {
					length = 1 / (d.Norm * d.Norm)
				}
				k := key{de.Term, docOf[id]}
				if _, ok := wtf[k]; !ok {
					order = append(order, k)
				}
				wtf[k] += f.weight * float64(d.Freq) / (1 - f.b + f.b*length/f.pivot)
				for i, ff := range fuzzyFields {
					if ff == f.name {
						c := fuzzy[de.Term]
						c[i]++
						fuzzy[de.Term] = c
					}
				}
			}
			tfr.Close()
		}
		dict.Close()
	}

	got := map[key]uint8{}
	for term, ta := range acc.terms {
		doc := uint32(0)
		for i := 0; i < len(ta.postings); {
			gap, n := binary.Uvarint(ta.postings[i:])
			doc += uint32(gap)
			got[key{term, doc}] = ta.postings[i+n]
			i += n + 1
		}
		if ta.fuzzy != fuzzy[term] {
			t.Errorf("term %q: spelling counts %v, Bleve's %v", term, ta.fuzzy, fuzzy[term])
		}
	}
	if len(got) != len(wtf) || len(order) == 0 {
		t.Errorf("%d postings, Bleve's %d", len(got), len(wtf))
	}
	for _, k := range order {
		want := quantize(wtf[k] / (rankK1 + wtf[k]))
		if g, ok := got[k]; !ok || g != want {
			t.Errorf("term %q in document %d (%s): impact %d (held %v), Bleve's %d", k.term, k.doc, sds[k.doc].id, g, ok, want)
		}
	}
}
