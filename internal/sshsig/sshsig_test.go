package sshsig

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

const ns = "docidx"

// sshKeygen returns the path of ssh-keygen, or skips the test.
func sshKeygen(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("ssh-keygen not found in PATH: the interoperability tests need OpenSSH's ssh-keygen (apt install openssh-client)")
	}
	return p
}

// run runs ssh-keygen with args and stdin, and returns its stdout and an error with its stderr.
func run(t *testing.T, stdin []byte, args ...string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command(sshKeygen(t), args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.Bytes(), errors.New(strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

// newKey makes a key of type typ ("ed25519", "ecdsa", "rsa") with ssh-keygen in dir, with
// passphrase pass, and returns its path (the public key is path.pub).
func newKey(t *testing.T, dir, typ, pass string) string {
	t.Helper()
	path := filepath.Join(dir, "id_"+typ)
	args := []string{"-q", "-t", typ, "-N", pass, "-C", "test", "-f", path}
	if typ == "rsa" {
		args = append(args, "-b", "2048")
	}
	if _, err := run(t, nil, args...); err != nil {
		t.Fatalf("ssh-keygen %s: %v", typ, err)
	}
	return path
}

// allowed writes an allowed-signers file of "principal options pubkey" lines and returns its path.
func allowed(t *testing.T, dir string, lines ...string) string {
	t.Helper()
	p := filepath.Join(dir, "allowed_signers")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func pubLine(t *testing.T, key string) string {
	t.Helper()
	raw, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(raw))
}

func parseAllowed(t *testing.T, path string) AllowedSigners {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := ParseAllowedSigners(f)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

var message = bytes.Repeat([]byte("an archive's bytes\n"), 1000)

// TestSSHKeygenVerifiesSign: a signature made by Sign verifies with `ssh-keygen -Y verify`,
// and for the deterministic key types is byte for byte the one ssh-keygen makes.
func TestSSHKeygenVerifiesSign(t *testing.T) {
	sshKeygen(t)
	for _, typ := range []string{"ed25519", "ecdsa", "rsa"} {
		t.Run(typ, func(t *testing.T) {
			dir := t.TempDir()
			key := newKey(t, dir, typ, "")
			signer, done, err := LoadSigner(key, "")
			if err != nil {
				t.Fatal(err)
			}
			defer done()
			sig, err := Sign(signer, bytes.NewReader(message), ns)
			if err != nil {
				t.Fatal(err)
			}
			sigPath := filepath.Join(dir, "msg.sig")
			if err := os.WriteFile(sigPath, sig, 0o644); err != nil {
				t.Fatal(err)
			}
			signers := allowed(t, dir, "alice@example.com "+pubLine(t, key))
			out, err := run(t, message, "-Y", "verify", "-f", signers, "-I", "alice@example.com", "-n", ns, "-s", sigPath)
			if err != nil {
				t.Fatalf("ssh-keygen -Y verify refuses docidx's signature: %v\n%s", err, sig)
			}
			if !strings.Contains(string(out), `Good "docidx" signature for alice@example.com`) {
				t.Errorf("ssh-keygen -Y verify says %q", out)
			}
			if _, err := run(t, message, "-Y", "verify", "-f", signers, "-I", "alice@example.com", "-n", "git", "-s", sigPath); err == nil {
				t.Error("ssh-keygen -Y verify accepts the signature under namespace git")
			}
			if typ == "ecdsa" {
				return // ECDSA signatures are randomized
			}
			msgPath := filepath.Join(dir, "msg")
			if err := os.WriteFile(msgPath, message, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := run(t, nil, "-Y", "sign", "-f", key, "-n", ns, msgPath); err != nil {
				t.Fatal(err)
			}
			theirs, err := os.ReadFile(msgPath + ".sig")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(sig, theirs) {
				t.Errorf("docidx's signature differs from ssh-keygen's:\n%s\n%s", sig, theirs)
			}
		})
	}
}

// TestCheckSSHKeygenSignature: a signature made by `ssh-keygen -Y sign` passes Check, and
// says who signed; each way of getting it wrong fails with the matching error.
func TestCheckSSHKeygenSignature(t *testing.T) {
	sshKeygen(t)
	dir := t.TempDir()
	msgPath := filepath.Join(dir, "msg")
	if err := os.WriteFile(msgPath, message, 0o644); err != nil {
		t.Fatal(err)
	}
	// sign signs msg with key (ssh-keygen writes msg.sig) and returns the signature.
	sign := func(key string, args ...string) []byte {
		t.Helper()
		os.Remove(msgPath + ".sig")
		args = append([]string{"-Y", "sign", "-f", key}, append(args, msgPath)...)
		if _, err := run(t, nil, args...); err != nil {
			t.Fatal(err)
		}
		sig, err := os.ReadFile(msgPath + ".sig")
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	keys := map[string]string{}
	for _, typ := range []string{"ed25519", "ecdsa", "rsa"} {
		keys[typ] = newKey(t, dir, typ, "")
	}
	other := newKey(t, t.TempDir(), "ed25519", "")
	at := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	signers := parseAllowed(t, allowed(t, dir,
		"# the release team",
		"alice@example.com namespaces=\"docidx,file\" "+pubLine(t, keys["ed25519"]),
		"bob@example.com "+pubLine(t, keys["ecdsa"]),
		"carol@example.com valid-before=\"20260101Z\" "+pubLine(t, keys["rsa"]),
	))
	for _, tc := range []struct {
		name      string
		sig       []byte
		message   []byte
		signers   AllowedSigners
		principal string
		err       error  // nil: verifies
		says      string // in the error
	}{
		{name: "ed25519", sig: sign(keys["ed25519"], "-n", ns), principal: "alice@example.com"},
		{name: "ecdsa", sig: sign(keys["ecdsa"], "-n", ns), principal: "bob@example.com"},
		{name: "sha256", sig: sign(keys["ed25519"], "-n", ns, "-O", "hashalg=sha256"), principal: "alice@example.com"},
		{name: "wrong namespace", sig: sign(keys["ed25519"], "-n", "file"), err: ErrBadSignature, says: `namespace "file", not "docidx"`},
		{name: "tampered", sig: sign(keys["ed25519"], "-n", ns), message: append([]byte("x"), message...), err: ErrBadSignature},
		{name: "not listed", sig: sign(other, "-n", ns), err: ErrNotAllowed, says: "is not in the allowed signers"},
		{name: "expired", sig: sign(keys["rsa"], "-n", ns), err: ErrNotAllowed, says: "carol@example.com (line 4) expired at 2026-01-01T00:00:00Z"},
		{name: "namespace not allowed", sig: sign(keys["ed25519"], "-n", "git"), message: message,
			signers: parseAllowed(t, allowed(t, t.TempDir(), `alice@example.com namespaces="file" `+pubLine(t, keys["ed25519"]))),
			err:     ErrBadSignature},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, list := tc.message, tc.signers
			if msg == nil {
				msg = message
			}
			if list == nil {
				list = signers
			}
			s, err := Check(tc.sig, bytes.NewReader(msg), ns, list, at)
			if tc.err == nil {
				if err != nil {
					t.Fatal(err)
				}
				if s.Principals != tc.principal {
					t.Errorf("signed by %q, want %q", s.Principals, tc.principal)
				}
				return
			}
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if !strings.Contains(err.Error(), tc.says) {
				t.Errorf("err = %v, want it to say %q", err, tc.says)
			}
		})
	}
}

// TestFindNamespacesAndValidity checks Find's options against the namespace and time.
func TestFindNamespacesAndValidity(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	key, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	line := func(opts string) string {
		return "alice " + opts + " " + string(bytes.TrimSpace(ssh.MarshalAuthorizedKey(key)))
	}
	at := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		opts string
		ok   bool
		says string
	}{
		{`namespaces="docidx"`, true, ""},
		{`namespaces="doc*"`, true, ""},
		{`namespaces="*,!docidx"`, false, "may sign only namespaces"},
		{`namespaces="git,file"`, false, "may sign only namespaces"},
		{`valid-after="20260101Z"`, true, ""},
		{`valid-after="20260601000001Z"`, false, "is not valid before 2026-06-01T00:00:01Z"},
		{`valid-before="20260601Z"`, true, ""}, // at the instant itself: still valid, as ssh-keygen has it
		{`valid-before="202605312359Z"`, false, "expired at 2026-05-31T23:59:00Z"},
		{`cert-authority`, false, "1 cert-authority lines were not considered"},
	} {
		a, err := ParseAllowedSigners(strings.NewReader(line(tc.opts)))
		if err != nil {
			t.Fatalf("%s: %v", tc.opts, err)
		}
		_, err = a.Find(key, ns, at)
		if tc.ok != (err == nil) || err != nil && (!errors.Is(err, ErrNotAllowed) || !strings.Contains(err.Error(), tc.says)) {
			t.Errorf("%s: err = %v, want ok=%v saying %q", tc.opts, err, tc.ok, tc.says)
		}
	}
}

// TestParseRefusesCertificate: a signature made with an SSH certificate is refused, with an
// error that says so.
func TestParseRefusesCertificate(t *testing.T) {
	_, caPriv, _ := ed25519.GenerateKey(rand.Reader)
	ca, err := ssh.NewSignerFromKey(caPriv)
	if err != nil {
		t.Fatal(err)
	}
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	user, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	cert := &ssh.Certificate{Key: user.PublicKey(), CertType: ssh.UserCert, ValidPrincipals: []string{"alice"}, ValidBefore: ssh.CertTimeInfinity}
	if err := cert.SignCert(rand.Reader, ca); err != nil {
		t.Fatal(err)
	}
	// ssh-keygen signs with a certificate when it finds KEY-cert.pub: the blob then carries the
	// certificate as its public key.
	data, err := toSign(bytes.NewReader(message), ns, "sha512")
	if err != nil {
		t.Fatal(err)
	}
	s, err := user.Sign(rand.Reader, data)
	if err != nil {
		t.Fatal(err)
	}
	sig := armor(append([]byte(magic), ssh.Marshal(blob{Version: version, PublicKey: cert.Marshal(), Namespace: ns, HashAlgorithm: "sha512", Signature: ssh.Marshal(s)})...))
	if _, err := Parse(sig); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("Parse of a certificate's signature: err = %v, want one about certificates", err)
	}
}

// TestLoadSignerPassphrase: a passphrase-protected key is an error that says what to do, unless
// an ssh-agent holds it; then the agent signs (RSA with rsa-sha2-512), and ssh-keygen agrees.
func TestLoadSignerPassphrase(t *testing.T) {
	sshKeygen(t)
	dir := t.TempDir()
	for _, typ := range []string{"ed25519", "rsa"} {
		key := newKey(t, dir, typ, "correct horse")
		if _, _, err := LoadSigner(key, ""); !errors.Is(err, ErrPassphrase) || !strings.Contains(err.Error(), "ssh-add") {
			t.Fatalf("%s: err = %v, want ErrPassphrase and a hint to ssh-add", typ, err)
		}
		// An agent (x/crypto's in-memory keyring) that holds the key, on a Unix socket.
		raw, err := os.ReadFile(key)
		if err != nil {
			t.Fatal(err)
		}
		priv, err := ssh.ParseRawPrivateKeyWithPassphrase(raw, []byte("correct horse"))
		if err != nil {
			t.Fatal(err)
		}
		keyring := agent.NewKeyring()
		if err := keyring.Add(agent.AddedKey{PrivateKey: priv}); err != nil {
			t.Fatal(err)
		}
		sock := filepath.Join(dir, typ+".sock")
		ln, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go func() { agent.ServeAgent(keyring, c); c.Close() }()
			}
		}()
		for _, path := range []string{key, key + ".pub"} {
			signer, done, err := LoadSigner(path, sock)
			if err != nil {
				t.Fatalf("%s through the agent: %v", path, err)
			}
			sig, err := Sign(signer, bytes.NewReader(message), ns)
			done()
			if err != nil {
				t.Fatal(err)
			}
			sigPath := filepath.Join(dir, "agent.sig")
			if err := os.WriteFile(sigPath, sig, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := run(t, message, "-Y", "verify", "-f", allowed(t, dir, "alice "+pubLine(t, key)), "-I", "alice", "-n", ns, "-s", sigPath); err != nil {
				t.Errorf("%s: ssh-keygen refuses the agent's signature: %v", path, err)
			}
		}
		ln.Close()
	}
	other := newKey(t, t.TempDir(), "ed25519", "")
	if _, _, err := LoadSigner(other+".pub", ""); err == nil || !strings.Contains(err.Error(), "public key") {
		t.Errorf("a public key without an agent: err = %v", err)
	}
}

// TestAllowedSignersAgreeWithSSHKeygen: for each allowed-signers line, Check accepts a
// signature exactly when `ssh-keygen -Y verify` does.
func TestAllowedSignersAgreeWithSSHKeygen(t *testing.T) {
	sshKeygen(t)
	dir := t.TempDir()
	key := newKey(t, dir, "ed25519", "")
	pub := pubLine(t, key)
	msgPath := filepath.Join(dir, "msg")
	if err := os.WriteFile(msgPath, message, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, nil, "-Y", "sign", "-f", key, "-n", ns, msgPath); err != nil {
		t.Fatal(err)
	}
	sig, err := os.ReadFile(msgPath + ".sig")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"alice " + pub,
		`alice namespaces="docidx" ` + pub,
		`alice NAMESPACES="docidx" ` + pub,
		`alice namespaces="git,doc*" ` + pub,
		`alice namespaces="*,!docidx" ` + pub,
		`alice namespaces="git" ` + pub,
		`alice valid-before="20200101" ` + pub,
		`alice valid-before="29990101Z" ` + pub,
		`alice valid-after="29990101" ` + pub,
		`alice valid-after="20200101Z",valid-before="29990101000000Z" ` + pub,
		`alice cert-authority ` + pub,
		`alice cert-authority,namespaces="docidx" ` + pub,
		`alice verify-required ` + pub,
		`alice namespaces=docidx ` + pub,
		`"alice" ` + pub,
		"alice " + pub + " with a comment",
		"# alice " + pub,
	} {
		path := allowed(t, dir, line)
		_, theirs := run(t, message, "-Y", "verify", "-f", path, "-I", "alice", "-n", ns, "-s", msgPath+".sig")
		var ours error
		if signers, err := ParseAllowedSigners(strings.NewReader(line)); err != nil {
			ours = err
		} else {
			_, ours = Check(sig, bytes.NewReader(message), ns, signers, time.Now())
		}
		if (ours == nil) != (theirs == nil) {
			t.Errorf("%s\n  docidx: %v\n  ssh-keygen: %v", line, ours, theirs)
		}
	}
}
