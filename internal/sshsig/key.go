package sshsig

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// maxKeyFile is the largest key file LoadSigner reads (bytes).
const maxKeyFile = 1 << 20

// ErrPassphrase is returned by LoadSigner for a passphrase-protected private key that no
// ssh-agent holds.
var ErrPassphrase = errors.New("the private key is protected by a passphrase")

// LoadSigner returns a signer for the key file at path: an OpenSSH (or PEM) private key
// without a passphrase is used directly. A passphrase-protected key, or a public key file
// (KEY.pub, as git's user.signingKey names it), is looked up by its public key in the ssh-agent
// listening on the Unix socket agentSocket (the value of SSH_AUTH_SOCK; "" for none), which then
// signs. LoadSigner never asks for a passphrase: without an agent holding the key, it returns an
// error wrapping ErrPassphrase that says to run ssh-add. The function it returns releases the
// signer (it closes the connection to the agent); call it once signing is done.
func LoadSigner(path, agentSocket string) (ssh.Signer, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	f.Close()
	if err != nil {
		return nil, nil, err
	}
	if len(raw) > maxKeyFile {
		return nil, nil, fmt.Errorf("%s: over %d bytes: not an SSH key", path, maxKeyFile)
	}
	signer, err := ssh.ParsePrivateKey(raw)
	if err == nil {
		return signer, func() {}, nil
	}
	var pub ssh.PublicKey
	var missing *ssh.PassphraseMissingError
	if errors.As(err, &missing) {
		pub = missing.PublicKey
		if pub == nil {
			if p, perr := readPublicKey(path + ".pub"); perr == nil {
				pub = p
			}
		}
		if pub == nil || agentSocket == "" {
			return nil, nil, fmt.Errorf("%s: %w: docidx does not ask for passphrases; add the key to ssh-agent ('ssh-add %s') and run docidx where SSH_AUTH_SOCK is set, or sign with a key without a passphrase", path, ErrPassphrase, path)
		}
	} else if p, _, _, _, perr := ssh.ParseAuthorizedKey(raw); perr == nil {
		pub = p
		if agentSocket == "" {
			return nil, nil, fmt.Errorf("%s is a public key: its private key must be in ssh-agent, and SSH_AUTH_SOCK is not set; give the private key file instead", path)
		}
	} else {
		return nil, nil, fmt.Errorf("%s: not an SSH private key: %v", path, err)
	}
	return agentSigner(agentSocket, pub, path)
}

func readPublicKey(path string) (ssh.PublicKey, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pub, _, _, _, err := ssh.ParseAuthorizedKey(raw)
	return pub, err
}

// agentSigner returns the signer of the agent at socket for pub, and a function that closes the
// connection to the agent.
func agentSigner(socket string, pub ssh.PublicKey, path string) (ssh.Signer, func(), error) {
	conn, err := net.DialTimeout("unix", socket, 5*time.Second)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: the key must come from ssh-agent, and the agent at SSH_AUTH_SOCK does not answer: %v", path, err)
	}
	signers, err := agent.NewClient(conn).Signers()
	if err != nil {
		conn.Close()
		return nil, nil, fmt.Errorf("ssh-agent: listing keys: %v", err)
	}
	want := string(pub.Marshal())
	for _, s := range signers {
		if string(s.PublicKey().Marshal()) == want {
			return s, func() { conn.Close() }, nil
		}
	}
	conn.Close()
	return nil, nil, fmt.Errorf("%s: the key must come from ssh-agent, which does not hold it (%s): add its private key with ssh-add", path, ssh.FingerprintSHA256(pub))
}
