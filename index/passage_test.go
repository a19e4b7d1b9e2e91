package index

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// jwtSign is a section as storeSection stores it: one unit per line, code fenced.
const jwtSign = `(Asynchronous) If a callback is supplied, the callback is called with the err or the JWT.
(Synchronous) Returns the JsonWebToken as string
payload could be an object literal, buffer or string representing valid JSON.
Please note that exp or any other claim is only set if the payload is an object literal. Buffer or string payloads are not checked for JSON validity.
secretOrPrivateKey is a string (utf-8 encoded), buffer, object, or KeyObject containing either the secret for HMAC algorithms or the PEM encoded private key for RSA and ECDSA.
options:
algorithm (default: HS256)
expiresIn: expressed in seconds or a string describing a time span vercel/ms. Eg: 60, "2 days", "10h", "7d". A numeric value is interpreted as a seconds count. If you use a string be sure you provide the time units (days, hours, etc), otherwise milliseconds unit is used by default ("120" is equal to "120ms").
notBefore: expressed in seconds or a string describing a time span vercel/ms.
audience
issuer
jwtid
` + "```js\n" + `// sign with default (HMAC SHA256)
var jwt = require('jsonwebtoken');
var token = jwt.sign({ foo: 'bar' }, 'shhhhh');
` + "```"

func TestPassage(t *testing.T) {
	for _, c := range []struct {
		name, text, query string
		budget            int
		want              []string // substrings the passage holds
		not               []string // substrings it must not hold
	}{
		{
			name: "the sentence that answers", text: jwtSign, query: "jsonwebtoken expiresIn seconds or milliseconds", budget: 600,
			want: []string{"A numeric value is interpreted as a seconds count", "milliseconds unit is used by default", "… "},
			not:  []string{"(Asynchronous)"},
		},
		{
			name: "short budget keeps the best sentences", text: jwtSign, query: "expiresIn seconds milliseconds", budget: 240,
			want: []string{"seconds"}, not: []string{"audience", "(Asynchronous)"},
		},
		{
			name: "code that holds the words", text: jwtSign, query: "sign with default HMAC SHA256", budget: 300,
			want: []string{"```js\n// sign with default (HMAC SHA256)\n", "\n```"},
		},
		{
			name: "no match: the opening", text: jwtSign, query: "frobnicate", budget: 200,
			want: []string{"(Asynchronous) If a callback", " …"}, not: []string{"… ("},
		},
		{
			name: "short text whole", text: "Sets the pool size.", query: "pool size", budget: 200,
			want: []string{"Sets the pool size."}, not: []string{"…"},
		},
		{
			name: "one unit longer than the budget", text: strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing ", 40) + "the backoff maximum is 120 seconds " + strings.Repeat("sed do eiusmod tempor ", 40),
			query: "backoff max", budget: 200, want: []string{"backoff maximum is 120", "…"},
		},
		{
			name: "camelCase parts and prefixes", text: "Other text here.\nThe maxRetries option bounds how many times a request is retried.\nMore text.", query: "retries max", budget: 80,
			want: []string{"maxRetries option bounds"},
		},
		{
			name: "a word inside another is no match", text: "The climax of the story is here at the very end of the tale, told well.\nUse max to bound it.", query: "max", budget: 40,
			want: []string{"Use max to bound it."}, not: []string{"climax"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := passage(c.text, newPassageQuery(c.query, nil), c.budget)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("passage lacks %q:\n%s", w, got)
				}
			}
			for _, w := range c.not {
				if strings.Contains(got, w) {
					t.Errorf("passage holds %q:\n%s", w, got)
				}
			}
			if len(got) > c.budget+16 {
				t.Errorf("passage of %d bytes over a budget of %d:\n%s", len(got), c.budget, got)
			}
		})
	}
}

func TestPassageWeights(t *testing.T) {
	text := "Install jsonwebtoken with npm install jsonwebtoken and require jsonwebtoken.\nA numeric value is interpreted as a seconds count."
	pq := newPassageQuery("jsonwebtoken seconds", nil).forHit("jsonwebtoken", "", "", nil)
	if got := passage(text, &pq, 60); !strings.Contains(got, "seconds count") {
		t.Errorf("the package's own name outweighed the question's word: %q", got)
	}
}

// TestPassageWordForms checks that a question's word counts once in a passage whatever form it
// takes there (as typed, its identifier parts, its other forms), and only in its own forms.
func TestPassageWordForms(t *testing.T) {
	for _, c := range []struct {
		name, text, query string
		weights           map[string]float64
		budget            int
		want, not         string
	}{
		{
			// "WebSocket" matches websocket, web and socket: one word, not three.
			name: "an identifier's parts count once",
			text: "- `options.maxPayload` (Number): The maximum allowed message size\n" +
				"- `options.WebSocket` (Function): Specifies the `WebSocket` class to use\n",
			query: "how large a message will a WebSocket server accept", budget: 70,
			weights: map[string]float64{"websocket": 6, "web": 4, "socket": 5, "message": 3, "large": 6},
			want:    "maxPayload", not: "options.WebSocket",
		},
		{
			// "how large" asks for a size, "largest" for a max (synonyms.go's forms).
			name: "other forms of a word", text: "A payload may be a string.\nThe max size of each payload.\n",
			query: "what is the largest payload", budget: 35, want: "max size", not: "string",
		},
		{
			name: "a longer word is another word", text: "Origin may be an expression.\nThe express app mounts the router first.\n",
			query: "express", budget: 45, want: "express app", not: "expression",
		},
		{
			// English doubles a short vowel's consonant before -ing and -ed: "logging" is
			// "log", "mapped" is "map", but "falling" stays "fall".
			name: "a doubled consonant", text: "Tests can use the crate.\nTry_init must be called in each test in which you want logging.\n",
			query: "why does log output only appear in one test", budget: 70, want: "want logging", not: "can use",
		},
		{
			name: "the words of a URL", text: "\"http://a.io\" is allowed.\nRequests over HTTP are allowed when insecure is set.\n",
			query: "http allowed", budget: 60, want: "over HTTP", not: "a.io",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			weight := func(w string) float64 {
				if v, ok := c.weights[w]; ok {
					return v
				}
				return 1
			}
			got := passage(c.text, newPassageQuery(c.query, weight), c.budget)
			if !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
				t.Errorf("passage for %q: want %q, not %q:\n%s", c.query, c.want, c.not, got)
			}
		})
	}
}

// TestLightStemDoubled checks the stems of words whose consonant English doubled, of those that
// double it in the word itself, and of words ending in "y" after a consonant ("retry") and after
// a vowel ("array"), and that stemsTo agrees with lightStem.
func TestLightStemDoubled(t *testing.T) {
	for w, want := range map[string]string{
		"logging": "log", "logged": "log", "mapped": "map", "setting": "set", "embedded": "embed",
		"committed": "commit", "running": "run", "stopping": "stop",
		"falling": "fall", "passed": "pass", "buzzing": "buzz", "stuffed": "stuff", "adding": "adding",
		"loggings": "log", "logger": "logger", "dogs": "dogs",
		"retry": "retr", "retries": "retr", "retried": "retr", "retrying": "retr", "applying": "appl",
		"copying": "copy", "array": "array", "arrays": "array", "delayed": "delay", "deploys": "deploy",
		"deploying": "deploy", "played": "play", "class": "class", "classes": "class",
	} {
		if got := lightStem(w); got != want {
			t.Errorf("lightStem(%q) = %q, want %q", w, got, want)
		}
		if !stemsTo(strings.ToUpper(w[:1])+w[1:], want) {
			t.Errorf("stemsTo(%q, %q) = false", w, want)
		}
	}
}

