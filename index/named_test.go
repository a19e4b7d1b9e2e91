package index

import (
	"maps"
	"slices"
	"testing"

	"github.com/docidx/docidx"
)

func TestQuestionNames(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"how many connections does go-redis keep in its pool by default?", []string{"connections", "default", "go-redis", "keep", "many", "pool"}},
		{"what is fastify's default body limit", []string{"body", "default", "fastify", "limit"}},
		{"@types/node http.Agent keepAlive", []string{"@types", "@types/node", "http", "http.agent", "keepalive", "node"}},
		{"cacheable.set() is slow", []string{"cacheable", "cacheable.set", "slow"}},
		{"is there a cap on what qs.parse reads", []string{"cap", "qs", "qs.parse", "reads"}},
		{"a boto3/botocore client", []string{"boto3", "boto3/botocore", "botocore", "client"}},
		{"urllib3. ok", []string{"urllib3"}},
		{"is it", nil},
		{"max payload of ws", []string{"max", "payload", "ws"}},
	} {
		got := slices.Sorted(maps.Keys(questionNames(tc.q)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("questionNames(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}
}

func TestPackageNames(t *testing.T) {
	for _, tc := range []struct {
		eco  docidx.Ecosystem
		name string
		want []string
	}{
		{docidx.Go, "github.com/redis/go-redis/v9", []string{"github.com/redis/go-redis/v9", "go-redis", "redis", "redis/go-redis"}},
		{docidx.Go, "github.com/nats-io/nats.go", []string{"github.com/nats-io/nats.go", "nats.go", "nats", "nats-io/nats.go", "nats-io"}},
		{docidx.Go, "github.com/prometheus/client_golang", []string{"github.com/prometheus/client_golang", "client_golang", "prometheus/client_golang", "prometheus"}},
		{docidx.Go, "go.uber.org/zap", []string{"go.uber.org/zap", "uber", "zap"}},
		{docidx.Go, "go.mongodb.org/mongo-driver/v2", []string{"go.mongodb.org/mongo-driver/v2", "mongodb", "mongo-driver"}},
		{docidx.Go, "golang.org/x/sync", []string{"golang.org/x/sync", "sync", "x/sync"}},
		{docidx.Go, "github.com/pkg/errors", []string{"github.com/pkg/errors", "errors", "pkg/errors", "pkg"}},
		{docidx.NPM, "@babel/core", []string{"@babel/core"}},
		{docidx.NPM, "jsonwebtoken", []string{"jsonwebtoken"}},
		{docidx.PyPI, "Flask_Cors", []string{"flask-cors", "flask_cors"}},
		{docidx.Cargo, "tracing-subscriber", []string{"tracing-subscriber", "tracing_subscriber"}},
		{docidx.NPM, "sonic-boom", []string{"sonic-boom", "sonicboom"}},
	} {
		if got := packageNames(tc.eco, tc.name); !slices.Equal(got, tc.want) {
			t.Errorf("packageNames(%s, %q) = %q, want %q", tc.eco, tc.name, got, tc.want)
		}
	}
}

func TestCompoundName(t *testing.T) {
	for w, want := range map[string]bool{
		"node-fetch": true, "socket.io": true, "urllib3": true, "@types/node": true, "go-redis": true,
		"router": false, "yaml": false, "jsonwebtoken": false,
	} {
		if got := compoundName(w); got != want {
			t.Errorf("compoundName(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestCalledPackages(t *testing.T) {
	for text, want := range map[string][]string{
		"how do I stop the debug module from printing the date?": {"debug"},
		"Is the ws library's maxPayload in bytes?":               nil, // "library's" is not a noun of its own
		"which chalk package version, and the glob lib, please":  {"chalk", "glob"},
		"limit the number of concurrent goroutines":              nil,
		"module debug": nil,
		// An ecosystem's word before a noun says where to look, not which package.
		"is there an npm package or a python library for this": nil,
		"strip trace calls with the log crate?":                {"log"},
	} {
		got := calledPackages(text)
		if len(got) != len(want) {
			t.Errorf("%q: %v, want %v", text, got, want)
			continue
		}
		for _, w := range want {
			if !got[w] {
				t.Errorf("%q: %v, want %v", text, got, want)
			}
		}
	}
}
