# shellcheck shell=bash
# signing: signed archives (issue 25, "Beyond the peers"). docidx pack --sign writes ARCHIVE.sig,
# which the real ssh-keygen must verify; a signature made by `ssh-keygen -Y sign -n docidx`
# must verify with docidx verify --allowed-signers; verify, unpack --allowed-signers and
# serve --require-signed must refuse, with exit status 1 and an error that says why, an archive
# that is unsigned, tampered, signed for another namespace, by a key the allowed signers do not
# list, or outside its validity; a passphrase-protected key must fail clearly without a prompt.
# Needs ssh-keygen (OpenSSH); every try is skipped without it.

# sig_expect PATTERN: the check sig_refused uses.
SIG_ERR=
# sig_refused PREFIX: exit status 1, nothing on stdout but (for --json) JSON, and SIG_ERR on stderr.
sig_refused() {
	if [ "$RC" -ne 1 ]; then echo "wrong: exit $RC, want 1: $(first_line "$1.err")"
	elif grep -q jsonrpc "$1.out"; then echo "wrong: served although refused"
	elif ! grep -qE "$SIG_ERR" "$1.err"; then echo "wrong: error does not say /$SIG_ERR/: $(first_line "$1.err")"
	else echo ok; fi
}
# sig_verified PREFIX: exit 0, and stdout names the signer (SIG_ERR: principal and fingerprint).
sig_verified() {
	if [ "$RC" -ne 0 ]; then echo "wrong: exit $RC: $(first_line "$1.err")"
	elif ! grep -qE "$SIG_ERR" "$1.out"; then echo "wrong: does not say who signed (/$SIG_ERR/): $(first_line "$1.out")"
	else echo ok; fi
}
# sig_keygen_verifies PREFIX: pack --sign succeeded, and ssh-keygen -Y verify accepts ARCHIVE.sig
# (SIG_ARCHIVE) as signed by SIG_PRINCIPAL in namespace docidx.
sig_keygen_verifies() {
	if [ "$RC" -ne 0 ]; then echo "wrong: exit $RC: $(first_line "$1.err")"; return; fi
	if [ ! -s "$SIG_ARCHIVE.sig" ]; then echo "wrong: no $(basename "$SIG_ARCHIVE").sig written"; return; fi
	if ! ssh-keygen -Y verify -f "$SIG_DIR/allowed_signers" -I "$SIG_PRINCIPAL" -n docidx -s "$SIG_ARCHIVE.sig" <"$SIG_ARCHIVE" >"$1.keygen" 2>&1; then
		echo "wrong: ssh-keygen -Y verify refuses it: $(first_line "$1.keygen")"
	else echo ok; fi
}
# sig_served PREFIX: a stdio session answered initialize and the search.
sig_served() {
	if [ "$RC" -ne 0 ]; then echo "wrong: exit $RC: $(first_line "$1.err")"; return; fi
	rpc check "$1.out" 1:result 2:result
}
# sig_unpacked PREFIX: exit 0 and the index directory SIG_INDEX has a current snapshot.
sig_unpacked() {
	if [ "$RC" -ne 0 ]; then echo "wrong: exit $RC: $(first_line "$1.err")"
	elif [ ! -s "$SIG_INDEX/CURRENT" ]; then echo "wrong: nothing installed"
	else echo ok; fi
}
# sig_no_key PREFIX: refused (sig_refused) without a prompt on stdout, and no SIG_ARCHIVE written.
sig_no_key() {
	local v
	v=$(sig_refused "$1")
	if [ "$v" = ok ] && [ -s "$1.out" ]; then v="wrong: wrote to stdout: $(first_line "$1.out")"; fi
	if [ "$v" = ok ] && [ -e "$SIG_ARCHIVE" ]; then v="wrong: wrote the archive although it could not sign it"; fi
	echo "$v"
}
# sig_not_unpacked PREFIX: refused (sig_refused), and SIG_INDEX has no snapshot.
sig_not_unpacked() {
	local v
	v=$(sig_refused "$1")
	if [ "$v" = ok ] && [ -e "$SIG_INDEX/CURRENT" ]; then v="wrong: installed although refused"; fi
	echo "$v"
}