// TestPassageRarity checks that a word most of a text's sentences hold (its subject) chooses
// less than one that few hold, and that a contraction's stem is no word.
func TestPassageRarity(t *testing.T) {
	text := "jwt.sign returns the token.\nSign it with a callback.\nalgorithm (default: HS256)\nSign by default.\nSign the payload again.\n"
	if got := passage(text, newPassageQuery("which algorithm does it sign with by default?", nil), 30); !strings.Contains(got, "HS256") {
		t.Errorf("the text's own subject outweighed the question's rarer word:\n%s", got)
	}
	if pq := newPassageQuery("which algorithm when I don't pick one", nil); slices.Contains(pq.stems, "don") {
		t.Errorf("\"don't\" gave the stem \"don\": %q", pq.stems)
	}
}

// TestPassageQuotedNumber checks that a number the question quotes, however short, is a word of
// it: the sentence that states the same value answers about it ("pool_size=0": sqlalchemy's
// "a pool_size setting of 0 indicates no limit"), and a number matches only itself, not the
// end of "2.0", the start of "0.5" or "10".
func TestPassageQuotedNumber(t *testing.T) {
	text := "max_overflow is the number of connections above pool_size, up to 10 more.\n" +
		"As of version 2.0 the pool is created lazily.\n" +
		"Retries wait 0.5 seconds between connections.\n" +
		"A pool_size of 0 means no limit on connections.\n"
	pq := newPassageQuery("does create_engine(pool_size=0) turn pooling off?", nil)
	if !slices.Contains(pq.stems, "0") {
		t.Fatalf("the quoted 0 is no word of the question: %q", pq.stems)
	}
	if got := passage(text, pq, 80); !strings.Contains(got, "of 0 means no limit") {
		t.Errorf("the sentence stating the quoted value lost:\n%s", got)
	}
	segs := appendSegments(nil, text)
	markMatches(text, segs, pq)
	zero := uint64(1) << slices.Index(pq.stems, "0")
	for i, s := range segs[:3] {
		if s.mask&zero != 0 {
			t.Errorf("segment %d %q matched the question's 0", i, text[s.start:s.end])
		}
	}
}

// TestPassageDefinition checks that the segment that defines a name the question writes as code
// (":param pool_size=5: …" for "create_engine(pool_size=0)") is the passage before one that
// holds the same words and only mentions the name, and that a name written as a plain word
// ("methods") takes no such preference.
func TestPassageDefinition(t *testing.T) {
	text := ":param max_overflow=10: connections opened beyond the pool_size setting of the pool.\n" +
		"Note that the dialect decides.\n" +
		":param pool_size=5: the number of connections the pool keeps open.\n"
	pq := newPassageQuery("does create_engine(pool_size=0) open a pool?", nil)
	if got := passage(text, pq, 90); !strings.HasPrefix(strings.TrimPrefix(got, "… "), ":param pool_size=5:") {
		t.Errorf("the mention of pool_size was chosen over its definition:\n%s", got)
	}
	// A plain word of the question that the hit's declaration names as a parameter is a name
	// too.
	text = "Retry waits for the countdown the caller sets.\n" +
		"Note that the worker decides.\n" +
		"- `countdown` (float, default `None`): seconds retry waits.\n"
	pq = newPassageQuery("how long does retry wait without a countdown?", nil)
	hq := pq.forHit("celery", "celery.app.task.Task.retry", "def retry(self, eta=None, countdown=None)", nil)
	if got := passage(text, &hq, 70); !strings.Contains(got, "- `countdown` (float") {
		t.Errorf("the mention of the parameter countdown was chosen over its definition:\n%s", got)
	}
	if g := pq.paramsIn("def retry(self, eta=None, countdown=None)"); g == 0 {
		t.Error("countdown=None declares no parameter of the question's words")
	}
	if g := pq.paramsIn("def wait(self) -> countdown"); g != 0 {
		t.Errorf("a return type taken for a parameter: %b", g)
	}
	for _, c := range []struct {
		seg, word string
		want      bool
	}{
		{":param pool_size=5: the number", "pool_size", true},
		{"- `countdown` (float, default `None`): seconds", "countdown", true},
		{"disable (bool, optional): Whether to disable", "disable", true},
		{"@param maxPayload The largest message", "maxPayload", true},
		{"- `options.maxPayload` (Number, default 104857600): The largest", "maxPayload", true},
		{"- see options.maxPayload for the limit", "maxPayload", false},
		{"- r.Body -> ctx.PostBody()", "Body", false},
		{"- level - the least level logged", "level", true},
		{"connections beyond the pool_size setting", "pool_size", false},
		{"- methods are listed", "methods", false},
		{"See the pool_size option.", "pool_size", false},
	} {
		at := strings.Index(c.seg, c.word)
		if got := definesAt(c.seg, 0, at, at+len(c.word)); got != c.want {
			t.Errorf("definesAt(%q, %q) = %v, want %v", c.seg, c.word, got, c.want)
		}
	}
	for _, c := range []struct {
		question, word string
		want           bool
	}{
		{"does create_engine(pool_size=0) do that?", "pool_size", true},
		{"does create_engine(pool_size=0) do that?", "create_engine", true},
		{"why does maxPayload close it", "maxPayload", true},
		{"does a WebSocket server accept it", "WebSocket", false},
		{"what does `level` default to", "level", true},
		{"what does retry() wait", "retry", true},
		{"which methods are allowed by default", "methods", false},
		{"is HTTP supported", "HTTP", false},
	} {
		if got := writtenAsCode(c.question, c.word); got != c.want {
			t.Errorf("writtenAsCode(%q, %q) = %v, want %v", c.question, c.word, got, c.want)
		}
	}
}

// TestPassagePackageWords checks that the words of the hit's package do not choose its passage
// (every part of its documentation is about them), and that a word is the package's only in
// the same form as one of the name's words.
func TestPassagePackageWords(t *testing.T) {
	// jwt.sign's section as the real corpus stores it, shortened; weights as rank.idx gives them.
	text := "When signing with RSA algorithms the minimum modulus length is 2048 except when the allowInsecureKeySizes option is set to true.\n" +
		"Private keys below this size will be rejected with an error.\n" +
		"options:\n" +
		"algorithm (default: HS256)\n" +
		"expiresIn: expressed in seconds or a string describing a time span vercel/ms.\n" +
		"mutatePayload: if true, the sign function will modify the payload object directly.\n" +
		"Generated jwts will include an iat (issued at) claim by default unless noTimestamp is specified.\n" +
		"Synchronous Sign with default (HMAC SHA256)\n" +
		"Synchronous Sign with RSA SHA256\n" +
		"Sign asynchronously\n" +
		"```js\nvar jwt = require('jsonwebtoken');\nvar token = jwt.sign({ foo: 'bar' }, 'shhhhh');\n```\n" +
		"```js\n// sign with RSA SHA256\nvar privateKey = fs.readFileSync('private.key');\n" +
		"var token = jwt.sign({ foo: 'bar' }, privateKey, { algorithm: 'RS256' });\n```\n"
	weights := map[string]float64{"algorithm": 4.9, "jsonwebtoken": 9.3, "sign": 5.8, "pick": 6.9}
	weight := func(w string) float64 {
		if v, ok := weights[w]; ok {
			return v
		}
		return 1
	}
	pq := newPassageQuery("which algorithm does jsonwebtoken sign with when I don't pick one?", weight).forHit("jsonwebtoken", "", "", nil)
	if got := passage(text, &pq, 400); !strings.Contains(got, "algorithm (default: HS256)") {
		t.Errorf("passage misses the default algorithm:\n%s", got)
	}

	pq = newPassageQuery("git commit with dotenv", nil).forHit("github.com/theskumar/python-dotenv", "", "", nil)
	for i, s := range pq.stems {
		if want := map[bool]float64{true: 0, false: 1}[s == "dotenv"]; pq.weights[i] != want {
			t.Errorf("weight of %q is %v, want %v", s, pq.weights[i], want)
		}
	}
}

