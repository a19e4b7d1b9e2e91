# secrets: issue 25 points 1 and 2. No credential from a registry URL or token (or from a Swift
# repository URL or a requirements.txt line given to crawl) reaches stdout,
# stderr (at debug level) or any file of the index, whatever the URL's shape and wherever it is
# configured (flag, environment variable, configuration file), in all five ecosystems; and after a
# redirect to another port no credential is sent, while a redirect within the registry's own
# origin keeps its credentials. Sourced by scripts/faults.sh, whose helpers it uses.

SECRET=s3cretXYZ

# The fake registries: "notfound" answers 404 to everything; "home AWAY" redirects every request
# to itself under /hop/, answers 401 there to a request without Authorization and redirects the
# others to the same path on port AWAY; "away" answers 404. Each appends one line per request to
# its log: the path, a tab, the request's headers as JSON.
cat >"$W/secrets_registry.py" <<'PY'
import http.server, json, sys

mode, port, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]
away = sys.argv[4] if len(sys.argv) > 4 else ""

class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        with open(log, "a") as f:
            f.write("%s\t%s\n" % (self.path, json.dumps(dict(self.headers.items()))))
        if mode == "home" and not self.path.startswith("/hop/"):
            return self.redirect("http://127.0.0.1:%d/hop%s" % (port, self.path))
        if mode == "home" and not self.headers.get("Authorization"):
            self.send_response(401); self.send_header("Content-Length", "0"); self.end_headers(); return
        if mode == "home":
            return self.redirect("http://127.0.0.1:%s%s" % (away, self.path[len("/hop"):]))
        self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers()
    def redirect(self, to):
        self.send_response(302); self.send_header("Location", to); self.send_header("Content-Length", "0"); self.end_headers()

http.server.ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
PY

# secrets_server MODE LOG [AWAY]: starts a fake registry and sets PORT to its port.
secrets_server() {
	PORT=$(rpc port)
	python3 "$W/secrets_registry.py" "$1" "$PORT" "$2" "${3:-}" >/dev/null 2>&1 &
	BG_PIDS+=("$!")
	wait_port "$PORT"
}

# secrets_setup NAME: a fresh run directory (home, project, index) in SD.
secrets_setup() {
	SD=$W/secrets/$(printf '%s' "$1" | tr -c 'A-Za-z0-9_.-' _)
	rm -rf "$SD"
	mkdir -p "$SD/home/.config/go/telemetry" "$SD/proj"
	echo off >"$SD/home/.config/go/telemetry/mode" # go env (run for GOPROXY) writes no counters
}

# secrets_crawl VAR=VALUE... -- ARG...: the crawl command of a try, as a user with a home of SD's
# runs it in SD's project, with a clean environment.
secrets_crawl() {
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	SECRETS_CMD=(env -i -C "$SD/proj" PATH="$PATH" HOME="$SD/home" XDG_CONFIG_HOME="$SD/home/.config"
		DOCIDX_INDEX="$SD/index" DOCIDX_LOG_LEVEL=debug NPM_CONFIG_USERCONFIG="$SD/home/.npmrc"
		PIP_CONFIG_FILE="$SD/home/pip.conf" CARGO_HOME="$SD/home/.cargo" "${envs[@]}" "$BIN" crawl "$@")
}

# check_no_secret: the secret is in none of the try's stdout, stderr and index files.
check_no_secret() {
	local f
	for f in "$1.out" "$1.err"; do
		if grep -q "$SECRET" "$f"; then
			echo "wrong: ${f##*.} prints it: $(grep -m1 "$SECRET" "$f" | cut -c1-150)"
			return
		fi
	done
	if f=$(grep -rl "$SECRET" "$SD/index" 2>/dev/null | head -n1) && [ -n "$f" ]; then
		echo "wrong: written to ${f#"$SD"/}"
		return
	fi
	echo ok
}

cargo_mirror() { printf '[source.crates-io]\nreplace-with = "mirror"\n\n[registries.mirror]\nindex = "%s"\n' "$1"; }
swift_registries() { printf '{"version": 1, "registries": {"[default]": {"url": "%s"}}}\n' "$1"; }