group_signing() {
	local d=$W/signing k fp
	if ! command -v ssh-keygen >/dev/null; then
		record signing all skip "ssh-keygen not found: install OpenSSH's client tools"
		return
	fi
	SIG_DIR=$d
	mkdir -p "$d"
	for k in ed25519 ecdsa rsa; do ssh-keygen -q -t "$k" -N '' -C "$k" -f "$d/$k"; done
	ssh-keygen -q -t ed25519 -N '' -C stranger -f "$d/stranger"
	ssh-keygen -q -t ed25519 -N 'a passphrase' -C locked -f "$d/locked"
	{
		echo "ed25519@example.com namespaces=\"docidx\" $(cat "$d/ed25519.pub")"
		echo "ecdsa@example.com $(cat "$d/ecdsa.pub")"
		echo "rsa@example.com $(cat "$d/rsa.pub")"
	} >"$d/allowed_signers"
	echo "old@example.com valid-before=\"20200101Z\" $(cat "$d/ed25519.pub")" >"$d/expired"
	echo "future@example.com valid-after=\"29990101Z\" $(cat "$d/ed25519.pub")" >"$d/future"
	echo "gitonly@example.com namespaces=\"git,file\" $(cat "$d/ed25519.pub")" >"$d/gitonly"
	echo "ca@example.com cert-authority $(cat "$d/ed25519.pub")" >"$d/ca_only"
	echo "x@example.com verify-required $(cat "$d/ed25519.pub")" >"$d/bad_option"
	# The key's fingerprint as an extended regular expression (SHA256:… may hold + and /).
	fp=$(ssh-keygen -l -f "$d/ed25519.pub" | awk '{print $2}' | sed 's/[+.]/\\&/g')

	# Archives: unsigned (packed by the binary under test), and copies signed by ssh-keygen.
	"$BIN" pack --index "$BASE" -o "$d/plain.tar.zst" 2>/dev/null
	sign_copy() { # sign_copy NAME KEY [ssh-keygen -Y sign options]: NAME.tar.zst signed by KEY
		local name=$1 key=$2
		shift 2
		cp "$d/plain.tar.zst" "$d/$name.tar.zst"
		ssh-keygen -Y sign -f "$d/$key" "$@" "$d/$name.tar.zst" 2>/dev/null
	}
	sign_copy signed ed25519 -n docidx
	sign_copy sha256 ed25519 -n docidx -O hashalg=sha256
	sign_copy gitns ed25519 -n git
	sign_copy stranger stranger -n docidx
	sign_copy rsasigned rsa -n docidx
	cp "$d/signed.tar.zst" "$d/tampered.tar.zst"
	flip_byte "$d/tampered.tar.zst"
	cp "$d/signed.tar.zst.sig" "$d/tampered.tar.zst.sig"
	cp "$d/plain.tar.zst" "$d/garbage.tar.zst"
	head -c 3000 /dev/urandom >"$d/garbage.tar.zst.sig"
	cp "$d/plain.tar.zst" "$d/fifo.tar.zst"
	mkfifo "$d/fifo.tar.zst.sig"
	cp "$d/plain.tar.zst" "$d/huge.tar.zst"
	truncate -s 1G "$d/huge.tar.zst.sig"
	{ init_line; echo "$INITIALIZED"; search_line 2; } >"$d/session"

	# docidx signs, ssh-keygen verifies: each key type.
	for k in ed25519 ecdsa rsa; do
		SIG_ARCHIVE=$d/by-docidx-$k.tar.zst SIG_PRINCIPAL=$k@example.com \
			try signing "pack-sign-$k/ssh-keygen-verifies" sig_keygen_verifies /dev/null \
			"$BIN" pack --index "$BASE" --sign "$d/$k" -o "$d/by-docidx-$k.tar.zst"
	done
	# A public key file through a real ssh-agent that holds the key.
	if command -v ssh-agent >/dev/null && command -v ssh-add >/dev/null; then
		local agent_pid
		agent_pid=$(
			eval "$(ssh-agent -s -a "$d/agent.sock")" >/dev/null
			ssh-add -q "$d/ed25519" 2>/dev/null
			echo "$SSH_AGENT_PID"
		)
		BG_PIDS+=("$agent_pid")
		SSH_AUTH_SOCK=$d/agent.sock SIG_ARCHIVE=$d/by-agent.tar.zst SIG_PRINCIPAL=ed25519@example.com \
			try signing "pack-sign-pub-key-via-ssh-agent/ssh-keygen-verifies" sig_keygen_verifies /dev/null \
			"$BIN" pack --index "$BASE" --sign "$d/ed25519.pub" -o "$d/by-agent.tar.zst"
		kill "$agent_pid" 2>/dev/null
	fi
	SSH_AUTH_SOCK='' SIG_ERR='passphrase.*ssh-add' SIG_ARCHIVE=$d/locked.tar.zst \
		try signing pack-sign-passphrase-key-no-prompt sig_no_key /dev/null \
		"$BIN" pack --index "$BASE" --sign "$d/locked" -o "$d/locked.tar.zst"

	# ssh-keygen signs, docidx verifies and names the signer.
	SIG_ERR="signed by ed25519@example.com with ssh-ed25519 key $fp" \
		try signing verify-ssh-keygen-signature sig_verified /dev/null "$BIN" verify --allowed-signers "$d/allowed_signers" "$d/signed.tar.zst"
	SIG_ERR="signed by ed25519@example.com .*$fp" \
		try signing verify-ssh-keygen-sha256-signature sig_verified /dev/null "$BIN" verify --allowed-signers "$d/allowed_signers" "$d/sha256.tar.zst"
	SIG_ERR="signed by rsa@example.com with ssh-rsa key SHA256:" \
		try signing verify-ssh-keygen-rsa-signature sig_verified /dev/null "$BIN" verify --allowed-signers "$d/allowed_signers" "$d/rsasigned.tar.zst"

	# What verify must refuse.
	local name file signers
	while read -r name file signers SIG_ERR; do
		case $signers in /*) ;; *) signers=$d/$signers ;; esac
		try signing "verify-refuses-$name" sig_refused /dev/null "$BIN" verify --allowed-signers "$signers" "$d/$file"
	done <<EOF
wrong-namespace gitns.tar.zst allowed_signers namespace "git", not "docidx"
tampered-archive tampered.tar.zst allowed_signers signature does not verify
key-not-allowed stranger.tar.zst allowed_signers is not in the allowed signers
expired-valid-before signed.tar.zst expired expired at 2020-01-01
not-yet-valid-after signed.tar.zst future not valid before 2999-01-01
namespaces-without-docidx signed.tar.zst gitonly may sign only namespaces
unsigned plain.tar.zst allowed_signers not signed
garbage-signature garbage.tar.zst allowed_signers not an SSH signature
1GB-signature huge.tar.zst allowed_signers not an SSH signature
fifo-signature fifo.tar.zst allowed_signers not a regular file
cert-authority-only signed.tar.zst ca_only cert-authority lines were not considered
unsupported-option signed.tar.zst bad_option line 1: unsupported option
allowed-signers-devzero signed.tar.zst /dev/zero allowed-signers file
EOF

	# serve --require-signed: refuses unsigned, untrusted and index directories; serves a good one.
	SIG_ERR='not signed' try signing serve-require-signed-refuses-unsigned sig_refused "$d/session" \
		"$BIN" serve --stdio --require-signed --allowed-signers "$d/allowed_signers" --index "$d/plain.tar.zst"
	SIG_ERR='not in the allowed signers' try signing serve-require-signed-refuses-untrusted sig_refused "$d/session" \
		"$BIN" serve --stdio --require-signed --allowed-signers "$d/allowed_signers" --index "$d/stranger.tar.zst"
	SIG_ERR='signature does not verify' try signing serve-require-signed-refuses-tampered sig_refused "$d/session" \
		"$BIN" serve --stdio --require-signed --allowed-signers "$d/allowed_signers" --index "$d/tampered.tar.zst"
	SIG_ERR='index directory keeps no signature' try signing serve-require-signed-refuses-index-dir sig_refused "$d/session" \
		"$BIN" serve --stdio --require-signed --allowed-signers "$d/allowed_signers" --index "$BASE"
	DOCIDX_CACHE=$d/cache try signing serve-require-signed-serves-signed sig_served "$d/session" \
		"$BIN" serve --stdio --require-signed --allowed-signers "$d/allowed_signers" --index "$d/signed.tar.zst"

	# unpack --allowed-signers: installs only what verifies.
	SIG_INDEX=$d/idx-unsigned SIG_ERR='not signed' try signing unpack-refuses-unsigned sig_not_unpacked /dev/null \
		"$BIN" unpack --index "$d/idx-unsigned" --allowed-signers "$d/allowed_signers" "$d/plain.tar.zst"
	SIG_INDEX=$d/idx-gitns SIG_ERR='namespace "git"' try signing unpack-refuses-wrong-namespace sig_not_unpacked /dev/null \
		"$BIN" unpack --index "$d/idx-gitns" --allowed-signers "$d/allowed_signers" "$d/gitns.tar.zst"
	SIG_INDEX=$d/idx-signed try signing unpack-installs-signed sig_unpacked /dev/null \
		"$BIN" unpack --index "$d/idx-signed" --allowed-signers "$d/allowed_signers" "$d/signed.tar.zst"
}