// TestPassageTitleWords checks that the words of a hit's title weigh less: the reader sees them,
// and the whole text is about them.
func TestPassageTitleWords(t *testing.T) {
	text := "Class representing a WebSocket server.\n" +
		"- `options.maxPayload` (Number): The maximum allowed message size\n"
	weights := map[string]float64{"websocket": 6, "web": 4, "socket": 5, "server": 4, "message": 3, "large": 6}
	weight := func(w string) float64 {
		if v, ok := weights[w]; ok {
			return v
		}
		return 1
	}
	pq := newPassageQuery("how large a message will a WebSocket server accept", weight).forHit("", "ws.WebSocketServer", "", nil)
	if got := passage(text, &pq, 70); !strings.Contains(got, "maxPayload") {
		t.Errorf("the title's words chose the passage:\n%s", got)
	}
	for i, s := range pq.stems {
		if s == "socket" && pq.weights[i] != 2.5 {
			t.Errorf("weight of the title's part %q is %v, want 2.5 (halved once)", s, pq.weights[i])
		}
	}
}

// TestPassageExtra checks that a top hit's passage joins, after "…", the sentence elsewhere that
// holds the question's words its core lacks, and that a lower hit's does not.
func TestPassageExtra(t *testing.T) {
	text := "Subclasses of str, int, dict, and list are now serialized.\n" +
		"This is faster and more similar to the standard library, and it breaks no code that relied on the old behaviour of the serializer.\n" +
		"The default option set is empty, and options combine with a bitwise or of the flags that the module exports.\n" +
		"Users with dict objects using non-str keys should specify option=OPT_NON_STR_KEYS.\n" +
		"indent is replaced by option=OPT_INDENT_2.\n"
	q := newPassageQuery("can it serialize a dict whose keys are not strings", nil)
	got := passage(text, q, 300)
	if !strings.Contains(got, "Subclasses of str") || !strings.Contains(got, "…\nUsers with dict objects using non-str keys") {
		t.Errorf("passage lacks the core or the sentence with the other words:\n%s", got)
	}
	if len(got) > 300+16 {
		t.Errorf("passage of %d bytes over a budget of 300:\n%s", len(got), got)
	}
	if got := passage(text, q, extraPassageBytes-1); strings.Count(got, "…") > 2 {
		t.Errorf("a lower hit's passage joined a second run:\n%s", got)
	}
}

// TestPassageBudget pins the budgets of the defaults, written out: hit 1 800 bytes and whole up
// to 1,536; hits 2 and 3 280 bytes and whole up to 1,536; lower hits 400 bytes when they add
// words, else a 200-byte pointer; the floor of one sentence, 120 bytes.
func TestPassageBudget(t *testing.T) {
	for _, c := range []struct {
		perHit, rank int
		want         hitBudget
	}{
		{0, 0, hitBudget{passage: 800, whole: 1536}},
		{0, 2, hitBudget{passage: 280, whole: 1536}},
		{0, 3, hitBudget{passage: 400, pointer: 200}},
		{1000, 0, hitBudget{passage: 1000, whole: 1920}},
		{1 << 20, 0, hitBudget{passage: 4096, whole: 7864}},
		{100, 5, hitBudget{passage: 120, pointer: 200}},
	} {
		if got := passageBudget(c.perHit, c.rank); got != c.want {
			t.Errorf("passageBudget(%d, %d) = %+v, want %+v", c.perHit, c.rank, got, c.want)
		}
	}
}

func TestLightStem(t *testing.T) {
	for w, want := range map[string]string{
		"seconds": "second", "retries": "retr", "configured": "configur", "configuration": "configur",
		"body": "body", "class": "class", "limit": "limit", "expires": "expir", "max": "max",
	} {
		if got := lightStem(w); got != want {
			t.Errorf("lightStem(%q) = %q, want %q", w, got, want)
		}
	}
}