# secrets_source SOURCE URL: sets up SD and SECRETS_CMD for a crawl whose registry URL is URL,
# configured through SOURCE.
secrets_source() {
	case $1 in
	go-flag) secrets_crawl GOPROXY=off -- --goproxy "$2" go:example.com/x@v1.0.0 ;;
	go-env) secrets_crawl GOPROXY="$2" -- go:example.com/x@v1.0.0 ;;
	go-env-file) mkdir -p "$SD/home/.config/go" && echo "GOPROXY=$2" >"$SD/home/.config/go/env" && secrets_crawl -- go:example.com/x@v1.0.0 ;;
	npm-flag) secrets_crawl -- --npm-registry "$2" npm:leftpad@1.0.0 ;;
	npm-env) secrets_crawl npm_config_registry="$2" -- npm:leftpad@1.0.0 ;;
	npmrc-registry) echo "registry=$2" >"$SD/proj/.npmrc" && secrets_crawl -- npm:leftpad@1.0.0 ;;
	npmrc-scope) echo "@acme:registry=$2" >"$SD/home/.npmrc" && secrets_crawl npm_config_registry=http://127.0.0.1:9/ -- npm:@acme/leftpad@1.0.0 ;;
	pypi-flag) secrets_crawl -- --pypi-index "$2" pypi:requests==1.0 ;;
	pypi-env) secrets_crawl PIP_INDEX_URL="$2" -- pypi:requests==1.0 ;;
	pip.conf) printf '[global]\nindex-url = %s\n' "$2" >"$SD/home/pip.conf" && secrets_crawl -- pypi:requests==1.0 ;;
	cargo-flag) secrets_crawl -- --cargo-index "$2" cargo:serde@1.0.0 ;;
	cargo-config) mkdir -p "$SD/proj/.cargo" && cargo_mirror "$2" >"$SD/proj/.cargo/config.toml" && secrets_crawl -- cargo:serde@1.0.0 ;;
	cargo-config-sparse) mkdir -p "$SD/proj/.cargo" && cargo_mirror "sparse+$2" >"$SD/proj/.cargo/config.toml" && secrets_crawl -- cargo:serde@1.0.0 ;;
	swift-flag) secrets_crawl -- --swift-registry "$2" swift:mona.LinkedList@1.0.0 ;;
	registries.json) mkdir -p "$SD/proj/.swiftpm/configuration" && swift_registries "$2" >"$SD/proj/.swiftpm/configuration/registries.json" && secrets_crawl -- swift:mona.LinkedList@1.0.0 ;;
	esac
}

# check_redirect: the other port was asked and got no credential; the registry's own redirect
# target got the expected Authorization (REDIRECT_WANT).
check_redirect() {
	local away=$W/secrets.away.log home=$W/secrets.home.log got
	if [ ! -s "$away" ]; then
		got=$(grep '^/hop/' "$home" | grep -o '"Authorization": "[^"]*"' | head -n1)
		echo "wrong: never reached the other port (the registry's redirect within its origin got ${got:-no Authorization}): $(grep -m1 '^failed' "$1.err" | cut -c1-100)"
	elif grep -q -e "$SECRET" -e "$REDIRECT_B64" -e '"Authorization"' "$away"; then
		echo "wrong: the other port got $(grep -o -m1 '"Authorization": "[^"]*"' "$away" | head -n1)"
	elif ! grep -qF "\"Authorization\": \"$REDIRECT_WANT\"" "$home"; then
		echo "wrong: the registry's redirect within its origin lost the credential"
	else
		echo ok
	fi
}

group_secrets() {
	local host src shape u reg home_port away_port eco
	mkdir -p "$W/secrets"
	secrets_server notfound "$W/secrets.notfound.log"
	host=127.0.0.1:$PORT
	reg=http://$host/

	# Point 1: URL shapes × sources, against a registry that has nothing, so the crawl fails and
	# says where it looked.
	for src in go-flag go-env go-env-file npm-flag npm-env npmrc-registry npmrc-scope pypi-flag pypi-env pip.conf \
		cargo-flag cargo-config cargo-config-sparse swift-flag registries.json; do
		for shape in userinfo bad-escape no-scheme slash-in-password query-token; do
			case $shape in
			userinfo) u=http://alice:$SECRET@$host/ ;;
			bad-escape) u=http://alice:$SECRET%zz@$host/ ;;
			no-scheme) u=alice:$SECRET@$host ;;
			slash-in-password) u=http://alice:$SECRET/x@$host/ ;;
			query-token) u=http://$host/?token=$SECRET ;;
			esac
			secrets_setup "$src.$shape"
			secrets_source "$src" "$u"
			try secrets "$src.$shape" check_no_secret /dev/null "${SECRETS_CMD[@]}"
		done
	done

	# Point 1: tokens.
	secrets_setup npmrc-authToken
	printf 'registry=%s\n//%s/:_authToken=%s\n' "$reg" "$host" "$SECRET" >"$SD/proj/.npmrc"
	secrets_crawl -- npm:leftpad@1.0.0
	try secrets npmrc-authToken check_no_secret /dev/null "${SECRETS_CMD[@]}"
	secrets_setup cargo-token-env
	mkdir -p "$SD/proj/.cargo" && cargo_mirror "sparse+$reg" >"$SD/proj/.cargo/config.toml"
	secrets_crawl CARGO_REGISTRIES_MIRROR_TOKEN=$SECRET -- cargo:serde@1.0.0
	try secrets cargo-token-env check_no_secret /dev/null "${SECRETS_CMD[@]}"
	secrets_setup swift-token-env
	secrets_crawl SWIFTPM_REGISTRY_TOKEN=$SECRET -- --swift-registry "$reg" swift:mona.LinkedList@1.0.0
	try secrets swift-token-env check_no_secret /dev/null "${SECRETS_CMD[@]}"
	secrets_setup swift-netrc
	echo "machine 127.0.0.1 login alice password $SECRET" >"$SD/home/.netrc"
	secrets_crawl -- --swift-registry "$reg" swift:mona.LinkedList@1.0.0
	try secrets swift-netrc check_no_secret /dev/null "${SECRETS_CMD[@]}"

	# Credentials in what a crawl is asked for: a Swift repository URL, requirements.txt lines.
	secrets_setup spec-swift-repository-url
	secrets_crawl -- --swift-registry "$reg" "swift:https://alice:$SECRET@$host/o/r.git@1.0.0"
	try secrets spec-swift-repository-url check_no_secret /dev/null "${SECRETS_CMD[@]}"
	secrets_setup from-requirements-vcs
	printf -- '-e git+https://alice:%s@%s/o/r.git#egg=r\nmypkg @ https://alice:%s@%s/x.whl\nrequests==1.0\n' "$SECRET" "$host" "$SECRET" "$host" >"$SD/proj/requirements.txt"
	secrets_crawl -- --pypi-index "$reg" --from requirements.txt
	try secrets from-requirements-vcs check_no_secret /dev/null "${SECRETS_CMD[@]}"

	# Point 2: a registry that redirects within its origin, then to another port.
	secrets_server away "$W/secrets.away.log"
	away_port=$PORT
	secrets_server home "$W/secrets.home.log" "$away_port"
	home_port=$PORT
	REDIRECT_B64=$(printf 'alice:%s' "$SECRET" | base64)
	for eco in go npm pypi cargo swift; do
		: >"$W/secrets.away.log"
		: >"$W/secrets.home.log"
		secrets_setup "redirect-$eco"
		case $eco in
		go)
			REDIRECT_WANT="Basic $REDIRECT_B64"
			secrets_crawl -- --goproxy "http://alice:$SECRET@127.0.0.1:$home_port/" go:example.com/x@v1.0.0 ;;
		npm)
			REDIRECT_WANT="Bearer $SECRET"
			printf 'registry=http://127.0.0.1:%s/\n//127.0.0.1:%s/:_authToken=%s\n' "$home_port" "$home_port" "$SECRET" >"$SD/proj/.npmrc"
			secrets_crawl -- npm:leftpad@1.0.0 ;;
		pypi)
			REDIRECT_WANT="Basic $REDIRECT_B64"
			secrets_crawl -- --pypi-index "http://alice:$SECRET@127.0.0.1:$home_port/simple/" pypi:requests==1.0 ;;
		cargo)
			REDIRECT_WANT=$SECRET
			mkdir -p "$SD/proj/.cargo" && cargo_mirror "sparse+http://127.0.0.1:$home_port/index/" >"$SD/proj/.cargo/config.toml"
			secrets_crawl CARGO_REGISTRIES_MIRROR_TOKEN=$SECRET -- cargo:serde@1.0.0 ;;
		swift)
			REDIRECT_WANT="Bearer $SECRET"
			secrets_crawl SWIFTPM_REGISTRY_TOKEN=$SECRET -- --swift-registry "http://127.0.0.1:$home_port/" swift:mona.LinkedList@1.0.0 ;;
		esac
		try secrets "redirect-other-port-$eco" check_redirect /dev/null "${SECRETS_CMD[@]}"
	done
}