// FuzzPassage checks that any stored text (a snapshot is read as it is found) gives a passage of
// valid UTF-8 near the budget, without panicking.
func FuzzPassage(f *testing.F) {
	f.Add(jwtSign, "expiresIn seconds", 200)
	f.Add("```\nx\n", "x", 10)
	f.Add("a. B. c\n\n```go\n```\n", "b", 1)
	f.Add(strings.Repeat(jwtSign+"\n", 4), "jsonwebtoken expiresIn seconds or milliseconds", 120)
	f.Add("The default is 5.\n- item one\n- item two holds the word\n\n```\ncode word\n```\nThis is the word again.", "word default", 40)
	f.Add(":param max_overflow=10: beyond pool_size.\n:param pool_size=5: open.\n- `options.countdown` (x): y\n@param waitMs The", "create_engine(pool_size=0) `countdown` waitMs", 90)
	f.Fuzz(func(t *testing.T, text, query string, budget int) {
		if !utf8.ValidString(text) || !utf8.ValidString(query) {
			return
		}
		budget = minPassageBytes + abs(budget)%MaxPassageBytes
		got := passage(text, newPassageQuery(query, nil), budget)
		if !utf8.ValidString(got) {
			t.Errorf("invalid UTF-8: %q", got)
		}
		// The text read as a hit's declaration as well: its parameters are names of the hit.
		hq := newPassageQuery(query, nil).forHit("p", "t", text, nil)
		if got := passage(text, &hq, budget); !utf8.ValidString(got) {
			t.Errorf("invalid UTF-8 for a hit: %q", got)
		}
		if len(got) > budget+len(text)/8+64 && len(got) > len(text)+64 {
			t.Errorf("passage of %d bytes for a budget of %d", len(got), budget)
		}
		// Passages chosen one after another from one reading of the text, as a pointer hit
		// chooses its two, are those of a reading each.
		var pt passageText
		pt.init(text, newPassageQuery(query, nil))
		defer pt.release()
		for _, b := range []int{budget, minPassageBytes, 2 * budget, budget} {
			if got, want := pt.passage(b), passage(text, newPassageQuery(query, nil), b); got != want {
				t.Errorf("budget %d, one reading of the text: %q, want %q", b, got, want)
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// BenchmarkPassage measures choosing the passage of a long section (8 KiB), as every hit of
// every search does.
func BenchmarkPassage(b *testing.B) {
	text := strings.Repeat(jwtSign+"\n", 8<<10/len(jwtSign))
	pq := newPassageQuery("jsonwebtoken expiresIn seconds or milliseconds", nil)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		passage(text, pq, DefaultPassageBytes)
	}
}

// TestAnswerCues checks which questions ask for a default or a number, and that a passage of
// such a question prefers the sentence that states one.
func TestAnswerCues(t *testing.T) {
	for q, want := range map[string][2]bool{
		"what happens to requests for dotfiles by default?":               {true, false},
		"which port does gin listen on unless PORT is set":                {true, true},
		"how long will Open wait if I don't set a timeout":                {true, true},
		"what is the largest message a server will receive":               {false, true},
		"how do I register a route":                                       {false, false},
		"how many connections does the pool keep":                         {false, true},
		"what bucket boundaries does a histogram use if I don’t set any?": {true, false},
		// A setting left out asks what stands in its place.
		"which draft does validate() use if my schema has no $schema key?": {true, false},
		"which port does it listen on when I call Run with no address":     {true, true},
		"what anchor name is used when I tag a field without naming it?":   {true, false},
		"how do I read a value without bumping it to most-recently-used?":  {false, false},
		"can I get an error instead when there is no space left":           {false, false},
	} {
		d, n := answerCues(q)
		if [2]bool{d, n} != want {
			t.Errorf("answerCues(%q) = %v, %v; want %v", q, d, n, want)
		}
	}
	if got := withDefaultCue("how long will Open wait unless I change it"); got != "how long will Open wait unless I change it default" {
		t.Errorf("withDefaultCue added nothing: %q", got)
	}
	if got := withDefaultCue("the default port"); got != "the default port" {
		t.Errorf("withDefaultCue(%q) = %q", "the default port", got)
	}

	text := "What happens to requests for dotfiles depends on the dotfiles option.\n" +
		"Set how dotfiles are treated when encountered. A dotfile is a file or directory that begins with a dot.\n" +
		"'allow' No special treatment for dotfiles.\n" +
		"'deny' Deny a request for a dotfile and 403.\n" +
		"'ignore' Pretend like the dotfile does not exist and 404.\n" +
		"The default value is 'ignore'.\n"
	weights := map[string]float64{"dotfiles": 8, "files": 2, "requests": 2, "happens": 3, "default": 0.5}
	weight := func(w string) float64 {
		if v, ok := weights[w]; ok {
			return v
		}
		return 1
	}
	got := passage(text, newPassageQuery("what happens to requests for dotfiles by default?", weight), 140)
	if !strings.Contains(got, "default value is 'ignore'") {
		t.Errorf("passage of a default question misses the default:\n%s", got)
	}
	// A default written as name=value (JSDoc, Python keyword arguments) states one; an
	// assignment in code does not.
	got = passage("Provide options to say whether func is invoked on the leading edge of the wait timeout.\n"+
		"@param {boolean} [options.leading=false] Specify invoking on the leading edge.\n"+
		"```js\nvar leading=true // the leading edge\n```\n",
		newPassageQuery("is debounce called on the leading edge by default?", nil), 80)
	if !strings.Contains(got, "leading=false") {
		t.Errorf("passage of a default question misses the name=value default:\n%s", got)
	}
	weights = map[string]float64{"message": 2}
	got = passage("The server accepts text and binary frames.\nA message of more than 104857600 bytes closes its connection.\n",
		newPassageQuery("how large a message will the server accept?", weight), 64)
	if !strings.Contains(got, "104857600") {
		t.Errorf("passage of a quantity question misses the number:\n%s", got)
	}
}

// TestNamedInMatchesWords checks that namedIn, which looks for a question's stems in a title
// whose letters and digits are ASCII, finds the stems namedInWords finds by splitting the title
// into words and parts: on titles and questions made of words in every case, identifier shape
// and ending the two treat apart (camelCase, acronyms, digits, repeated parts, suffixes
// lightStem removes or keeps), and separators that are not ASCII. A title with other letters
// is namedInWords'.
func TestNamedInMatchesWords(t *testing.T) {
	pieces := []string{"web", "Web", "WEB", "socket", "Socket", "Sockets", "server", "Servers", "HTTP",
		"Server", "max", "Max", "MAX", "maxSize", "size", "Sizes", "message", "Messages", "retries",
		"Retry", "retry", "configured", "Configuration", "class", "Class", "classes", "press", "Express",
		"express", "expression", "v2", "utf8", "8", "2", "Foo", "foo", "FooFoo", "foofoo", "get", "Get",
		"target", "address", "ss", "persistent", "PersistentFlags", "flags", "Flag", "IDs", "ID", "id",
		"x", "_", "-", ".", " ", "(", ")", ", ", "func", "String", "strings", "timeout", "Timeouts",
		"seconds", "Second", "max_age", "max_size", "MAX_SIZE", "signed_value", "__init__", "_init", " › ", "—", "\xff", "…", "Ⓐ", "dial", "Dialer", "DialerRetries", "pool", "PoolSize", "poolsize", "io"}
	questions := []string{
		"how large a message will a WebSocket server accept",
		"max size of retries configured",
		"express class expression foo",
		"persistent flags get target address",
		"dialer retries pool size v2 utf8 ids",
		"timeouts in seconds for the http server",
		"max_size poolsize foofoo",
		"older than max_age signed_value",
		"__init__ _init_ init",
	}
	rng := rand.New(rand.NewPCG(14, 1))
	for _, question := range questions {
		pq := newPassageQuery(question, nil)
		for range 4000 {
			title := randomText(rng, pieces, 8)
			for _, parts := range []bool{false, true} {
				got, ok := pq.namedIn(title, parts)
				if want := pq.namedInWords(title, parts); !ok || got != want {
					t.Fatalf("question %q, title %q, parts %v: namedIn %b, %v; namedInWords %b (stems %q)",
						question, title, parts, got, ok, want, pq.stems)
				}
			}
		}
	}
	pq := newPassageQuery("größe kelvin", nil)
	for _, title := range []string{"Größe", "Max Größe", "\u212Aelvin", "Ŀ"} {
		if _, ok := pq.namedIn(title, true); ok {
			t.Errorf("namedIn took %q, whose letters are not all ASCII", title)
		}
	}
	if _, ok := pq.namedIn("README › Options — Kelvin…", true); !ok {
		t.Error("namedIn refused a title whose letters are ASCII")
	}
}

// TestMarkMatchesOnePass checks markMatches, which scans a text once and tells words' ends
// with stemsTo, against scanning it once per first letter and case of the question's stems
// and lowercasing words (markMatchesByLetter, as it was): the same segments hold the same
// words, on generated texts with camelCase, URLs, code, digits, endings and characters that
// are not ASCII.
func TestMarkMatchesOnePass(t *testing.T) {
	pieces := []string{"Web", "socket", "Sockets", "server", "HTTPServer", "max", "Max", "maxSize", "size", "message",
		"retries", "Retry", "configured", "express", "expression", "timeout", "Timeouts", "seconds", "default",
		"Größe", "größer", "ßize", "é", "Retries", "RETRIES", "retrieve", "Configuration", "SECONDS", "Messages", "largest", "sizes", "Class", "classes", "ss", "http://example.com/max/size", "www.socket.io", "`maxPayload`", "_max",
		"1", "42", "v2", " ", " ", " ", ". ", ", ", "\n", "\n```js\n", "\n```\n", "(", ")", "=", "option=max"}
	questions := []string{
		"how large a message will a WebSocket server accept",
		"max size of retries configured by default",
		"express timeout in seconds",
		"größe der nachricht",
		"how many sockets max_size default",
	}
	rng := rand.New(rand.NewPCG(14, 2))
	for _, question := range questions {
		pq := newPassageQuery(question, nil)
		for range 2000 {
			text := randomText(rng, pieces, 60)
			segs := appendSegments(nil, text)
			want := slices.Clone(segs)
			markMatches(text, segs, pq)
			markMatchesByLetter(text, want, pq)
			for i := range segs {
				segs[i].pairs = 0 // markMatchesByLetter finds words, not pairs: TestPassagePairs
			}
			if !slices.Equal(segs, want) {
				t.Fatalf("question %q, text %q:\n got %v\nwant %v", question, text, segs, want)
			}
		}
	}
}

// markMatchesByLetter is markMatches as it was before it scanned a text once: a pass with
// strings.IndexByte for each first letter and case of the stems, and words' ends told by
// wordEndsByLower.
func markMatchesByLetter(text string, segs []segment, pq *passageQuery) {
	if len(segs) == 0 {
		return
	}
	if pq.number > 0 {
		markNumbers(text, segs)
	}
	if d := slices.Index(pq.stems, "default"); d >= 0 {
		markAssignments(text, segs, d)
	}
	lo, hi := segs[0].start, segs[len(segs)-1].end
	// Most texts hold no URL: then no match is inside one.
	mayURL := strings.Contains(text, "://") || strings.Contains(text, "www.")
	// The stems by first letter, so that the text is scanned once for each letter: other
	// forms of a word often share its first letter ("max", "maximum").
	var firsts []byte
	byFirst := map[byte][]int{}
	for w, stem := range pq.stems {
		if _, ok := byFirst[stem[0]]; !ok {
			firsts = append(firsts, stem[0])
		}
		byFirst[stem[0]] = append(byFirst[stem[0]], w)
	}
	for _, first := range firsts {
		stems := byFirst[first]
		cases := [2]byte{first, first}
		if 'a' <= first && first <= 'z' {
			cases[1] = first - 'a' + 'A'
		}
		for k, c := range cases {
			if k == 1 && c == cases[0] {
				break
			}
			seg := 0
			for i := lo; i < hi; {
				j := strings.IndexByte(text[i:hi], c)
				if j < 0 {
					break
				}
				i += j
				at := i
				i++
				if at > 0 {
					prev := text[at-1]
					if isWordByte(prev) && !(c >= 'A' && c <= 'Z' && 'a' <= prev && prev <= 'z') {
						continue
					}
				}
				url := -1 // whether at is inside a URL, found when a stem matches
				for _, w := range stems {
					stem := pq.stems[w]
					if at+len(stem) > hi {
						continue
					}
					if first >= utf8.RuneSelf {
						if !strings.EqualFold(text[at:at+len(stem)], stem) {
							continue
						}
					} else if !equalFoldASCII(text[at+1:at+len(stem)], stem[1:]) {
						continue
					}
					if !wordEndsByLower(pq, text, at, at+len(stem), w) {
						continue
					}
					if url < 0 {
						url = 0
						if mayURL && inURL(text, at) {
							url = 1
						}
					}
					if url == 1 {
						break
					}
					for seg < len(segs) && segs[seg].end <= at {
						seg++
					}
					if seg < len(segs) && segs[seg].start <= at {
						segs[seg].mask |= 1 << w
					}
				}
			}
		}
	}
}

// wordEndsByLower is wordEnds as it was before stemsTo: the word lowercased and stemmed.
func wordEndsByLower(pq *passageQuery, text string, at, end, w int) bool {
	j := end
	for j < len(text) && 'a' <= text[j] && text[j] <= 'z' {
		j++
	}
	if j == end {
		return true
	}
	tail := text[end:j]
	switch tail {
	case "er", "ers", "est":
		return true
	}
	if lightStem(strings.ToLower(text[at:j])) == pq.stems[w] {
		return true
	}
	for _, s := range pq.stems {
		if strings.HasPrefix(tail, s) {
			return true
		}
	}
	return false
}

// TestForHit checks that forHit weighs a question's words as forPackage and then forTitle of
// the title and section joined do (two copies of the query, as passages were chosen before
// forHit), on generated titles and sections, some with letters that are not ASCII.
func TestForHit(t *testing.T) {
	words := []string{"web", "Socket", "ws", "server", "Größe", "max", "maxSize", "pool", "PoolSize", "redis", "go-redis",
		"options", "Options", "timeout", " › ", ".", "_", "(", " ", "é", "retries"}
	gen := func(rng *rand.Rand, n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[rng.IntN(len(words))])
		}
		return b.String()
	}
	rng := rand.New(rand.NewPCG(14, 4))
	for _, question := range []string{"how large a message will a WebSocket server accept", "redis pool size max retries", "größe timeout options"} {
		pq := newPassageQuery(question, func(w string) float64 { return float64(len(w)) })
		for range 2000 {
			pkg, title, section := gen(rng, rng.IntN(3)), gen(rng, 1+rng.IntN(4)), gen(rng, rng.IntN(8))
			want := pq.forPackage(pkg).forTitle(title + " " + section)
			got := pq.forHit(pkg, title, section, nil)
			if !slices.Equal(got.weights, want.weights) {
				t.Fatalf("question %q, package %q, title %q, section %q:\n got %v\nwant %v", question, pkg, title, section, got.weights, want.weights)
			}
		}
	}
}

// randomText joins 1 to most pieces drawn at random.
func randomText(rng *rand.Rand, pieces []string, most int) string {
	var b strings.Builder
	for range 1 + rng.IntN(most) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

// forPackage returns pq without the words of the package name pkg (weighing 0): the hit is in
// that package, so every part of its documentation is about them, and a passage that names the
// package ("require('jsonwebtoken')") is no more likely to answer. A word is the package's when
// it is one of the name's words in the same form: "dotenv" of python-dotenv, not "git" of
// github.com/….
func (pq *passageQuery) forPackage(pkg string) *passageQuery {
	held := pq.packageWords(pkg)
	if held == 0 {
		return pq
	}
	out := pq.withWeights()
	for b := held; b != 0; b &= b - 1 {
		out.weights[bitIndex(b)] = 0
	}
	return out
}

// withWeights returns a copy of pq with its own weights, for forPackage and forTitle to change.
func (pq *passageQuery) withWeights() *passageQuery {
	cp := *pq
	cp.weights = append([]float64(nil), pq.weights...)
	return &cp
}

// forTitle returns pq with the words of title (a hit's title and heading path), and their
// identifier parts, weighing titleWeight of their weight.
func (pq *passageQuery) forTitle(title string) *passageQuery {
	held, ok := pq.namedIn(title, true)
	if !ok {
		held = pq.namedInWords(title, true)
	}
	if held == 0 {
		return pq
	}
	out := pq.withWeights()
	for b := held; b != 0; b &= b - 1 {
		out.weights[bitIndex(b)] *= titleWeight
	}
	return out
}

// TestPassageWholeSentence checks that a passage does not cut a sentence that is longer than its
// budget but shorter than twice it, and that a sentence's period after an abbreviation ends no
// sentence.
func TestPassageWholeSentence(t *testing.T) {
	text := "Options of the pool.\nThe maximum number of connections that may be associated with a pool at a given time. This includes in use and available connections.\nOther text."
	got := passage(text, newPassageQuery("maximum connections pool", nil), pointerPassageBytes)
	if !strings.Contains(got, "This includes in use and available connections.") {
		t.Errorf("the sentence was cut:\n%s", got)
	}
	line := "Pass a duration, e.g. `5s` or `1m`, to set the timeout for every request that the client makes to the server when the caller gives none of its own, i.e. The default."
	if segs := appendSegments(nil, line); len(segs) != 1 {
		t.Errorf("a line split after an abbreviation into %d segments", len(segs))
	}
}

// TestPassageContinues checks that a passage takes what completes its last segment beyond its
// budget: the rest of a code block, the example a sentence ending in ":" introduces, a "For
// example" sentence; and not another sentence; and that it takes the code block before it
// whole or not at all.
func TestPassageContinues(t *testing.T) {
	for _, c := range []struct {
		name, text, query string
		budget            int
		want, not         string
	}{
		{
			name:  "the rest of a code block",
			text:  "Filler about other things entirely.\nSet the timeout when you open the client\n```js\nconst c = open({\n  timeout: 5000,\n})\n```\nMore filler text here.",
			query: "timeout open client", budget: 80, want: "})\n```", not: "More filler",
		},
		{
			name:  "an example after a colon",
			text:  "Filler about other things entirely.\nThe retry count bounds attempts, like so:\n```\nretries: 3\n```\nMore filler text here.",
			query: "retry count bounds attempts", budget: 45, want: "retries: 3", not: "More filler",
		},
		{
			name:  "a For example sentence",
			text:  "Filler about other things entirely.\nSet retries to bound the attempts made.\nFor example, 3.\nMore filler text here.",
			query: "retries bound attempts", budget: 45, want: "For example, 3.", not: "More filler",
		},
		{
			name:  "the end of a code block before is left out",
			text:  "Intro.\n```js\nconst a = x;\nconst b = y;\nconst c = z;\n```\nThe retry count bounds the attempts made by the client.\n",
			query: "retry count attempts", budget: 75, want: "The retry count", not: "const c",
		},
		{
			name:  "a code block before is taken whole",
			text:  "Intro.\n```js\nconst a = x;\nconst b = y;\nconst c = z;\n```\nThe retry count bounds the attempts made by the client.\n",
			query: "retry count attempts", budget: 120, want: "```js\nconst a = x;\nconst b = y;\nconst c = z;\n```\nThe retry count",
		},
		{
			name:  "not another sentence",
			text:  "Filler about other things entirely.\nSet retries to bound the attempts made.\nOther text, 3.\nMore filler text here.",
			query: "retries bound attempts", budget: 45, not: "Other text",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := passage(c.text, newPassageQuery(c.query, nil), c.budget)
			if !strings.Contains(got, c.want) || c.not != "" && strings.Contains(got, c.not) {
				t.Errorf("want %q, not %q:\n%s", c.want, c.not, got)
			}
		})
	}
}

// TestPassagesByRank checks the budgets of a page of hits: hit 1 shows a short text whole,
// a hit below the first topPassageHits is a pointer of one sentence unless its passage holds a
// word of the question the passages above lack, whatever order the passages are asked in.
func TestPassagesByRank(t *testing.T) {
	pool := "The pool hands out connections to every caller that asks for one of them, first the idle ones and then new ones.\n" +
		"The pool grows on demand when all of its connections are in use by callers, up to the limit its options set for it.\n" +
		"The pool shrinks again when its connections stay idle for longer than a minute, down to the least number it keeps.\n"
	short := strings.Repeat("The pool size bounds the connections a client keeps open to each host it talks to.\n", 12)
	texts := []string{
		short, // hit 1: about 1 KB, over its passage budget but short: whole
		pool,
		pool,
		pool, // a pointer: "pool" is in the passages above
		pool + "The default size of the pool is ten connections per host, unless PoolSize says otherwise.\n", // "default" is new
	}
	if len(short) <= DefaultPassageBytes || len(short) > passageBudget(0, 0).whole {
		t.Fatalf("hit 1's text is %d bytes: the test needs one between the budget and the whole limit", len(short))
	}
	newPassages := func() *passages {
		ps := &passages{pq: newPassageQuery("what is the default pool size", nil)}
		for _, text := range texts {
			ps.hits = append(ps.hits, deferredPassage{text: text})
		}
		return ps
	}
	ps := newPassages()
	if got := ps.at(0); strings.Contains(got, "…") || strings.Count(got, "\n") != 11 {
		t.Errorf("hit 1, a short text, not whole:\n%s", got)
	}
	if got := ps.at(3); strings.Count(got, "\n") != 0 {
		t.Errorf("hit 4 adds no word and is not a pointer of one sentence:\n%s", got)
	}
	if got := ps.at(4); !strings.Contains(got, "default size") || strings.Count(got, "\n") == 0 {
		t.Errorf("hit 5 adds \"default\" and has no passage of its own:\n%s", got)
	}
	// Asked in another order, the passages are the same.
	back := newPassages()
	for i := len(texts) - 1; i >= 0; i-- {
		if got, want := back.at(i), ps.at(i); got != want {
			t.Errorf("hit %d asked last to first:\n%s\nwant\n%s", i+1, got, want)
		}
	}
	// A hit its caller leaves out (Passages.Skip) gives its place to the hits after it: hit 4,
	// a pointer in fourth place, is third and shows a passage of its own.
	skipped := newPassages()
	(&Passages{p: skipped}).Skip(1)
	if got := skipped.at(3); strings.Count(got, "\n") == 0 {
		t.Errorf("hit 4 after a skipped hit 2 is still a pointer:\n%s", got)
	}
}

// TestPassagePairs checks that two consecutive words of the question side by side in a sentence
// ("inline styles", "CSS classes", "inlineStyle") choose it over a sentence that holds as many
// of the question's words apart, and that words with anything but a separator between them, or
// in the other order, or both of the title, make no pair.
func TestPassagePairs(t *testing.T) {
	pq := newPassageQuery("inline style instead", nil)
	text := "Inline, the style is set instead.\n" +
		"The formatter then uses inline styles instead, always.\n"
	if got := passage(text, pq, 40); !strings.Contains(got, "inline styles") {
		t.Errorf("passage shows %q, not the sentence with the question's pairs", got)
	}
	pq = newPassageQuery("emit inline style attributes instead of CSS class names", nil)
	for _, c := range []struct {
		text string
		want uint64
	}{
		{"inline styles", 1 << 1},
		{"inlineStyle", 1 << 1},
		{"inline-style", 1 << 1},
		{"inline, style", 0},
		{"inline the style", 0},
		{"style inline", 0},
		{"CSS class names", 1<<5 | 1<<6},
	} {
		segs := appendSegments(nil, c.text)
		markMatches(c.text, segs, pq)
		if segs[0].pairs != c.want {
			t.Errorf("%q: pairs %b, want %b (groups of %q: %v)", c.text, segs[0].pairs, c.want, pq.stems, pq.group)
		}
	}
	titled := pq.forHit("", "InlineStyle", "", nil)
	if got := titled.pairScore(1 << 1); got != 0 {
		t.Errorf("a pair of the title's words scores %v, want 0", got)
	}
	if got := titled.pairScore(1 << 5); got == 0 {
		t.Error("a pair of words not in the title scores 0")
	}
}

// TestPassagePointsBack checks that a passage whose best sentence points back ("This depth …")
// begins with the sentence it points to, before it grows with the ones after.
func TestPassagePointsBack(t *testing.T) {
	text := "By default, qs parses objects up to 5 children deep.\n" +
		"This depth can be overridden with the depth option.\n" +
		"Depth 0 turns off nesting.\n"
	pq := newPassageQuery("can this depth be overridden", nil)
	if got := passage(text, pq, 110); !strings.HasPrefix(got, "By default") {
		t.Errorf("passage %q does not begin with the sentence \"This\" names", got)
	}
	for s, want := range map[string]bool{"This means": true, "It defaults to 3.": true, "> However, no.": true,
		"Thistle grows.": false, "Setting it": false, "": false} {
		if pointsBack(s) != want {
			t.Errorf("pointsBack(%q) = %v", s, !want)
		}
	}
}

// TestPassageIndentedTerm checks that a code line indented under the line before it in its
// block (an option's description under the option, as Go doc comments list query parameters)
// comes with that line, as the core of a passage and as its extra run, and that an unindented
// line does not pull in its neighbour.
func TestPassageIndentedTerm(t *testing.T) {
	block := "```\n_loc=XXX\n  Specify location of time format.\n_mutex=XXX\n  Specify mutex mode.\n" +
		"_foreign_keys=Boolean | _fk=Boolean\n  Enable or disable enforcement of foreign keys.\n" +
		"_ignore_check_constraints=Boolean\n  Enable or disable enforcement of CHECK constraints.\n```\n"
	const want = "_foreign_keys=Boolean | _fk=Boolean\n  Enable or disable enforcement of foreign keys."
	pq := newPassageQuery("enforcement of foreign keys", nil)
	if got := passage(block, pq, 60); !strings.Contains(got, want) {
		t.Errorf("core: passage %q lacks the option its description is indented under", got)
	}
	text := "A DSN turns on its options with query parameters after a question mark, which the driver adds to those SQLite uses.\n" +
		"Many more things are said here to fill the space between the two so that they are not one window of the passage.\n" +
		"And some more words that say nothing of interest to anyone who reads them, filling the text further still.\n" + block
	pq = newPassageQuery("which DSN query parameter turns on enforcement of foreign keys", nil)
	if got := passage(text, pq, 320); !strings.Contains(got, want) {
		t.Errorf("extra run: passage %q lacks the option its description is indented under", got)
	}
	pq = newPassageQuery("mutex mode", nil)
	if got := passage("```\nmutex := x\nmode := y\n```\n", pq, 20); strings.Contains(got, "mutex := x\nmode") {
		t.Errorf("passage %q took a line the next is not indented under", got)
	}
}

// TestPassageBlockLeadIn checks that a passage whose core is inside a code block, past its
// first line, begins with the block and the paragraph that leads into it (glog's flags), rather
// than growing past the block's end.
func TestPassageBlockLeadIn(t *testing.T) {
	text := "Log output is buffered and written periodically using Flush.\n" +
		"By default, all log statements write to files in a temporary directory. This package provides several flags that modify this behavior.\n" +
		"```\n\t-logtostderr=false\n\t\tLogs are written to standard error instead of to files.\n" +
		"\t-log_dir=\"\"\n\t\tLog files will be written to this directory instead of the\n\t\tdefault temporary directory.\n```\n" +
		"Other flags provide aids to debugging.\n" +
		"```\n\t-v=0\n\t\tEnable V-leveled logging at the specified level.\n\t-vmodule=\"\"\n\t\tThe syntax of the argument is a comma-separated list.\n```\n"
	pq := newPassageQuery("where do log files go by default directory", nil)
	got := passage(text, pq, 330)
	if !strings.Contains(got, "By default, all log statements write to files in a temporary directory.") || !strings.Contains(got, "-logtostderr=false") {
		t.Errorf("passage %q lacks the block's start or its lead-in", got)
	}
}

// TestPassageDecimals checks that a decimal number the question quotes chooses the passage
// that states it (numpy.round's "2.5 round to 2.0"), and not one of a longer number.
func TestPassageDecimals(t *testing.T) {
	text := "Evenly round to the given number of decimals.\n" +
		"Number of decimal places to round to (default: 0). If decimals is negative, it counts to the left.\n" +
		"An array of the same type, containing the rounded values.\n" +
		"For values exactly halfway between rounded decimal values, NumPy rounds to the nearest even value. Thus 1.5 and 2.5 round to 2.0.\n" +
		"A fast but sometimes inexact algorithm rounds floating-point values.\n"
	pq := newPassageQuery("why does np.round(2.5) give 2.0 instead of 3.0?", nil)
	if got := passage(text, pq, 140); !strings.Contains(got, "2.5 round to 2.0") {
		t.Errorf("passage %q lacks the sentence with the question's numbers", got)
	}
	for in, want := range map[string][]string{
		"round(2.5) gives 2.0":                   {"2.5", "2.0"},
		"semver v1.2.3, not 1.2.3.4.5.6 or x2.5": {"1.2.3"},
		"version 4 of it":                        nil,
	} {
		if got := decimals(in); !slices.Equal(got, want) {
			t.Errorf("decimals(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPassageWordyCode checks that the prose lines of a preformatted block (a Go doc comment's
// list of verbs and what each prints) count in full, as prose does, while code lines count at
// codeShare: pkg/errors' "%+v extended format. Each Frame of the error's StackTrace will be
// printed in detail" answers how to print the stack trace.
func TestPassageWordyCode(t *testing.T) {
	for line, want := range map[string]bool{
		"    %+v   extended format. Each Frame of the error's StackTrace will":   true,
		"\tDisablePointerAddresses specifies whether to disable the printing of": true,
		"\tx := errors.New(\"whoops\")":                                          false,
		"\t-log_backtrace_at=gopherflakes.go:234":                                false,
		"\tfmt.Printf(\"%+v\", err)":                                             false,
		"\tshort line here":                                                      false,
	} {
		if got := wordyLine(line); got != want {
			t.Errorf("wordyLine(%q) = %v", line, got)
		}
	}
	text := "The returned error can be printed.\n" +
		"```\n    printStackTrace(capturedError)\n```\n" +
		"Formatted printing of errors is supported:\n" +
		"```\n    %s    print the error.\n    %+v   extended format. Each Frame of the error's stack trace will\n          be printed in detail, with the trace captured.\n```\n"
	pq := newPassageQuery("how do I print the stack trace captured by an error", nil)
	if got := passage(text, pq, 150); !strings.Contains(got, "extended format") {
		t.Errorf("passage %q: the prose lines of the verb list lost to the example's code", got)
	}
}

// TestPassageListLeadIn checks that a passage whose best segment is a list's first item begins
// with the lead-in the item completes ("… it will return False if" / "- tp is a TypeVar bound"),
// even past its budget, but not with a whole sentence that only announces the list.
func TestPassageListLeadIn(t *testing.T) {
	text := storeDoc("Test if the type is optional.\n\nSo it will return `False` if\n - `tp` is a `TypeVar` bound to an optional type\n - `tp` is a nested `Union`\n", 1<<10)
	pq := newPassageQuery("typevar bound optional", nil)
	if got := passage(text, pq, 60); !strings.Contains(got, "return `False` if\n- `tp` is a `TypeVar` bound") {
		t.Errorf("passage %q lacks the lead-in of its list item", got)
	}
	text = storeDoc("Build one of these:\n\n- `vector` starts a vector at the root\n- `map` starts a map\n", 1<<10)
	pq = newPassageQuery("vector root", nil)
	if got := passage(text, pq, 40); strings.Contains(got, "Build one") {
		t.Errorf("passage %q took a whole sentence's lead-in past its budget", got)
	}
}

// TestPassageListItemWhole checks that a passage whose core ends inside a list item ends with
// the item, and that the rest of a plain paragraph does not join it so.
func TestPassageListItemWhole(t *testing.T) {
	filler := strings.Repeat("Filler about other things entirely, said at length. ", 6)
	text := storeDoc(filler+"\n\n- `serde`: Adds serde implementations for the map and for the set that wraps it, behind its own feature flag. The sequence form, which keeps the order of its entries, is in the serde_seq module.\n- `rayon`: Adds parallel iteration.\n\n"+filler+"\n", 1<<10)
	pq := newPassageQuery("serde implementations map", nil)
	if got := passage(text, pq, 120); !strings.Contains(got, "serde_seq module.") || strings.Contains(got, "rayon") {
		t.Errorf("passage %q lacks the rest of its list item, or holds the next one", got)
	}
	text = storeDoc(filler+"\n\nAdds serde implementations for the map and for the set that wraps it, behind its own feature flag. Other text in the same paragraph follows, which says more of what the crate holds.\n\n"+filler+"\n", 1<<10)
	if got := passage(text, pq, 120); strings.Contains(got, "Other text") {
		t.Errorf("passage %q took the rest of a paragraph past its budget", got)
	}
}

// TestPassageListItemFromStart checks that a passage whose core begins inside a list item, after
// its first sentence, begins with the item (a README's item of several paragraphs is one line of
// its stored text, see storeSection), and that one inside a plain paragraph does not begin so past its budget.
func TestPassageListItemFromStart(t *testing.T) {
	filler := strings.Repeat("Filler about other things entirely, said at length. ", 6)
	item := "- The source method returns whichever field has a source attribute or is named source. This is for finding the lower level error. The from attribute always implies that the same field is a source, so you never need both attributes."
	text := filler + "\n" + item + "\n- Another item about something else.\n" + filler
	pq := newPassageQuery("from attribute implies same field source both", nil)
	if got := passage(text, pq, 120); !strings.Contains(got, "- The source method returns whichever field") {
		t.Errorf("passage %q does not begin with its list item", got)
	}
	text = filler + "\n" + strings.TrimPrefix(item, "- ") + "\n" + filler
	if got := passage(text, pq, 120); strings.Contains(got, "The source method returns") {
		t.Errorf("passage %q took the start of a paragraph past its budget", got)
	}
}

// TestPassageOwnNameInCode checks that the words of a hit's own name do not choose a passage
// from its example code: rustdoc's examples (and doctests anywhere) call the item they
// document, so the name there says nothing of which lines answer.
func TestPassageOwnNameInCode(t *testing.T) {
	text := "Deserialize an instance of `T` from an I/O stream of JSON.\n" +
		"When reading from a `File`, apply your own buffering: the stream is read unbuffered.\n" +
		"# Examples\n" +
		"```rust\nlet f = File::open(path)?;\nlet u = serde_json::from_reader(f)?;\n```\n"
	weights := map[string]float64{"from_reader": 12, "buffer": 3, "file": 1}
	weight := func(w string) float64 {
		if v, ok := weights[w]; ok {
			return v
		}
		return 0.5
	}
	pq := newPassageQuery("is serde_json::from_reader buffering my File", weight).forHit("serde_json", "serde_json::from_reader", "", nil)
	got := passage(text, &pq, minPassageBytes)
	if !strings.Contains(got, "apply your own buffering") {
		t.Errorf("the symbol's own name in its example chose the passage:\n%s", got)
	}
}

// TestForHitSnakeCase checks that a snake_case word of the question, as Rust and Python name
// crates and functions, is a word of the package name and of the title it spells whole:
// "serde_json" of serde_json weighs nothing, "from_reader" of serde_json::from_reader half.
func TestForHitSnakeCase(t *testing.T) {
	pq := newPassageQuery("is serde_json::from_reader buffered", nil)
	for _, name := range []string{"serde_json::from_reader", "serde_json::from_reader ›  Ünïcode"} {
		got := pq.forHit("serde_json", name, "", nil)
		for i, s := range got.stems {
			want := map[string]float64{"serde_json": 0, "from_reader": titleWeight}[s]
			if s != "serde_json" && s != "from_reader" {
				continue
			}
			if got.weights[i] != want {
				t.Errorf("title %q: weight of %q is %v, want %v", name, s, got.weights[i], want)
			}
		}
	}
}

// TestPassageChoice checks how a passage is chosen where its rules part ways, one case a rule:
// each passage holds the sentences it names and none of those it must leave out.
func TestPassageChoice(t *testing.T) {
	filler := "It is expected that the input ends after the object it holds.\n" +
		"The stream is not closed when the call returns to its caller.\n" +
		"Errors carry the line and the column where the reader stopped.\n" +
		"A trailing comma or a comment in the input is an error here.\n" +
		"Strings are checked to be valid UTF-8 as they are read in.\n" +
		"Maps with keys that are not strings are refused with an error.\n"
	for _, c := range []struct {
		rule, text, question string
		weights              map[string]float64 // by stem; nil: every word weighs 1
		budget               int
		want, not            []string
	}{{
		rule: "a passage grows within its core's section before it crosses a heading: the sentences above a rustdoc \"# Examples\" before the example below it",
		text: "The stream is read directly, without any buffering.\n" +
			"It is expected that the input ends after the object.\n" +
			"Note that this function is usually slower than reading the whole file first.\n" +
			"# Examples\n" +
			"```rust\nlet f = File::open(path)?;\nlet v = read(f)?;\n```\n",
		question: "why is reading a file so slow", budget: 200,
		want: []string{"without any buffering"}, not: []string{"# Examples"},
	}, {
		rule: "an example's code lines count less than prose for the question's words: the sentence that says the reader does not buffer, not the example that opens a file \"with a buffer\"",
		text: "You will want to apply your own buffering, because the reader does not buffer its input.\n" +
			"It is expected that the input ends after the object, or the call never returns.\n" +
			"Deserializing from a prefix of the input is possible with your own Deserializer.\n" +
			"```rust\n// a reader over the file with a buffer\nlet r = BufReader::new(File::open(path)?);\n```\n",
		question: "is the file reader buffering for me", budget: 120,
		want: []string{"apply your own buffering"},
	}, {
		rule: "code lines count in full for a question that asks for a default: the default configuration's literals",
		text: "methods: configures the allowed methods, a comma-delimited string or an array.\n" +
			"The headers option is reflected from the request when it is not given.\n" +
			"Credentials are not sent unless the option is set.\n" +
			"```json\n{\n  \"methods\": \"GET,HEAD,PUT\",\n  \"default\": true\n}\n```\n",
		question: "which methods are allowed by default", budget: 120,
		want: []string{"GET,HEAD,PUT"},
	}, {
		rule: "a name=value states a default, as JSDoc's [options.leading=false] does, but not a query string's key=value: qs's bracket syntax is no default",
		text: "Nested keys are written in brackets, as in the string 'a[b][c]=d'.\n" +
			"It is expected that the input ends after the object it holds.\n" +
			"Only 5 levels are parsed, the rest is kept as one key.\n",
		question: "how many levels of nested keys does it parse by default", budget: 120,
		want: []string{"Only 5 levels"}, not: []string{"a[b][c]=d"},
	}, {
		rule: "a sentence joins the core as its extra run only with two of the question's words: one rare adjective (\"too big\") is no answer",
		text: "Note that this function is usually slower than reading the whole file into memory first.\n" +
			filler + "The call fails when a number is too big to fit.\n" +
			filler + "The input is read directly, so wrap a file in your own buffering reader.\n",
		question: "parsing a big file is slow, is it buffering",
		weights:  map[string]float64{"big": 9, "slow": 8, "buffer": 4, "file": 2}, budget: 300,
		want: []string{"own buffering reader"}, not: []string{"too big"},
	}, {
		rule: "a core does not span a heading: the words of an example under \"# Examples\" do not join the sentence above it into one window",
		text: "Tokens are read as they arrive.\n" +
			"It is expected that the input ends after the object, or the call never returns.\n" +
			"Note that this function is usually slower than reading a file first.\n" +
			"# Examples\n" +
			"```rust\nlet v = from(buffered(f))?;\n```\n",
		question: "is reading a file slow, is it buffered", budget: 200,
		want: []string{"It is expected"}, not: []string{"# Examples"},
	}, {
		rule: "the sentence just before the core joins it before those after it when it holds more of the question's words: a passage grows forward first and would fill its budget",
		text: "The source method of the generated implementation returns whichever field of the struct or of the variant has the attribute on it, or failing that the field that carries the name source, if there is any such field at all in the type that derives it.\n" +
			"The from attribute always implies that the same field is the source as well, so you never need to write both of the attributes on one field of a variant or struct.\n" +
			"Any error type that implements the standard error trait, or that dereferences to a boxed error trait object, will work as a source here as well as anywhere else.\n" +
			"Errors may be enums, structs with named fields, tuple structs or unit structs, and each of them may carry a message that the display implementation uses.\n" +
			"A display implementation is generated for your error when you give a message on the struct or on each variant of the enum, as the example above shows.\n" +
			"The messages support a shorthand for interpolating fields of the error, which may be used together with any additional format arguments.\n",
		question: "do I need the attribute on the source field or is the name enough",
		weights:  map[string]float64{"need": 6, "name": 3, "attribute": 1, "source": 1, "field": 1}, budget: 800,
		want: []string{"carries the name source"},
	}, {
		rule: "a passage does not grow into a headed section that holds none of the question's words: tokio's max_blocking_threads shows its default and the upgrade note that names it, not \"# Panics\" between them",
		text: "Specifies the limit for additional threads spawned by the runtime.\n" +
			"The default value is 512.\n" +
			"# Panics\n" +
			"This will panic if the value given is not larger than zero.\n" +
			"# Upgrading\n" +
			"In old versions the limit covered worker threads too, but the blocking limit does not.\n",
		question: "what is the default blocking threads limit", budget: 2000,
		want: []string{"The default value is 512.", "In old versions"}, not: []string{"# Panics", "will panic"},
	}} {
		var weight func(string) float64
		if c.weights != nil {
			weight = func(w string) float64 { return c.weights[lightStem(w)] }
		}
		got := passage(c.text, newPassageQuery(c.question, weight), c.budget)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the passage lacks %q:\n%s", c.rule, w, got)
			}
		}
		for _, n := range c.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: the passage holds %q:\n%s", c.rule, n, got)
			}
		}
	}
}

// TestMarkNumbersVersions checks that a version or address of three dotted parts is not a
// number a question asks for, and that a plain number, a decimal and a size are.
func TestMarkNumbersVersions(t *testing.T) {
	for text, want := range map[string]bool{
		"Since v6.14.1 and 6.15.2, parse reads brackets alike.": false,
		"It listens on 127.0.0.1 only.":                         false,
		"It parses up to 5 children deep.":                      true,
		"The ratio is 1.5 by default.":                          true,
		"Since 6.15.1 it stops at 1000 parameters.":             true,
	} {
		segs := appendSegments(nil, text)
		markNumbers(text, segs)
		if got := segs[0].mask&(1<<numberBit) != 0; got != want {
			t.Errorf("%q: number %v, want %v", text, got, want)
		}
	}
}
